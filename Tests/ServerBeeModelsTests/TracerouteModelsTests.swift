import Foundation
import ServerBeeModels
import Testing

/// Traceroute payloads (Protocol/AppRoutes.md §7): every documented example decodes, and a hop
/// writes its measured members only when present, as the server does.
@Suite struct TracerouteModelsTests {
  @Test func theSnapshotsDecodeWithTheirOptionalHopMembers() throws {
    let done = try APIResponse<TracerouteSnapshot>.payload(
      status: 200, body: Fixtures.data("traceroute/snapshot_done.json"))
    #expect(done.isFinished && done.completedAt == 1_764_940_805_600)
    #expect(done.hops.count == 3)
    #expect(done.hops[1].ips == nil && done.hops[1].lossPct == 100)
    #expect(done.hops[2].asn == "AS15133")
    let running = try APIResponse<TracerouteSnapshot>.payload(
      status: 200, body: Fixtures.data("traceroute/snapshot_running.json"))
    #expect(!running.isFinished && running.completedAt == nil && running.protocol == .tcp)
    let failed = try APIResponse<TracerouteSnapshot>.payload(
      status: 200, body: Fixtures.data("traceroute/snapshot_legacy_failed.json"))
    #expect(failed.isFinished && failed.error == "agent disconnected")
    #expect(failed.protocol == .legacy && failed.hops[0].rtt2 == 0.6)
    let history = try APIResponse<[TracerouteSummary]>.payload(
      status: 200, body: Fixtures.data("traceroute/history.json"))
    #expect(history.map(\.hopCount) == [1, 3])
    #expect(history[0].id == "0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f")
  }

  @Test func aHopLeavesOutWhatWasNotMeasured() throws {
    let silent = TracerouteHop(hop: 4, totalSent: 3, totalRecv: 0, lossPct: 100)
    #expect(
      String(decoding: try WireJSON.encode(silent), as: UTF8.self)
        == #"{"hop":4,"hostname":null,"asn":null,"total_sent":3,"total_recv":0,"loss_pct":100.0}"#)
    let request = TracerouteRequest(target: "example.com")
    #expect(
      String(decoding: try WireJSON.encode(request), as: UTF8.self) == #"{"target":"example.com"}"#)
  }
}
