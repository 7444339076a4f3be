import Foundation
import Testing

@testable import ServerBeeModels

@Suite struct PushContentTests {
  private func content(_ fixture: String) throws -> PushContent {
    try WireJSON.decode(PushContent.self, from: try PushFixture.data(fixture))
  }

  @Test func testContentHasOnlyTheSevenCommonKeys() throws {
    let test = try content("content-test")
    #expect(test.kind == .test)
    #expect(test.createdAt == 2_000_000_000 && test.expiresAt == 2_000_001_800)
    #expect(test.serverID == nil && test.securityEventID == nil && test.securityEventType == nil)
    #expect(test.taskRun == nil && test.alert == nil)
  }

  @Test func alertContentDecodesTheSummary() throws {
    let alert = try #require(try content("content-alert").alert)
    #expect(alert.status == .firing)
    #expect(alert.ruleName == "CPU > 90%")
    #expect(alert.serverName == "web-1 / 东京")
    #expect(alert.alertKey.hasPrefix("v1."))
  }

  @Test func taskContentsDecodeTheRunSummary() throws {
    let failure = try #require(try content("content-task-failure").taskRun)
    #expect(failure.total == 12 && failure.failed == 2 && failure.timedOut == 1)
    #expect(failure.offline == 3 && failure.denied == 0)
    #expect(!failure.isAllSucceeded)
    #expect(try #require(try content("content-task-success").taskRun).isAllSucceeded)
  }

  @Test func securityContentDecodesItsThreeKeys() throws {
    let security = try content("content-security")
    #expect(security.serverID == "e4da3b7f-bbce-4345-9777-2b0674a318d5")
    #expect(security.securityEventID == security.eventID)
    #expect(security.securityEventType == .sshBruteForce)
  }

  @Test func encodingLeavesOutAbsentKeysAndKeepsServerOrder() throws {
    let value = PushContent(
      kind: .security, deploymentID: "https://a.test/x", userID: "u", installationID: "i",
      eventID: "e", createdAt: 1, expiresAt: 1801, serverID: "s", securityEventID: "e",
      securityEventType: .portScan)
    #expect(
      String(decoding: try WireJSON.encode(value), as: UTF8.self)
        == #"{"kind":"security","deployment_id":"https://a.test/x","user_id":"u","#
        + #""installation_id":"i","event_id":"e","created_at":1,"expires_at":1801,"#
        + #""server_id":"s","security_event_id":"e","security_event_type":"port_scan"}"#)
  }

  @Test func decodingDoesNotDependOnKeyOrder() throws {
    let shuffled = Data(
      (#"{"expires_at":1801,"event_id":"e","created_at":1,"installation_id":"i","user_id":"u","#
        + #""deployment_id":"d","kind":"test"}"#).utf8)
    let value = try WireJSON.decode(PushContent.self, from: shuffled)
    #expect(value.kind == .test && value.createdAt == 1 && value.expiresAt == 1801)
  }

  @Test(arguments: ["server_id", "security_event_id", "security_event_type", "task_run", "alert"])
  func anOptionalKeyThatIsNullIsRefused(_ key: String) throws {
    let json =
      #"{"kind":"test","deployment_id":"d","user_id":"u","installation_id":"i","event_id":"e","#
      + #""created_at":1,"expires_at":1801,"\#(key)":null}"#
    #expect(throws: ServerBeeModelsError.self) {
      try WireJSON.decode(PushContent.self, from: Data(json.utf8))
    }
  }

  @Test(arguments: [
    "kind", "deployment_id", "user_id", "installation_id", "event_id", "created_at",
  ])
  func aMissingCommonKeyIsNamed(_ key: String) throws {
    var object = try #require(
      try JSONSerialization.jsonObject(with: try PushFixture.data("content-test"))
        as? [String: Any])
    object[key] = nil
    let data = try JSONSerialization.data(withJSONObject: object)
    do {
      _ = try WireJSON.decode(PushContent.self, from: data)
      Issue.record("decoded without \(key)")
    } catch let error as ServerBeeModelsError {
      #expect(error.code == .missingField)
      #expect(error.message.contains(key))
    }
  }

  @Test func unknownKindStillDecodes() throws {
    let json =
      #"{"kind":"reboot","deployment_id":"d","user_id":"u","installation_id":"i","event_id":"e","#
      + #""created_at":1,"expires_at":1801}"#
    let value = try WireJSON.decode(PushContent.self, from: Data(json.utf8))
    #expect(value.kind.rawValue == "reboot")
    #expect(!PushContentKind.known.contains(value.kind))
  }
}
