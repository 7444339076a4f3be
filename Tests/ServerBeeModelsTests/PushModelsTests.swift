import Foundation
import Testing

@testable import ServerBeeModels

/// Reads `Fixtures/push/<name>.json` (the test target copies the Fixtures folder unchanged).
enum PushFixture {
  static func data(_ name: String) throws -> Data {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/push"))
    return try Data(contentsOf: url)
  }

  static func text(_ name: String) throws -> String {
    String(decoding: try data(name), as: UTF8.self)
  }
}

/// Every push fixture: decoding it and encoding the value again gives the same bytes.
enum PushFixtureCase: String, CaseIterable, Sendable {
  case settings
  case settingsOlderServer = "settings-older-server"
  case settingsUpdate = "settings-update"
  case encryptedRegister = "encrypted-register"
  case testRequest = "test-request"
  case testResponse = "test-response"
  case testResponseUnknown = "test-response-unknown"
  case envelope
  case contentTest = "content-test"
  case contentAlert = "content-alert"
  case contentTaskFailure = "content-task-failure"
  case contentTaskSuccess = "content-task-success"
  case contentSecurity = "content-security"
  case contentKey = "content-key"
  case relaySend = "relay-send"
  case relayVerdict = "relay-verdict"

  func reencoded(_ data: Data) throws -> Data {
    switch self {
    case .settings, .settingsOlderServer:
      return try Self.cycle(APIResponse<PushSetupResponse>.self, data)
    case .settingsUpdate: return try Self.cycle(PushSettingsUpdate.self, data)
    case .encryptedRegister: return try Self.cycle(EncryptedRegisterRequest.self, data)
    case .testRequest: return try Self.cycle(TestPushRequest.self, data)
    case .testResponse, .testResponseUnknown:
      return try Self.cycle(APIResponse<TestPushResponse>.self, data)
    case .envelope: return try Self.cycle(PushEnvelope.self, data)
    case .contentTest, .contentAlert, .contentTaskFailure, .contentTaskSuccess, .contentSecurity:
      return try Self.cycle(PushContent.self, data)
    case .contentKey: return try Self.cycle(PushContentKey.self, data)
    case .relaySend: return try Self.cycle(RelaySendRequest.self, data)
    case .relayVerdict: return try Self.cycle(RelayVerdict.self, data)
    }
  }

  private static func cycle<T: Codable>(_ type: T.Type, _ data: Data) throws -> Data {
    try WireJSON.encode(try WireJSON.decode(type, from: data))
  }
}

@Suite struct PushModelsTests {
  @Test(arguments: PushFixtureCase.allCases)
  func fixtureReencodesToTheSameBytes(_ fixture: PushFixtureCase) throws {
    let data = try PushFixture.data(fixture.rawValue)
    let again = try fixture.reencoded(data)
    #expect(String(decoding: again, as: UTF8.self) == String(decoding: data, as: UTF8.self))
  }

  @Test func settingsDocumentDecodesEveryField() throws {
    let settings = try APIResponse<PushSetupResponse>.payload(
      status: 200, body: try PushFixture.data("settings"))
    #expect(settings.revision == 2)
    #expect(
      settings.preferences
        == PushPreferences(enabled: true, alerts: true, security: true))
    #expect(settings.securityAllowed && settings.registered && settings.deliveryAvailable)
    #expect(settings.tasksAllowed == true)
    #expect(settings.taskFailureAvailable == true)
    #expect(settings.testAvailable == true)
  }

  @Test func settingsFromAnOlderServerHaveNoTaskOrTestKeys() throws {
    let settings = try APIResponse<PushSetupResponse>.payload(
      status: 200, body: try PushFixture.data("settings-older-server"))
    #expect(settings.tasksAllowed == nil)
    #expect(settings.taskFailureAvailable == nil)
    #expect(settings.testAvailable == nil)
    #expect(settings.preferences == PushPreferences())
  }

  @Test func settingsUpdateIsWrittenInWireOrder() throws {
    let body = PushSettingsUpdate(
      expectedRevision: 0, preferences: PushPreferences(enabled: true, alerts: true))
    #expect(
      String(decoding: try WireJSON.encode(body), as: UTF8.self)
        == #"{"expected_revision":0,"preferences":{"enabled":true,"alerts":true,"#
        + #""security":false,"task_failure":false,"task_success":false}}"#)
  }

  @Test func encryptedRegisterTakesTheStoredKeyValues() throws {
    let key = try WireJSON.decode(PushContentKey.self, from: try PushFixture.data("content-key"))
    let body = EncryptedRegisterRequest(
      expectedRevision: 3,
      deviceToken: "8f3a0c9e4b7d21f6a5c8e0b3d9f2a7c41e6b0d8f3a5c9e2b7d4f1a6c0e8b3d95",
      environment: .production, contentKey: key)
    #expect(try WireJSON.encode(body) == (try PushFixture.data("encrypted-register")))
  }

  @Test func descriptionsNeverShowTheContentKey() throws {
    let key = try WireJSON.decode(PushContentKey.self, from: try PushFixture.data("content-key"))
    let body = EncryptedRegisterRequest(
      expectedRevision: 1, deviceToken: "00ff", environment: .sandbox, contentKey: key)
    #expect(!String(describing: key).contains(key.key))
    #expect(!String(describing: body).contains(key.key))
    #expect(!String(describing: body).contains("00ff"))
    #expect(String(describing: key).contains(key.keyID))
  }

  @Test func testStatusWithUnknownOutcomeAndReasonSurvives() throws {
    let status = try APIResponse<TestPushResponse>.payload(
      status: 200, body: try PushFixture.data("test-response-unknown"))
    #expect(status.outcome == PushOutcome(rawValue: "deferred"))
    #expect(status.reason.rawValue == "SomethingNew")
    #expect(!status.outcome.isInProgress)
  }

  @Test(arguments: [
    (PushOutcome.pending, true), (.retryable, true), (.accepted, false), (.permanent, false),
    (.expired, false),
  ])
  func outcomeInProgressOnlyWhilePendingOrRetryable(_ outcome: PushOutcome, _ expected: Bool) {
    #expect(outcome.isInProgress == expected)
  }

  @Test func relayVerdictReadsDeviceInvalid() throws {
    let verdict = try WireJSON.decode(
      RelayVerdict.self, from: try PushFixture.data("relay-verdict"))
    #expect(
      verdict == RelayVerdict(outcome: .permanent, reason: .unregistered, deviceInvalid: true))
  }

  @Test func relayRequestCarriesTheEnvelopeWithItsFiveKeysInOrder() throws {
    let request = try WireJSON.decode(
      RelaySendRequest.self, from: try PushFixture.data("relay-send"))
    #expect(request.environment == .sandbox)
    #expect(request.expiresAt == 2_000_001_800)
    let envelope = String(decoding: try WireJSON.encode(request.envelope), as: UTF8.self)
    #expect(envelope.hasPrefix(#"{"version":1,"key_id":"0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f","#))
    #expect(envelope == (try PushFixture.text("envelope")))
  }
}
