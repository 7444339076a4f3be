import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTransport
import ServerBeeURLSessionTransport
import Testing

@testable import ServerBeeSimulator

/// The privacy boundary of Protocol/Push.md §3, Protocol/Relay.md, end to end: after a run of every
/// kind of push (test, alert firing and resolved, task failure, security), nothing the relay
/// received, handed to its provider or shows through its control API holds plaintext, a content
/// key, a name, an address or an account id — and every device can still open and render its own
/// pushes.
@Suite(.timeLimit(.minutes(5))) struct PushPrivacyTests {
  @Test func theRelaySeesOnlyCiphertextAfterAFullRun() async throws {
    let clock = SimulatorClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let provider = ScriptedPushProvider()
    let relay = RelayServer(
      provider: provider, clock: RelayClock(now: { Int64(clock.now.timeIntervalSince1970) }))
    let url = try await Task(priority: .high) { try relay.start() }.value
    defer { relay.stop() }
    let h = try Harness(clock: clock) { $0.relayURL = url.absoluteString }
    let admin = try await h.pushDevice(
      "admin", seed: 1,
      preferences: h.preferencesJSON(security: true, taskFailure: true, taskSuccess: true))
    let member = try await h.pushDevice("bob", role: "member", installation: "INST-2", seed: 2)

    // Everything a push could leak, made unmistakable.
    let serverName = "web-prod-secret-42"
    let ruleName = "Disk full on the payroll box"
    let taskName = "nightly-secret-backup"
    let command = "tar czf /srv/secret-archive.tgz /etc"
    let sourceIP = "198.51.100.23"
    let username = "root-secret-user"
    let server = try #require(
      await h.control(.post, "/servers", ["name": serverName])?["data"]?["id"]?.stringValue)
    #expect(
      await h.sendTest(admin.tokens.access, eventID: UUID().uuidString, revision: 2).status == 200)
    let alert = ["server_id": server, "rule_id": "rule-1", "rule_name": ruleName]
    _ = await h.control(.post, "/alerts/fire", alert)
    _ = await h.control(.post, "/alerts/resolve", alert)
    let task = try #require(
      await h.control(
        .post, "/tasks",
        [
          "command": command, "server_ids": [server], "task_type": "scheduled", "name": taskName,
          "created_by": admin.tokens.userID,
        ])?["data"]?["id"]?.stringValue)
    _ = await h.control(
      .post, "/tasks/\(task)/runs",
      ["outcomes": [["server_id": server, "exit_code": 1, "output": "secret output"]]])
    _ = await h.control(.post, "/alert-rules", ["rule_type": "ssh_new_ip_login", "name": "New IP"])
    _ = await h.control(
      .post, "/security-events",
      [
        "server_id": server, "event_type": "ssh_login", "first_seen": true,
        "source_ip": sourceIP, "username": username,
      ])
    #expect(try await h.simulator.runOutbox() == 7)

    let deliveries = provider.received()
    let kinds = deliveries.compactMap { delivery -> PushContentKind? in
      let key = delivery.deviceToken == admin.deviceToken ? admin.key : member.key
      return try? PushEnvelopeOpener(now: { clock.now }).open(
        apnsPayload: delivery.payload, with: key, for: .delivery
      ).content.kind
    }
    #expect(
      kinds.map(\.rawValue).sorted()
        == ["alert", "alert", "alert", "alert", "security", "task_failure", "test"])

    var seen: [String] = deliveries.flatMap { delivery in
      [String(decoding: delivery.body, as: UTF8.self), delivery.payloadText]
        + delivery.headers.map { "\($0.key): \($0.value)" }
    }
    seen += relay.received().map { String(decoding: $0.body, as: UTF8.self) }
    let control = try await RelayControl(url: url, token: relay.controlToken)
    seen.append(try await control.get("/__relay/requests"))
    seen.append(try await control.get("/__relay/deliveries"))
    let secrets = [
      serverName, ruleName, taskName, command, "secret output", sourceIP, username, server, task,
      "rule-1", admin.key.key, member.key.key, admin.tokens.userID, member.tokens.userID,
      "INST-1", "INST-2", Harness.deployment, "serverbee.test", "\"kind\"", "alert_key",
      "task_run",
    ]
    for text in seen {
      for secret in secrets {
        #expect(!text.contains(secret), "the relay saw \(secret)")
      }
    }
    // The scan reads real traffic: the routing fields a relay needs are there in the clear.
    #expect(seen.count > 14)
    #expect(seen.contains { $0.contains(admin.deviceToken) && $0.contains("\"ciphertext\"") })
  }
}

/// The relay's control API over HTTP, as an operator reads it.
struct RelayControl {
  let url: URL
  let token: String
  let transport = URLSessionHTTPTransport()

  init(url: URL, token: String) async throws {
    self.url = url
    self.token = token
  }

  func get(_ path: String) async throws -> String {
    let target = try #require(URL(string: url.absoluteString + path))
    let response = try await transport.send(
      HTTPRequest(method: .get, url: target, headers: ["X-Relay-Token": token]))
    try #require(response.status == 200, "\(path) answered \(response.status)")
    return String(decoding: response.body, as: UTF8.self)
  }
}
