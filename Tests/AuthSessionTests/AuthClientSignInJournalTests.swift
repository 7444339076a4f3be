import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

/// The sign-in journal: which attempts are kept, and what the sweep revokes.
@Suite(.timeLimit(.minutes(5))) struct AuthClientSignInJournalTests {
  static let orphanID = "5b0f0000-0000-4000-8000-0000000000c1"
  static let otherOrphanID = "5b0f0000-0000-4000-8000-0000000000c2"
  static let foreignInstallation = "0F0F0F0F-0000-4000-8000-000000000000"

  /// A `{"data": [MobileDevice]}` body; each pair is (session id, installation id).
  static func devices(_ sessions: [(String, String)]) -> String {
    let items = sessions.map { id, installation in
      #"{"id":"\#(id)","device_name":"Test phone","installation_id":"\#(installation)","#
        + #""created_at":"2026-03-28T10:00:00+00:00","last_used_at":"2026-03-28T10:05:00+00:00"}"#
    }
    return #"{"data":["# + items.joined(separator: ",") + "]}"
  }

  static let lost = ServerBeeTransportError(.connectionLost, "the connection dropped")

  /// A login as `username` whose answer is lost after the server handled it.
  static func loseLogin(_ fixture: AuthFixture, username: String = "ada") async {
    await fixture.http.expect(.post, "/api/mobile/auth/login", throwing: lost)
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: username, password: "pw")
    }
    #expect(code == .networkFailure)
  }

  /// Logs out a login that never refreshed (revoke with its own credential).
  static func logOut(_ fixture: AuthFixture) async throws {
    await fixture.http.expect(
      .post, "/api/mobile/push/unregister", reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(
      .post, "/api/mobile/auth/revoke", reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
  }

  // MARK: Recording

  struct LostCase: Sendable, CustomTestStringConvertible {
    let name: String
    let reply: HTTPResponse?
    var testDescription: String { name }
  }

  static let lostAnswers: [LostCase] = [
    LostCase(name: "connection dropped", reply: nil),
    LostCase(name: "HTTP 502", reply: .json(502, "")),
    LostCase(name: "undecodable 200", reply: .json(200, #"{"data":{"access_token":1}}"#)),
  ]

  @Test(arguments: lostAnswers)
  func aSignInWhoseAnswerMayHaveBeenLostKeepsItsAttempt(_ lost: LostCase) async throws {
    let fixture = AuthFixture()
    if let reply = lost.reply {
      await fixture.http.expect(.post, "/api/mobile/auth/login", reply: reply)
    } else {
      await fixture.http.expect(.post, "/api/mobile/auth/login", throwing: Self.lost)
    }
    await #expect(throws: AuthSessionError.self) {
      _ = try await fixture.client.login(
        server: " HTTPS://Monitor.Example.com/ ", username: "ada", password: "pw")
    }
    let attempts = try await fixture.client.pendingSignInAttempts()
    #expect(attempts.count == 1)
    #expect(attempts.first?.server.string == Wire.server)
    #expect(attempts.first?.username == "ada")
    #expect(attempts.first?.startedAt == fixture.clock.currentDate)
    let stored = try #require(try fixture.store.data(forKey: .signInJournal, in: .appPrivate))
    #expect(!String(decoding: stored, as: UTF8.self).contains("pw"), "no secret is recorded")
  }

  @Test func theAttemptIsRecordedBeforeTheRequestGoesOut() async throws {
    let fixture = AuthFixture()
    let client = fixture.client
    await fixture.http.expect(.post, "/api/mobile/auth/login") { _ in
      let during = try await client.pendingSignInAttempts()
      #expect(during.map(\.username) == ["ada"])
      return .json(200, Wire.tokens())
    }
    _ = try await client.login(server: Wire.server, username: "ada", password: "pw")
    #expect(try await client.pendingSignInAttempts().isEmpty, "a seen success resolves it")
    await fixture.http.verifyAllConsumed()
  }

  struct RefusedCase: Sendable, CustomTestStringConvertible {
    let status: Int
    let body: String
    var testDescription: String { "HTTP \(status)" }
  }

  static let refusals: [RefusedCase] = [
    RefusedCase(status: 401, body: Wire.error("UNAUTHORIZED", "Unauthorized")),
    RefusedCase(status: 429, body: Wire.error("TOO_MANY_REQUESTS", "Too many requests: later")),
    RefusedCase(
      status: 403,
      body: Wire.error("FORBIDDEN", "Forbidden: MUST_CHANGE_PASSWORD: complete onboarding")),
  ]

  @Test(arguments: refusals)
  func aSignInTheServerRefusedForgetsItsAttempt(_ refusal: RefusedCase) async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(
      .post, "/api/mobile/auth/login", reply: .json(refusal.status, refusal.body))
    await #expect(throws: AuthSessionError.self) {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    }
    #expect(try await fixture.client.pendingSignInAttempts().isEmpty)
  }

  @Test func theTwoFactorStepCreatesNoSessionAndForgetsItsAttempt() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(
      .post, "/api/mobile/auth/login",
      reply: .json(422, Wire.error("VALIDATION_ERROR", "Validation error: 2fa_required")))
    #expect(
      try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
        == .twoFactorRequired)
    #expect(try await fixture.client.pendingSignInAttempts().isEmpty)
  }

  @Test func pairingRecordsAnAttemptWithoutAUserName() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(.post, "/api/mobile/auth/pair", throwing: Self.lost)
    await #expect(throws: AuthSessionError.self) {
      _ = try await fixture.client.pair(scannedPayload: Wire.pairing())
    }
    let attempt = try #require(try await fixture.client.pendingSignInAttempts().first)
    #expect(attempt.username == nil && attempt.server.string == Wire.server)

    await fixture.http.expect(
      .post, "/api/mobile/auth/pair",
      reply: .json(400, Wire.error("BAD_REQUEST", "Bad request: Invalid pairing code")))
    await #expect(throws: AuthSessionError.self) {
      _ = try await fixture.client.pair(scannedPayload: Wire.pairing())
    }
    #expect(try await fixture.client.pendingSignInAttempts().count == 1, "only the lost one stays")
  }

  @Test func anAttemptThatCannotBeRecordedIsNeverSent() async throws {
    let fixture = AuthFixture()
    _ = try await fixture.client.restore()
    _ = try await fixture.client.installationID()
    fixture.store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    }
    #expect(code == .storageFailed)
    #expect(await fixture.http.received.isEmpty)
  }

  // MARK: Sweeping

  @Test func aSweepWithNothingPendingSendsNothing() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    guard case .nothingPending = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected nothingPending")
      return
    }
    await fixture.http.verifyAllConsumed()
    #expect(await fixture.http.received.count == 1)
  }

  @Test func aSweepWhileSignedOutIsSkipped() async throws {
    let fixture = AuthFixture()
    await Self.loseLogin(fixture)
    guard case .skipped(.notSignedIn) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected skipped(notSignedIn)")
      return
    }
    #expect(try await fixture.client.pendingSignInAttempts().count == 1)
  }

  @Test func theOrphanOfALostSignInIsRevokedAndTheAttemptForgotten() async throws {
    let fixture = AuthFixture()
    await Self.loseLogin(fixture)
    let identity = try await fixture.signIn()
    await fixture.http.expect(
      .get, "/api/mobile/auth/devices",
      reply: .json(
        200,
        Self.devices([
          (Wire.sessionID, identity.installationID),
          (Self.orphanID, identity.installationID.lowercased()),
          (Self.otherOrphanID, Self.foreignInstallation),
        ])))
    await fixture.http.expect(
      .delete, "/api/mobile/auth/devices/\(Self.orphanID)", reply: .json(200, #"{"data":"ok"}"#))

    guard case .cleaned(let revoked, let resolved) = await fixture.client.sweepInterruptedSignIns()
    else {
      Issue.record("expected cleaned")
      return
    }
    #expect(revoked == 1 && resolved == 1)
    #expect(try await fixture.client.pendingSignInAttempts().isEmpty)
    let sweepRequests = await fixture.http.received.dropFirst(2)
    #expect(sweepRequests.allSatisfy { $0.headers["authorization"] == "Bearer access-1" })
    #expect(fixture.client.currentState == .signedIn(identity))
    await fixture.http.verifyAllConsumed()
  }

  @Test func theCurrentSessionAndQueuedSignOutsAreNeverRevoked() async throws {
    let fixture = AuthFixture()
    try fixture.seedJournal(count: 1)  // a queued sign-out of Wire.otherSessionID
    let server = try ServerURL(Wire.server)
    try fixture.store.setValue(
      [
        SignInJournalEntry(
          id: "lost", server: server, username: "ada", startedAt: Date(timeIntervalSince1970: 0))
      ], forKey: .signInJournal, in: .appPrivate)
    // The queued sign-out cannot reach the server before the login, so it stays queued.
    await fixture.http.expect(.post, "/api/mobile/auth/revoke", reply: .json(503, ""))
    let identity = try await fixture.signIn()
    await fixture.http.expect(
      .get, "/api/mobile/auth/devices",
      reply: .json(
        200,
        Self.devices([
          (Wire.sessionID.uppercased(), identity.installationID),
          (Wire.otherSessionID, identity.installationID),
          (Self.orphanID, identity.installationID),
        ])))
    await fixture.http.expect(
      .delete, "/api/mobile/auth/devices/\(Self.orphanID)", reply: .json(200, #"{"data":"ok"}"#))

    guard case .cleaned(1, 1) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected one revoked orphan")
      return
    }
    let deleted = await fixture.http.received.filter { $0.method == .delete }.map(\.url.path)
    #expect(deleted == ["/api/mobile/auth/devices/\(Self.orphanID)"])
    #expect(try fixture.storedJournal().count == 1, "the queued sign-out is untouched")
    await fixture.http.verifyAllConsumed()
  }

  @Test func aV1TokenAnswerWithoutASessionIDNeverRevokesTheNewSession() async throws {
    let fixture = AuthFixture()
    await Self.loseLogin(fixture)
    let identity = try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    #expect(identity.mobileSessionID == nil)
    // Two sessions of this installation: the new one and the orphan, and nothing tells which.
    await fixture.http.expect(
      .get, "/api/mobile/auth/devices",
      reply: .json(
        200,
        Self.devices([
          (Self.orphanID, identity.installationID), (Self.otherOrphanID, identity.installationID),
        ])))

    guard
      case .skipped(.serverDoesNotIdentifySessions) = await fixture.client
        .sweepInterruptedSignIns()
    else {
      Issue.record("expected skipped(serverDoesNotIdentifySessions)")
      return
    }
    #expect(await fixture.http.received.allSatisfy { $0.method != .delete })
    #expect(try await fixture.client.pendingSignInAttempts().count == 1, "kept for later")
    #expect(fixture.client.currentState == .signedIn(identity))

    // Once the orphan has expired the list shows only the own session: the attempt resolves.
    await fixture.http.expect(
      .get, "/api/mobile/auth/devices",
      reply: .json(200, Self.devices([(Self.otherOrphanID, identity.installationID)])))
    guard case .cleaned(0, 1) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected cleaned(0, 1)")
      return
    }
    #expect(try await fixture.client.pendingSignInAttempts().isEmpty)
    #expect(await fixture.http.received.allSatisfy { $0.method != .delete })
    await fixture.http.verifyAllConsumed()
  }

  @Test func anOrphanOfAnotherAccountStaysTrackedUntilThatAccountSignsIn() async throws {
    let fixture = AuthFixture()
    await Self.loseLogin(fixture, username: "ada")
    // Signed in as bob: the device list would only show bob's sessions, so ada's attempt is
    // not checked and no request is sent for it.
    try await fixture.signIn(
      tokens: Wire.tokens(
        sessionID: Wire.otherSessionID, userID: Wire.otherUserID, username: "bob"))
    guard case .nothingPending = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected nothingPending as bob")
      return
    }
    #expect(try await fixture.client.pendingSignInAttempts().map(\.username) == ["ada"])
    try await Self.logOut(fixture)

    let identity = try await fixture.signIn()
    await fixture.http.expect(
      .get, "/api/mobile/auth/devices",
      reply: .json(
        200,
        Self.devices([
          (Wire.sessionID, identity.installationID), (Self.orphanID, identity.installationID),
        ])))
    await fixture.http.expect(
      .delete, "/api/mobile/auth/devices/\(Self.orphanID)", reply: .json(200, #"{"data":"ok"}"#))
    guard case .cleaned(1, 1) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected ada's orphan revoked")
      return
    }
    #expect(try await fixture.client.pendingSignInAttempts().isEmpty)
    await fixture.http.verifyAllConsumed()
  }

  @Test func anAttemptOnAnotherServerIsNotChecked() async throws {
    let fixture = AuthFixture()
    try fixture.store.setValue(
      [
        SignInJournalEntry(
          id: "elsewhere", server: try ServerURL("https://other.example.com"), username: "ada",
          startedAt: Date(timeIntervalSince1970: 0))
      ], forKey: .signInJournal, in: .appPrivate)
    try await fixture.signIn()
    guard case .nothingPending = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected nothingPending")
      return
    }
    #expect(try await fixture.client.pendingSignInAttempts().map(\.id) == ["elsewhere"])
  }

  @Test func aPairingAttemptIsCheckedByTheNextSignInToItsServer() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(.post, "/api/mobile/auth/pair", throwing: Self.lost)
    await #expect(throws: AuthSessionError.self) {
      _ = try await fixture.client.pair(scannedPayload: Wire.pairing())
    }
    let identity = try await fixture.signIn()
    await fixture.http.expect(
      .get, "/api/mobile/auth/devices",
      reply: .json(200, Self.devices([(Wire.sessionID, identity.installationID)])))
    guard case .cleaned(0, 1) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected the pairing attempt resolved")
      return
    }
  }

  @Test func aFailedRevokeKeepsTheAttemptAndAMissingOrphanCountsAsGone() async throws {
    let fixture = AuthFixture()
    await Self.loseLogin(fixture)
    let identity = try await fixture.signIn()
    let list = Self.devices([
      (Wire.sessionID, identity.installationID), (Self.orphanID, identity.installationID),
    ])
    await fixture.http.expect(.get, "/api/mobile/auth/devices", reply: .json(200, list))
    await fixture.http.expect(
      .delete, "/api/mobile/auth/devices/\(Self.orphanID)", reply: .json(500, ""))
    guard case .failed(let error) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected failed")
      return
    }
    #expect(error.code == .serverError)
    #expect(try await fixture.client.pendingSignInAttempts().count == 1)

    await fixture.http.expect(.get, "/api/mobile/auth/devices", throwing: Self.lost)
    guard case .failed(let offline) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected failed")
      return
    }
    #expect(offline.code == .networkFailure)
    #expect(try await fixture.client.pendingSignInAttempts().count == 1)

    await fixture.http.expect(.get, "/api/mobile/auth/devices", reply: .json(200, list))
    await fixture.http.expect(
      .delete, "/api/mobile/auth/devices/\(Self.orphanID)",
      reply: .json(404, Wire.error("NOT_FOUND", "Not found: Mobile session not found")))
    guard case .cleaned(1, 1) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected cleaned")
      return
    }
    #expect(try await fixture.client.pendingSignInAttempts().isEmpty)
    await fixture.http.verifyAllConsumed()
  }

  @Test func aSessionIDThatIsNotAUUIDIsNeverPutInAPath() async throws {
    let fixture = AuthFixture()
    await Self.loseLogin(fixture)
    let identity = try await fixture.signIn()
    await fixture.http.expect(
      .get, "/api/mobile/auth/devices",
      reply: .json(200, Self.devices([("../../servers/1", identity.installationID)])))
    guard case .failed(let error) = await fixture.client.sweepInterruptedSignIns() else {
      Issue.record("expected failed")
      return
    }
    #expect(error.code == .invalidResponse)
    #expect(try await fixture.client.pendingSignInAttempts().count == 1)
  }

  @Test func theJournalKeepsTheNewestAttempts() async throws {
    let fixture = AuthFixture()
    for _ in 0..<(AuthClient.maximumSignInAttempts + 2) { await Self.loseLogin(fixture) }
    #expect(
      try await fixture.client.pendingSignInAttempts().count == AuthClient.maximumSignInAttempts)
  }
}
