import Foundation
import ServerBeeModels
import Testing

/// IP quality payloads (Protocol/AppRoutes.md §9): every documented example decodes.
@Suite struct IPQualityModelsTests {
  @Test func theExamplesDecode() throws {
    let one = try APIResponse<ServerIPQuality>.payload(
      status: 200, body: Fixtures.data("ip_quality/server.json"))
    #expect(one.unlockResults.map(\.status) == [.unlocked, .blocked])
    #expect(one.unlockResults[1].latencyMs == nil)
    #expect(one.ipQuality?.riskScore == 12 && one.ipQuality?.isHosting == true)
    let empty = try APIResponse<ServerIPQuality>.payload(
      status: 200, body: Fixtures.data("ip_quality/server_unchecked.json"))
    #expect(empty.ipQuality == nil && empty.unlockResults.isEmpty)
    let all = try APIResponse<[ServerIPQuality]>.payload(
      status: 200, body: Fixtures.data("ip_quality/overview.json"))
    #expect(all.count == 2 && all[1].ipQuality?.asn == nil)
    let services = try APIResponse<[UnlockService]>.payload(
      status: 200, body: Fixtures.data("ip_quality/services.json"))
    #expect(services.map(\.isBuiltin) == [true, false])
    let settings = try APIResponse<IPQualitySettings>.payload(
      status: 200, body: Fixtures.data("ip_quality/settings.json"))
    #expect(settings.checkIntervalHours == 12)
  }
}
