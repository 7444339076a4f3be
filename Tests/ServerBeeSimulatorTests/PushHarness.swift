import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// A device set up for encrypted push on a ``Harness``: its login, content key and token.
struct PushDevice {
  let tokens: Harness.Tokens
  let installation: String
  let deviceToken: String
  let key: PushContentKey
  var revision: Int64

  /// Opens a stored or relayed envelope for this device (delivery purpose, the simulator's
  /// clock).
  func open(_ envelope: PushEnvelope, at now: Date) throws -> ValidatedPushContent {
    try PushEnvelopeOpener(now: { now }).open(envelope, with: key, for: .delivery)
  }
}

/// Push helpers on the in-process harness: settings, registration, tests and the outbox.
extension Harness {
  static let relayPlaceholder = "http://127.0.0.1:9"
  static let deployment = "https://serverbee.test"

  /// A fresh lowercase hex device token (32 bytes).
  static func deviceToken(_ seed: UInt8) -> String {
    String(repeating: String(format: "%02x", seed), count: 32)
  }

  func preferencesJSON(
    enabled: Bool = true, alerts: Bool = true, security: Bool = false,
    taskFailure: Bool = false, taskSuccess: Bool = false
  ) -> [String: Any] {
    [
      "enabled": enabled, "alerts": alerts, "security": security, "task_failure": taskFailure,
      "task_success": taskSuccess,
    ]
  }

  func sendJSON(_ method: HTTPMethod, _ path: String, _ object: Any, bearer: String?) async
    -> Reply
  {
    let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    return await send(method, path, raw: body, bearer: bearer)
  }

  func settings(_ bearer: String) async -> Reply {
    await send(.get, "/api/mobile/push/settings", bearer: bearer)
  }

  func putSettings(_ bearer: String, revision: Int64, _ preferences: [String: Any]) async
    -> Reply
  {
    await sendJSON(
      .put, "/api/mobile/push/settings",
      ["expected_revision": revision, "preferences": preferences], bearer: bearer)
  }

  func register(
    _ bearer: String, revision: Int64, deviceToken: String, key: PushContentKey,
    environment: String = "sandbox"
  ) async -> Reply {
    await sendJSON(
      .post, "/api/mobile/push/encrypted-register",
      [
        "expected_revision": revision, "device_token": deviceToken, "environment": environment,
        "content_key_id": key.keyID, "content_key": key.key, "deployment_id": key.deploymentID,
      ], bearer: bearer)
  }

  func sendTest(_ bearer: String, eventID: String, revision: Int64) async -> Reply {
    await sendJSON(
      .post, "/api/mobile/push/test", ["event_id": eventID, "expected_revision": revision],
      bearer: bearer)
  }

  func testStatus(_ bearer: String, eventID: String) async -> Reply {
    await send(.get, "/api/mobile/push/test/\(eventID)", bearer: bearer)
  }

  /// A content key for this login (deterministic bytes from `seed`).
  static func contentKey(
    userID: String, installation: String, seed: UInt8, deployment: String = deployment
  ) throws -> PushContentKey {
    let bytes = (0..<48).map { UInt8(truncatingIfNeeded: Int(seed) &+ $0) }
    return try PushContentKeyGenerator(randomBytes: { _ in bytes }).makeKey(
      deploymentID: deployment, userID: userID, installationID: installation, scope: "test")
  }

  /// Creates the user when needed, signs in on `installation`, enables push with `preferences`
  /// and registers a device: the state every delivery test starts from.
  func pushDevice(
    _ name: String, role: String = "admin", installation: String = "INST-1", seed: UInt8 = 1,
    preferences: [String: Any]? = nil
  ) async throws -> PushDevice {
    if try simulator.core.db.serial({ try simulator.core.user(named: name) }) == nil {
      await user(name, role: role)
    }
    let tokens = try #require(await login(name, installation: installation).1)
    let saved = await putSettings(tokens.access, revision: 0, preferences ?? preferencesJSON())
    try #require(saved.status == 200, "settings: \(saved.text)")
    let key = try Self.contentKey(userID: tokens.userID, installation: installation, seed: seed)
    let token = Self.deviceToken(seed)
    let registered = await register(tokens.access, revision: 1, deviceToken: token, key: key)
    try #require(registered.status == 200, "register: \(registered.text)")
    return PushDevice(
      tokens: tokens, installation: installation, deviceToken: token, key: key,
      revision: Int64(registered.data?["revision"]?.numberValue ?? 0))
  }

  /// Every outbox row as the control API shows it.
  func outbox() async -> [JSONValue] {
    guard case .array(let items) = await control(.get, "/push/outbox") ?? .null else { return [] }
    return items
  }

  /// The stored envelope of one job (what the relay would receive), if still kept.
  func storedEnvelope(eventID: String, installation: String) throws -> PushEnvelope? {
    let row = try simulator.core.db.serial {
      try simulator.core.outboxRow(eventID: eventID, installationID: installation)
    }
    guard let text = row?.envelopeJSON else { return nil }
    return try WireJSON.decode(PushEnvelope.self, from: Data(text.utf8))
  }
}

extension JSONValue {
  /// The number, if this is a number.
  var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The flag, if this is a boolean.
  var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }
}
