import Foundation
import ServerBeeModels
import Testing

/// Ping tasks (Protocol/Tasks.md §5): the documented shape decodes with its servers as JSON
/// text, and a request body carries only the members set, `server_ids` as a real array.
@Suite struct PingTaskModelsTests {
  private func json(_ value: some Encodable) throws -> String {
    String(decoding: try WireJSON.encode(value), as: UTF8.self)
  }

  @Test func theDocumentedPingTasksDecodeAndReadTheirServerLists() throws {
    let tasks = try APIResponse<[PingTask]>.payload(
      status: 200, body: try Fixtures.data("tasks/ping_tasks.json"))
    #expect(tasks.count == 2)
    #expect(tasks[0].probeType == .icmp && tasks[0].interval == 60 && tasks[0].enabled)
    // `"[]"` is every capable server: an empty list, not a missing one.
    #expect(tasks[0].serverIDs == [])
    #expect(tasks[1].probeType == .http && !tasks[1].enabled)
    #expect(
      tasks[1].serverIDs == [
        "c2f1a7de-5b0e-4f51-9d7c-2f4a8e61b3c0", "a9d3c1e0-7f2b-4d6a-8c5e-1b0f9e8d7c6b",
      ])
    #expect(tasks[1].createdAt.nanoseconds == 250_000_000)
    // A newer probe kind survives; text that is not an array reads as no list.
    var odd = tasks[0]
    odd.serverIDsJSON = "not json"
    #expect(odd.serverIDs == nil)
    #expect(PingProbeType(rawValue: "dns").rawValue == "dns")
  }

  @Test func aCreateBodySendsTheServersAsAnArrayInWireOrder() throws {
    let body = PingTaskRequest(
      name: "Edge", probeType: .tcp, target: "10.0.0.8:443", interval: 30,
      serverIDs: ["a", "b"], enabled: true)
    #expect(
      try json(body)
        == #"{"name":"Edge","probe_type":"tcp","target":"10.0.0.8:443","interval":30,"#
        + #""server_ids":["a","b"],"enabled":true}"#)
  }

  @Test func theTogglesBodyIsOnlyEnabledAndNothingIsSentAsNull() throws {
    #expect(try json(PingTaskRequest(enabled: false)) == #"{"enabled":false}"#)
    #expect(try json(PingTaskRequest(target: "example.com")) == #"{"target":"example.com"}"#)
    #expect(try json(PingTaskRequest()) == "{}")
  }
}
