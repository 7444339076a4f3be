import Foundation
import ServerBeeModels
import Testing

@testable import RealtimeStream

/// The live-stream shape comes from one table (`MetricField`): both models hold what it says,
/// and every path (fast reader, Codable, merge) follows it.
@Suite struct MetricTableTests {
  @Test func aFullSyncEntryHoldsEveryFieldOfTheTableInItsOrder() {
    #expect(ServerStatus.layout.fields == MetricField.allCases)
  }

  @Test func anUpdateEntryHoldsExactlyTheFieldsAnUpdateCarries() {
    #expect(Set(LiveMetrics.layout.fields) == Set(MetricField.updateOrder))
    #expect(MetricField.updateOrder.count == Set(MetricField.updateOrder).count)
  }

  /// Protocol/LiveStream.md §7 reads `country` / `country_code` in both frame kinds; an `update`
  /// entry used to drop it.
  @Test(arguments: [#""country":"DE""#, #""country_code":"DE""#])
  func anUpdateEntryKeepsItsCountryOnEveryPathAndTheMergeAppliesIt(_ member: String) throws {
    let frame = Data(
      (#"{"type":"update","servers":[{"id":"s1","name":"web","cpu":12.5,"# + member + "}]}")
        .utf8)
    let fast = try #require(
      frame.withUnsafeBytes { raw in
        FastFrameReader.read(raw.bindMemory(to: UInt8.self))
      })
    let codable = try LiveStreamMessage(decoding: frame)
    #expect(fast == codable)
    guard case .update(let update) = fast, let metrics = update.servers.first else {
      Issue.record("not an update: \(fast)")
      return
    }
    #expect(metrics.countryCode == "DE")
    var status = ServerStatus(id: "s1", name: "web", countryCode: "FR")
    status.merge(metrics)
    #expect(status.countryCode == "DE")
    #expect(status.cpu == 12.5)
  }

  @Test func anUpdateWithoutACountryKeepsTheCachedOneAndEncodesAsBefore() throws {
    let metrics = LiveMetrics(id: "s1", name: "web", cpu: 1)
    var status = ServerStatus(id: "s1", name: "web", countryCode: "FR")
    status.merge(metrics)
    #expect(status.countryCode == "FR")
    #expect(
      String(decoding: try WireJSON.encode(metrics), as: UTF8.self)
        == #"{"id":"s1","name":"web","cpu":1.0}"#)
  }
}
