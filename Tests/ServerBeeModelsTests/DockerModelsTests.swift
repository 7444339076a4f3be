import Foundation
import ServerBeeModels
import Testing

/// Docker payloads (Protocol/AppRoutes.md §8): every documented example decodes, the action is
/// written as the server's externally tagged PascalCase enum, and the logs socket's messages
/// read and write as documented.
@Suite struct DockerModelsTests {
  @Test func theReadAnswersDecode() throws {
    let containers = try APIResponse<DockerContainersResponse>.payload(
      status: 200, body: Fixtures.data("docker/containers.json")
    ).containers
    #expect(containers.map(\.displayName) == ["stack-web-1", "worker"])
    #expect(containers[0].isRunning && !containers[1].isRunning)
    #expect(containers[0].ports[1].publicPort == nil && containers[0].ports[1].ip == nil)
    #expect(containers[0].labels["com.docker.compose.service"] == "web")
    #expect(containers[1].created == 1_764_700_000)
    let empty = try APIResponse<DockerContainersResponse>.payload(
      status: 200, body: Fixtures.data("docker/containers_empty.json"))
    #expect(empty.containers.isEmpty)
    let stats = try APIResponse<DockerStatsResponse>.payload(
      status: 200, body: Fixtures.data("docker/stats.json")
    ).stats
    #expect(stats[0].cpuPercent == 2.37 && stats[0].memoryLimit == 4_294_967_296)
    let info = try APIResponse<DockerInfoResponse>.payload(
      status: 200, body: Fixtures.data("docker/info.json")
    ).info
    #expect(info.dockerVersion == "27.3.1" && info.containersStopped == 1)
    let events = try APIResponse<DockerEventsResponse>.payload(
      status: 200, body: Fixtures.data("docker/events.json")
    ).events
    #expect(events.map(\.action) == ["die", "connect"])
    #expect(events[0].attributes["exitCode"] == "1" && events[1].actorName == nil)
    let networks = try APIResponse<DockerNetworksResponse>.payload(
      status: 200, body: Fixtures.data("docker/networks.json")
    ).networks
    #expect(networks[0].containers.values.sorted() == ["stack-web-1"])
    let volumes = try APIResponse<DockerVolumesResponse>.payload(
      status: 200, body: Fixtures.data("docker/volumes.json")
    ).volumes
    #expect(volumes.map(\.createdAt) == ["2026-12-01T08:00:00Z", nil])
  }

  @Test func theActionResultIsA200EitherWay() throws {
    let ok = try APIResponse<DockerActionResult>.payload(
      status: 200, body: Fixtures.data("docker/action_ok.json"))
    #expect(ok == DockerActionResult(success: true))
    let failed = try APIResponse<DockerActionResult>.payload(
      status: 200, body: Fixtures.data("docker/action_failed.json"))
    #expect(!failed.success && failed.error == "No such container: stack-web-9")
    #expect(
      String(decoding: try WireJSON.encode(ok), as: UTF8.self)
        == #"{"success":true,"error":null}"#)
  }

  @Test(arguments: [
    (DockerContainerAction.start, #"{"action":"Start"}"#),
    (.stop(timeout: nil), #"{"action":{"Stop":{"timeout":null}}}"#),
    (.stop(timeout: 10), #"{"action":{"Stop":{"timeout":10}}}"#),
    (.restart(timeout: nil), #"{"action":{"Restart":{"timeout":null}}}"#),
    (.restart(timeout: 3), #"{"action":{"Restart":{"timeout":3}}}"#),
    (.remove(force: false), #"{"action":{"Remove":{"force":false}}}"#),
    (.remove(force: true), #"{"action":{"Remove":{"force":true}}}"#),
  ])
  func anActionIsWrittenExternallyTaggedInPascalCase(
    _ action: DockerContainerAction, _ wire: String
  ) throws {
    let body = DockerActionRequest(action: action)
    #expect(String(decoding: try WireJSON.encode(body), as: UTF8.self) == wire)
    #expect(try WireJSON.decode(DockerActionRequest.self, from: Data(wire.utf8)) == body)
  }

  @Test func aContainerIsNamedByItsIdAnIdPrefixOfTwelveOrItsName() {
    let container = DockerContainer(
      id: "3f4e8a1c9b2d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f", name: "/stack-web-1",
      image: "nginx:1.27", state: "running", status: "Up 9 days", created: 0)
    for reference in [container.id, "3f4e8a1c9b2d", "stack-web-1", "/stack-web-1"] {
      #expect(container.isNamed(by: reference), "\(reference)")
    }
    for reference in ["", "3f4e8a1c9b2", "stack-web", "stack-web-2", "//stack-web-1"] {
      #expect(!container.isNamed(by: reference), "\(reference)")
    }
  }

  @Test func anUnknownOrLowerCaseActionDoesNotDecode() {
    for wire in [#"{"action":"start"}"#, #"{"action":"Pause"}"#, #"{"action":{"Remove":{}}}"#] {
      #expect(throws: ServerBeeModelsError.self) {
        try WireJSON.decode(DockerActionRequest.self, from: Data(wire.utf8))
      }
    }
  }

  @Test func theLogsSocketsMessagesReadAndWriteAsDocumented() throws {
    #expect(
      try DockerLogServerMessage.decode(#"{"type":"session","session_id":"s-1"}"#)
        == .session(id: "s-1"))
    let logs = try DockerLogServerMessage.decode(
      #"{"type":"logs","entries":[{"timestamp":null,"stream":"stderr","message":"boom"},"#
        + #"{"timestamp":"2026-12-05T10:00:00.123456789Z","stream":"stdout","message":"ok"}]}"#)
    guard case .logs(let entries) = logs else {
      Issue.record("not logs: \(logs)")
      return
    }
    #expect(entries.map(\.isStandardError) == [true, false])
    #expect(entries[0].timestamp == nil)
    #expect(try DockerLogServerMessage.decode(#"{"type":"pong"}"#) == .unknown(type: "pong"))
    #expect(throws: ServerBeeModelsError.self) { try DockerLogServerMessage.decode("{}") }
    #expect(throws: ServerBeeModelsError.self) {
      try DockerLogServerMessage.decode(#"{"type":"session"}"#)
    }
    #expect(
      try DockerLogClientMessage.subscribe(containerID: "web", tail: 50, follow: false).text()
        == #"{"type":"subscribe","container_id":"web","tail":50,"follow":false}"#)
    #expect(
      try DockerLogClientMessage.subscribe(containerID: "a\"b", tail: nil, follow: nil).text()
        == #"{"type":"subscribe","container_id":"a\"b"}"#)
    #expect(try DockerLogClientMessage.unsubscribe.text() == #"{"type":"unsubscribe"}"#)
  }
}
