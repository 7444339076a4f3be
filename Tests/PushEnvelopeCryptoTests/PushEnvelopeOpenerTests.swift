import Foundation
import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

@Suite struct PushEnvelopeOpenerTests {
  typealias Code = PushEnvelopeCryptoError.Code

  /// Opens and returns the rejection code, or `nil` when the envelope was accepted.
  static func rejection(
    _ envelope: PushEnvelope, key: PushContentKey = Known.key, purpose: PushOpenPurpose = .delivery,
    at offset: Double = 100
  ) -> Code? {
    do {
      _ = try Known.opener(at: offset).open(envelope, with: key, for: purpose)
      return nil
    } catch let error as PushEnvelopeCryptoError {
      return error.code
    } catch {
      return Code("unexpected")
    }
  }

  // MARK: Accepted envelopes

  @Test func theIndependentlyProducedEnvelopeOpens() throws {
    let opened = try Known.opener().open(Known.envelope, with: Known.key, for: .delivery)
    #expect(opened.content == Known.content(.test))
    #expect(opened.keyID == Known.keyID)
    #expect(opened.purpose == .delivery)
    #expect(opened.tapTarget == .home)
  }

  static let validContents: [(String, PushContent, PushTapTarget)] = [
    ("test", Known.content(.test), .home),
    (
      "alert firing", Known.alert(),
      alertTarget
    ),
    (
      "alert resolved with 120-character names",
      Known.alert(
        status: .resolved, rule: String(repeating: "规", count: 120),
        server: String(repeating: "s", count: 120)),
      alertTarget
    ),
    ("task failure", Known.task(), .taskRun(taskID: Known.taskID, runID: Known.runID)),
    (
      "task failure with every target failed",
      Known.task(total: 100_000, failed: 100_000, timedOut: 0, offline: 0),
      .taskRun(taskID: Known.taskID, runID: Known.runID)
    ),
    (
      "task success",
      Known.task(.taskSuccess, total: 3, failed: 0, timedOut: 0, offline: 0, denied: 0),
      .taskRun(taskID: Known.taskID, runID: Known.runID)
    ),
    (
      "security ssh_login", Known.security(.sshLogin),
      .securityEvent(serverID: Known.serverID, eventID: Known.securityEventID)
    ),
    (
      "security ssh_brute_force", Known.security(.sshBruteForce),
      .securityEvent(serverID: Known.serverID, eventID: Known.securityEventID)
    ),
    (
      "security port_scan", Known.security(.portScan),
      .securityEvent(serverID: Known.serverID, eventID: Known.securityEventID)
    ),
  ]

  /// The known key's target; `.home` (which fails the comparison) if it did not parse.
  static var alertTarget: PushTapTarget {
    (try? AlertKey(parsingV1: Known.alertKey)).map { .alertDetail(alertKey: $0) } ?? .home
  }

  @Test(arguments: validContents)
  func sealThenOpenRoundTripsEachKind(
    _ name: String, _ content: PushContent, _ target: PushTapTarget
  ) throws {
    let envelope = try Known.sealer.seal(content, with: Known.key)
    for purpose in [PushOpenPurpose.delivery, .tap] {
      let opened = try Known.opener().open(envelope, with: Known.key, for: purpose)
      #expect(opened.content == content)
      #expect(opened.tapTarget == target)
    }
  }

  @Test func theAPNSPayloadFormOpens() throws {
    let payload =
      #"{"aps":{"alert":{"title":"ServerBee","body":"Open ServerBee to view this notification."},"#
      + #""mutable-content":1,"sound":"default"},"serverbee_envelope":"#
      + String(decoding: try WireJSON.encode(Known.envelope), as: UTF8.self) + "}"
    let opened = try Known.opener().open(
      apnsPayload: Data(payload.utf8), with: Known.key, for: .delivery)
    #expect(opened.content.kind == .test)
  }

  @Test(arguments: [
    (Data("{}".utf8), Code.malformedEnvelope), (Data("not json".utf8), .malformedEnvelope),
    (Data(#"{"serverbee_envelope":{"version":"1"}}"#.utf8), .malformedEnvelope),
    (Data(count: 8193), .tooLarge),
  ])
  func aBrokenAPNSPayloadIsRejected(_ payload: Data, _ code: Code) {
    #expect(throws: PushEnvelopeCryptoError.self) {
      try Known.opener().open(apnsPayload: payload, with: Known.key, for: .delivery)
    }
    do {
      _ = try PushEnvelopeOpener.envelope(fromAPNSPayload: payload)
    } catch {
      #expect(error.code == code)
    }
  }

  @Test func anEnvelopeThatReserialisesOver4096BytesIsRejected() throws {
    var envelope = Known.envelope
    envelope.identity = String(repeating: "a", count: 4000)
    let payload = try WireJSON.encode(["serverbee_envelope": envelope])
    #expect(throws: PushEnvelopeCryptoError.self) {
      try PushEnvelopeOpener.envelope(fromAPNSPayload: payload)
    }
  }

  @Test(arguments: [
    Known.envelope,
    PushEnvelope(version: -12, keyID: "k", identity: "i", nonce: "n", ciphertext: "c"),
    PushEnvelope(version: 1, keyID: "a\"b", identity: "\\", nonce: "\n\u{01}", ciphertext: "é/"),
  ])
  func sizeCheckMatchesTheEncodedEnvelope(_ envelope: PushEnvelope) throws {
    #expect(
      PushEnvelopeOpener.serialisedSize(of: envelope) == (try WireJSON.encode(envelope)).count)
  }

  // MARK: Time rules (Protocol/Push.md §3.6)

  @Test(arguments: [
    (1799 as Int64, Code.invalidLifetime), (1801, .invalidLifetime), (0, .invalidLifetime),
    (-1800, .invalidLifetime),
  ])
  func lifetimeMustBeExactly1800Seconds(_ lifetime: Int64, _ code: Code) throws {
    let content = Known.content(.test, expiresAt: Known.createdAt + lifetime)
    let envelope = try Known.sealer.seal(content, with: Known.key)
    #expect(Self.rejection(envelope) == code)
    #expect(Self.rejection(envelope, purpose: .tap) == code)
  }

  @Test(arguments: [
    (Int64.max - 100, Int64.min + 1699), (Int64.min + 10, Int64.max - 10),
  ])
  func overflowingLifetimeArithmeticIsRejected(_ created: Int64, _ expires: Int64) throws {
    let envelope = try Known.sealer.seal(
      Known.content(.test, createdAt: created, expiresAt: expires), with: Known.key)
    #expect(Self.rejection(envelope) == .invalidLifetime)
  }

  @Test(arguments: [
    (-60.0, nil as Code?), (-60.5, .notYetValid), (-61, .notYetValid), (-86_400, .notYetValid),
  ])
  func creationMayBeAtMost60SecondsAhead(_ offset: Double, _ code: Code?) throws {
    // `offset` is the clock relative to created_at: -60 means created_at = now + 60.
    let envelope = try Known.sealer.seal(Known.content(.test), with: Known.key)
    #expect(Self.rejection(envelope, at: offset) == code)
    #expect(Self.rejection(envelope, purpose: .tap, at: offset) == code)
  }

  @Test(arguments: [1799.0, 1799.999])
  func deliveryAcceptsUntilExpiry(_ offset: Double) throws {
    let envelope = try Known.sealer.seal(Known.content(.test), with: Known.key)
    #expect(Self.rejection(envelope, at: offset) == nil)
  }

  @Test(arguments: [1800.0, 1801.0, 31_536_000.0])
  func expiredIsRejectedForDeliveryButStillNavigableForTap(_ offset: Double) throws {
    let envelope = try Known.sealer.seal(Known.alert(), with: Known.key)
    #expect(Self.rejection(envelope, at: offset) == .expired)
    #expect(Self.rejection(envelope, purpose: .tap, at: offset) == nil)
    let target = Known.opener(at: offset).tapTarget(for: envelope, with: Known.key)
    #expect(target == .alertDetail(alertKey: try AlertKey(parsingV1: Known.alertKey)))
  }

  // MARK: Envelope, key and encoding rules (Protocol/Push.md §3.8 steps 1–4)

  typealias Mutation = @Sendable (inout PushEnvelope, inout PushContentKey) -> Void

  static let otherKeyBytes = Data(repeating: 7, count: 32).base64EncodedString()

  static let envelopeRejections: [(String, Code, Mutation)] = [
    ("version 2", .unsupportedVersion, { envelope, _ in envelope.version = 2 }),
    ("version 0", .unsupportedVersion, { envelope, _ in envelope.version = 0 }),
    (
      "another key id", .keyIDMismatch,
      { envelope, _ in envelope.keyID = "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e10" }
    ),
    (
      "uppercase key id", .keyIDMismatch,
      { envelope, _ in envelope.keyID = envelope.keyID.uppercased() }
    ),
    (
      "ciphertext text over 2760 chars", .tooLarge,
      { envelope, _ in envelope.ciphertext = String(repeating: "A", count: 2764) }
    ),
    ("key of 31 bytes", .invalidKey, { _, key in key.key = Data(count: 31).base64EncodedString() }),
    ("key of 33 bytes", .invalidKey, { _, key in key.key = Data(count: 33).base64EncodedString() }),
    ("key without padding", .invalidKey, { _, key in key.key = String(key.key.dropLast()) }),
    ("key with a space", .invalidKey, { _, key in key.key = " " + key.key }),
    ("nonce of 11 bytes", .invalidEncoding, { envelope, _ in envelope.nonce = "oKGio6Slpqeoqao=" }),
    (
      "nonce of 13 bytes", .invalidEncoding,
      { envelope, _ in envelope.nonce = Data(count: 13).base64EncodedString() }
    ),
    (
      "nonce with a line break", .invalidEncoding,
      { envelope, _ in envelope.nonce = "oKGio6Sl\npqeoqaqr" }
    ),
    (
      "nonce in base64url", .invalidEncoding, { envelope, _ in envelope.nonce = "oKGio6Slpqeoqa-_" }
    ),
    (
      "ciphertext with non-zero padding bits", .invalidEncoding,
      { envelope, _ in
        // 32 zero bytes are "AAAA…AAA=": the last "A" carries two padding bits; "B" sets one.
        envelope.ciphertext = String(repeating: "A", count: 42) + "B="
      }
    ),
    (
      "ciphertext with a missing pad", .invalidEncoding,
      { envelope, _ in
        envelope.ciphertext = Data(count: 32).base64EncodedString().replacingOccurrences(
          of: "=", with: "")
      }
    ),
    (
      "ciphertext with whitespace", .invalidEncoding,
      { envelope, _ in envelope.ciphertext = " " + envelope.ciphertext }
    ),
    (
      "ciphertext of 15 bytes", .invalidEncoding,
      { envelope, _ in envelope.ciphertext = Data(count: 15).base64EncodedString() }
    ),
    (
      "ciphertext of 2065 bytes", .invalidEncoding,
      { envelope, _ in envelope.ciphertext = Data(count: 2065).base64EncodedString() }
    ),
    (
      "changed ciphertext byte", .authenticationFailed,
      { envelope, _ in envelope.ciphertext = flipped(envelope.ciphertext, at: 0) }
    ),
    (
      "changed tag byte", .authenticationFailed,
      { envelope, _ in envelope.ciphertext = flipped(envelope.ciphertext, at: -1) }
    ),
    (
      "changed nonce", .authenticationFailed, { envelope, _ in envelope.nonce = "oKGio6Slpqeoqaqs" }
    ),
    (
      "changed identity (AAD)", .authenticationFailed,
      { envelope, _ in envelope.identity = String(repeating: "0", count: 64) }
    ),
    ("other key bytes", .authenticationFailed, { _, key in key.key = otherKeyBytes }),
    (
      "key for another deployment", .identityMismatch,
      { _, key in key.deploymentID = "https://serverbee.test/" }
    ),
    ("key for another user", .identityMismatch, { _, key in key.userID = "bob" }),
    ("key for another installation", .identityMismatch, { _, key in key.installationID = "other" }),
  ]

  static func flipped(_ base64: String, at index: Int) -> String {
    var bytes = Array(Data(base64Encoded: base64) ?? Data())
    guard !bytes.isEmpty else { return base64 }
    bytes[index < 0 ? bytes.count + index : index] ^= 0x80
    return Data(bytes).base64EncodedString()
  }

  @Test(arguments: envelopeRejections)
  func envelopeRuleViolationIsRejectedForEveryPurpose(
    _ name: String, _ code: Code, _ mutate: Mutation
  ) {
    var envelope = Known.envelope
    var key = Known.key
    mutate(&envelope, &key)
    #expect(Self.rejection(envelope, key: key) == code, "\(name)")
    #expect(Self.rejection(envelope, key: key, purpose: .tap) == code, "\(name)")
    #expect(Known.opener().tapTarget(for: envelope, with: key) == nil)
  }

  @Test func noKeyMeansNoTarget() {
    #expect(Known.opener().tapTarget(for: Known.envelope, with: nil) == nil)
  }

  @Test func identityHashForOtherFieldsIsRejectedEvenWhenTheAADMatches() throws {
    let otherIdentity = PushIdentity.hash(
      deploymentID: Known.deploymentID, userID: "bob", installationID: Known.installationID)
    let envelope = try Known.sealer.seal(
      plaintext: try WireJSON.encode(Known.content(.test)), keyID: Known.keyID,
      key: Known.keyBase64, identity: otherIdentity)
    #expect(Self.rejection(envelope) == .identityMismatch)
  }

  @Test(arguments: [
    ("not json", Code.malformedContent), ("[]", .malformedContent), ("{}", .malformedContent),
    (#"{"kind":"test"}"#, .malformedContent),
  ])
  func undecodableContentIsRejected(_ plaintext: String, _ code: Code) throws {
    let envelope = try Known.sealer.seal(
      plaintext: Data(plaintext.utf8), keyID: Known.keyID, key: Known.keyBase64,
      identity: Known.identity)
    #expect(Self.rejection(envelope) == code)
  }

  @Test func contentWithANullOptionalKeyIsRejected() throws {
    let plaintext =
      String(decoding: try WireJSON.encode(Known.content(.test)), as: UTF8.self).dropLast()
      + #","alert":null}"#
    let envelope = try Known.sealer.seal(
      plaintext: Data(plaintext.utf8), keyID: Known.keyID, key: Known.keyBase64,
      identity: Known.identity)
    #expect(Self.rejection(envelope) == .malformedContent)
  }

  // MARK: Content rules (Protocol/Push.md §3.4, §3.8 steps 4 and 6)

  static let contentRejections: [(String, Code, PushContent)] = [
    ("event id not a UUID", .invalidEventID, Known.content(.test, eventID: "evt-1")),
    ("event id empty", .invalidEventID, Known.content(.test, eventID: "")),
    ("unknown kind", .unknownKind, Known.content("reboot")),
    ("kind in upper case", .unknownKind, Known.content("TEST")),
    // Stray and missing keys.
    ("test with server_id", .invalidContent, Known.content(.test, serverID: Known.serverID)),
    (
      "test with an alert", .invalidContent,
      withAlert(Known.content(.test), Known.alert().alert)
    ),
    (
      "test with task_run", .invalidContent, withTaskRun(Known.content(.test), Known.task().taskRun)
    ),
    ("alert without alert", .invalidContent, withAlert(Known.alert(), nil)),
    ("alert with task_run", .invalidContent, withTaskRun(Known.alert(), Known.task().taskRun)),
    ("alert with server_id", .invalidContent, withServerID(Known.alert(), Known.serverID)),
    ("task without task_run", .invalidContent, withTaskRun(Known.task(), nil)),
    ("task with an alert", .invalidContent, withAlert(Known.task(), Known.alert().alert)),
    ("task with server_id", .invalidContent, withServerID(Known.task(), Known.serverID)),
    (
      "security with task_run", .invalidContent, withTaskRun(Known.security(), Known.task().taskRun)
    ),
    ("security without server_id", .invalidContent, withServerID(Known.security(), nil)),
    // Alerts.
    ("legacy alert key", .invalidContent, Known.alert(key: "rule-1:server-1")),
    ("alert key not base64url", .invalidContent, Known.alert(key: "v1.!!!")),
    ("alert key of three parts", .invalidContent, Known.alert(key: "v1.WyJyIiwicyIsInQiXQ")),
    // (The 4099-character limit cannot be reached inside a 2048-byte plaintext; AlertKeyTests
    // covers it.)
    (
      "alert key with an empty server", .invalidContent, Known.alert(key: "v1.WyJyIiwiIiwiIiwidCJd")
    ),
    ("alert status pending", .invalidContent, Known.alert(status: "pending")),
    (
      "rule name of 121 chars", .invalidContent,
      Known.alert(rule: String(repeating: "r", count: 121))
    ),
    (
      "server name of 121 chars", .invalidContent,
      Known.alert(server: String(repeating: "服", count: 121))
    ),
    // Task runs.
    ("task total 0", .invalidContent, Known.task(total: 0, failed: 0, timedOut: 0, offline: 0)),
    ("task total 100001", .invalidContent, Known.task(total: 100_001)),
    (
      "task count over total", .invalidContent,
      Known.task(total: 2, failed: 3, timedOut: 0, offline: 0)
    ),
    ("task count negative", .invalidContent, Known.task(failed: -1)),
    (
      "task counts sum over total", .invalidContent,
      Known.task(total: 5, failed: 2, timedOut: 2, offline: 2)
    ),
    (
      "task failure all zero", .invalidContent,
      Known.task(failed: 0, timedOut: 0, offline: 0, denied: 0)
    ),
    (
      "task success with a failure", .invalidContent,
      Known.task(.taskSuccess, failed: 1, timedOut: 0, offline: 0)
    ),
    (
      "task success with a denial", .invalidContent,
      Known.task(.taskSuccess, failed: 0, timedOut: 0, offline: 0, denied: 1)
    ),
    ("event id is not the run id", .invalidContent, Known.task(eventID: Known.taskID)),
    ("task id not a UUID", .invalidContent, Known.task(taskID: "task-1")),
    ("run id not a UUID", .invalidContent, Known.task(runID: "run-1", eventID: Known.runID)),
    // Security.
    ("security server id not a UUID", .invalidContent, Known.security(serverID: "server-1")),
    ("security event id differs", .invalidContent, Known.security(securityEventID: Known.runID)),
    ("security type unknown", .invalidContent, Known.security("sudo_used")),
  ]

  static func withAlert(_ content: PushContent, _ alert: PushAlertSummary?) -> PushContent {
    var copy = content
    copy.alert = alert
    return copy
  }

  static func withTaskRun(_ content: PushContent, _ run: PushTaskRunSummary?) -> PushContent {
    var copy = content
    copy.taskRun = run
    return copy
  }

  static func withServerID(_ content: PushContent, _ serverID: String?) -> PushContent {
    var copy = content
    copy.serverID = serverID
    return copy
  }

  @Test(arguments: contentRejections)
  func contentRuleViolationIsRejectedForEveryPurpose(
    _ name: String, _ code: Code, _ content: PushContent
  ) throws {
    let envelope = try Known.sealer.seal(content, with: Known.key)
    #expect(Self.rejection(envelope) == code, "\(name)")
    #expect(Self.rejection(envelope, purpose: .tap) == code, "\(name)")
    #expect(Known.opener().tapTarget(for: envelope, with: Known.key) == nil)
  }

  @Test func rejectionMessagesNeverContainContent() throws {
    let content = Known.alert(key: "rule-1:server-1", rule: "secret-rule-name")
    let envelope = try Known.sealer.seal(content, with: Known.key)
    do {
      _ = try Known.opener().open(envelope, with: Known.key, for: .delivery)
      Issue.record("accepted a legacy alert key")
    } catch let error as PushEnvelopeCryptoError {
      #expect(!error.description.contains("secret-rule-name"))
      #expect(!error.description.contains(Known.keyBase64))
    }
  }

  @Test func theClockIsReadForEveryOpen() throws {
    let envelope = try Known.sealer.seal(Known.content(.test), with: Known.key)
    let clock = TestClock(seconds: Double(Known.createdAt))
    let opener = PushEnvelopeOpener(now: { clock.now() })
    #expect((try? opener.open(envelope, with: Known.key, for: .delivery)) != nil)
    clock.set(Double(Known.createdAt) + 1800)
    #expect((try? opener.open(envelope, with: Known.key, for: .delivery)) == nil)
  }
}

/// A settable clock for one test (a lock makes it safe to read from the `@Sendable` closure).
final class TestClock: Sendable {
  private let seconds: LockedValue

  init(seconds: Double) { self.seconds = LockedValue(seconds) }

  func set(_ value: Double) { seconds.set(value) }

  func now() -> Date { Date(timeIntervalSince1970: seconds.get()) }

  private final class LockedValue: @unchecked Sendable {
    // Safe: every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Double
    init(_ value: Double) { self.value = value }
    func get() -> Double { lock.withLock { value } }
    func set(_ newValue: Double) { lock.withLock { value = newValue } }
  }
}
