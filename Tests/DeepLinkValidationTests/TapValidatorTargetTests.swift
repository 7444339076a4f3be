import DeepLinkValidation
import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeTransport
import Testing

/// Step 1 of Protocol/Push.md §7: identity first, then re-decryption with the tap purpose.
@Suite struct TapValidatorTargetTests {
  /// One rejected identity form: the login that taps, against the key stored for `ada/login-1`.
  struct IdentityCase: CustomTestStringConvertible, Sendable {
    let name: String
    let identity: @Sendable () throws -> SessionIdentity
    let expected: TapUnavailableReason
    var testDescription: String { name }
  }

  static let identityCases: [IdentityCase] = [
    IdentityCase(
      name: "replacement login of the same account",
      identity: { try Fix.identity(loginID: "login-2") },
      expected: .otherScope),
    IdentityCase(
      name: "another account", identity: { try Fix.identity(user: "bob") }, expected: .otherScope),
    IdentityCase(
      name: "another server", identity: { try Fix.identity(server: "https://other.example.com") },
      expected: .otherScope),
    IdentityCase(
      name: "another installation", identity: { try Fix.identity(installationID: "other") },
      expected: .otherScope),
  ]

  @Test(arguments: identityCases)
  func aKeyOfAnotherLoginNeverNavigates(_ form: IdentityCase) throws {
    let owner = try Fix.identity()
    let key = try Fix.key(for: owner)
    let tap = try Fix.tap(.alert, for: key)
    let decision = TapValidator.target(
      for: tap, key: key, identity: try form.identity(), now: Fix.now)
    #expect(decision == .unavailable(form.expected))
  }

  /// A key with the current scope but another field: each field is checked on its own.
  enum Field: String, CaseIterable, Sendable { case server, user, installation }

  @Test(arguments: Field.allCases)
  func aKeyWithTheRightScopeButAnotherFieldNeverNavigates(_ field: Field) throws {
    let identity = try Fix.identity()
    var key = try Fix.key(for: identity)
    let tap = try Fix.tap(.alert, for: key)
    let expected: TapUnavailableReason
    switch field {
    case .server:
      key.deploymentID = "https://other.example.com"
      expected = .otherServer
    case .user:
      key.userID = "user-bob"
      expected = .otherUser
    case .installation:
      key.installationID = "other"
      expected = .otherInstallation
    }
    #expect(TapValidator.identityMismatch(key: key, identity: identity) == expected)
    #expect(
      TapValidator.target(for: tap, key: key, identity: identity, now: Fix.now)
        == .unavailable(expected))
  }

  @Test func noKeyOrNoLoginNeverNavigates() throws {
    let identity = try Fix.identity()
    let key = try Fix.key(for: identity)
    let tap = try Fix.tap(.alert, for: key)
    #expect(
      TapValidator.target(for: tap, key: nil, identity: identity, now: Fix.now)
        == .unavailable(.noKey))
    #expect(
      TapValidator.target(for: tap, key: key, identity: nil, now: Fix.now)
        == .unavailable(.signedOut))
  }

  /// Every accepted kind maps to its target, before and after the delivery deadline.
  struct AcceptedCase: CustomTestStringConvertible, Sendable {
    let kind: PushContentKind
    let expected: @Sendable () throws -> PushTapTarget
    var testDescription: String { kind.rawValue }
  }

  static let acceptedCases: [AcceptedCase] = [
    AcceptedCase(kind: .alert, expected: { .alertDetail(alertKey: try Fix.alertKey) }),
    AcceptedCase(kind: .taskFailure, expected: { .taskRun(taskID: Fix.taskID, runID: Fix.runID) }),
    AcceptedCase(
      kind: .security,
      expected: { .securityEvent(serverID: Fix.serverID, eventID: Fix.securityEventID) }),
    AcceptedCase(kind: .test, expected: { .home }),
  ]

  @Test(arguments: acceptedCases, [Fix.now, Fix.afterDeadline])
  func aValidEnvelopeGivesItsTargetEvenAfterTheDeadline(_ form: AcceptedCase, now: Date) throws {
    let identity = try Fix.identity()
    let key = try Fix.key(for: identity)
    let tap = try Fix.tap(form.kind, for: key)
    #expect(
      TapValidator.target(for: tap, key: key, identity: identity, now: now)
        == .load(try form.expected()))
  }

  /// Rejected envelope forms: each reports the opener's rule.
  enum Tamper: String, CaseIterable, Sendable {
    case ciphertext, nonce, identityHash, keyID, version, otherKeyBytes, notYetValid
  }

  @Test(arguments: Tamper.allCases)
  func aTamperedEnvelopeNeverNavigates(_ tamper: Tamper) throws {
    let identity = try Fix.identity()
    var key = try Fix.key(for: identity)
    guard case .envelope(var envelope) = try Fix.tap(.alert, for: key) else {
      Issue.record("expected an envelope")
      return
    }
    var now = Fix.now
    let expected: PushEnvelopeCryptoError.Code
    switch tamper {
    case .ciphertext:
      let first = envelope.ciphertext.first == "A" ? "B" : "A"
      envelope.ciphertext = first + envelope.ciphertext.dropFirst()
      expected = .authenticationFailed
    case .nonce:
      envelope.nonce =
        envelope.nonce.first == "A"
        ? "B" + envelope.nonce.dropFirst() : "A" + envelope.nonce.dropFirst()
      expected = .authenticationFailed
    case .identityHash:
      envelope.identity = String(repeating: "0", count: 64)
      expected = .authenticationFailed
    case .keyID:
      envelope.keyID = UUID().uuidString.lowercased()
      expected = .keyIDMismatch
    case .version:
      envelope.version = 2
      expected = .unsupportedVersion
    case .otherKeyBytes:
      key.key = try Fix.key(for: identity).key
      expected = .authenticationFailed
    case .notYetValid:
      now = Date(timeIntervalSince1970: Double(Fix.createdAt) - 3600)
      expected = .notYetValid
    }
    let decision = TapValidator.target(
      for: .envelope(envelope), key: key, identity: identity, now: now)
    #expect(decision == .unavailable(.decryptFailed(expected)))
    #expect(TapUnavailableReason.decryptFailed(expected).fallback == .noNavigation)
  }

  /// Callbacks without an envelope never create a target.
  struct PayloadCase: CustomTestStringConvertible, Sendable {
    let json: String
    let tap: PushTap
    let expected: TapUnavailableReason
    var testDescription: String { json }
  }

  static let payloadCases: [PayloadCase] = [
    PayloadCase(json: #"{"aps":{},"server_id":"s1"}"#, tap: .legacyOnly, expected: .legacyOnly),
    PayloadCase(
      json: #"{"aps":{},"serverbee_target":"alert:rule-1:s1"}"#, tap: .legacyOnly,
      expected: .legacyOnly),
    PayloadCase(json: #"{"aps":{}}"#, tap: .empty, expected: .noEnvelope),
    PayloadCase(
      json: #"{"serverbee_envelope":"x"}"#, tap: .malformed, expected: .malformedEnvelope),
    PayloadCase(
      json: #"{"serverbee_envelope":{"version":1}}"#, tap: .malformed, expected: .malformedEnvelope),
    PayloadCase(json: "[1,2]", tap: .malformed, expected: .malformedEnvelope),
    PayloadCase(json: "not json", tap: .malformed, expected: .malformedEnvelope),
  ]

  @Test(arguments: payloadCases)
  func aCallbackWithoutAnEnvelopeNeverCreatesATarget(_ form: PayloadCase) throws {
    let identity = try Fix.identity()
    let key = try Fix.key(for: identity)
    let tap = PushTap(apnsPayload: Data(form.json.utf8))
    #expect(tap == form.tap)
    #expect(
      TapValidator.target(for: tap, key: key, identity: identity, now: Fix.now)
        == .unavailable(form.expected))
  }

  @Test func anAPNSPayloadWithAnEnvelopeIsReadAndValidated() throws {
    let identity = try Fix.identity()
    let key = try Fix.key(for: identity)
    guard case .envelope(let envelope) = try Fix.tap(.test, for: key) else {
      Issue.record("expected an envelope")
      return
    }
    let payload = try JSONSerialization.data(withJSONObject: [
      "aps": ["alert": ["title": "ServerBee"]], "server_id": "legacy",
      "serverbee_envelope": try JSONSerialization.jsonObject(with: WireJSON.encode(envelope)),
    ])
    let tap = PushTap(apnsPayload: payload)
    #expect(tap == .envelope(envelope))
    #expect(
      TapValidator.target(for: tap, key: key, identity: identity, now: Fix.now) == .load(.home))
  }
}
