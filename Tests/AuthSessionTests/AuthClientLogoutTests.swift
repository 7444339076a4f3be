import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

@Suite(.timeLimit(.minutes(5))) struct AuthClientLogoutTests {
  static let revokePath = "/api/mobile/auth/revoke"
  static let unregisterPath = "/api/mobile/push/unregister"
  static let down = ServerBeeTransportError(.connectionRefused, "down")

  @Test func logoutWithAConfirmedProofUnregistersClearsThenRevokesWithTheExpectedSession()
    async throws
  {
    let fixture = AuthFixture()
    try await fixture.signInWithConfirmedProof()
    let store = fixture.store
    await fixture.http.expect(.post, Self.unregisterPath) { request in
      // Still signed in while push is unregistered with the bearer token.
      #expect(request.headers["authorization"] == "Bearer access-2")
      let login = try store.value(LoginRecord.self, forKey: .login, in: .appPrivate)
      #expect(login != nil)
      return .json(200, #"{"data":"ok"}"#)
    }
    await fixture.http.expect(.post, Self.revokePath) { request in
      // Local credentials are gone and the journal holds the entry before revoke is sent.
      let login = try store.value(LoginRecord.self, forKey: .login, in: .appPrivate)
      #expect(login == nil)
      let journal = try store.value(
        [LogoutJournalEntry].self, forKey: .logoutJournal, in: .appPrivate)
      #expect(journal?.count == 1)
      return .json(200, #"{"data":"ok"}"#)
    }
    let outcome = try await fixture.client.logout()
    #expect(outcome == .completed)
    let revoke = try #require(await fixture.http.received.last)
    #expect(revoke.headers["authorization"] == nil)
    #expect(try bodyField(revoke, "revocation_token") == Wire.proof)
    #expect(try bodyField(revoke, "expected_session_id") == Wire.sessionID)
    #expect(
      try bodyField(revoke, "installation_id")
        == store.value(String.self, forKey: .installationID, in: .appPrivate))
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedJournal().isEmpty)
    await fixture.http.verifyAllConsumed()
  }

  @Test func offlineLogoutKeepsTheEntryUntilPendingCleanupCompletes() async throws {
    let fixture = try await Self.loggedOutOffline()
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedLogin() == nil)
    #expect(try await fixture.client.pendingCleanups().map(\.mobileSessionID) == [Wire.sessionID])

    await fixture.http.expect(.post, Self.revokePath, reply: .json(503, ""))
    let failed = try await fixture.client.completePendingCleanups()
    #expect(failed.settled.isEmpty && failed.failed.count == 1)
    #expect(failed.failed.first?.error.code == .serverError)
    #expect(try fixture.storedJournal().count == 1)

    await fixture.http.expect(
      .post, Self.revokePath, reply: .json(200, #"{"data":"already_absent"}"#))
    let settled = try await fixture.client.completePendingCleanups()
    #expect(settled.settled.map(\.mobileSessionID) == [Wire.sessionID] && settled.failed.isEmpty)
    #expect(try fixture.storedJournal().isEmpty)
    await fixture.http.verifyAllConsumed()
  }

  @Test func aPendingCleanupCanBeForgottenExplicitly() async throws {
    let fixture = try await Self.loggedOutOffline()
    let entry = try #require(try await fixture.client.pendingCleanups().first)

    #expect(try await fixture.client.forgetPendingCleanup(id: "no-such-entry") == nil)
    #expect(try fixture.storedJournal().count == 1)
    #expect(try await fixture.client.forgetPendingCleanup(id: entry.id) == entry)
    #expect(try fixture.storedJournal().isEmpty)
    #expect(try await fixture.client.pendingCleanups().isEmpty)
    // Nothing is sent: the server is not told.
    await fixture.http.verifyAllConsumed()
  }

  @Test(arguments: [
    HTTPResponse.json(401, ""), .json(302, ""), .json(200, #"{"data":"maybe"}"#),
    .json(404, ""),
  ])
  func cleanupFailuresStayInTheJournal(_ reply: HTTPResponse) async throws {
    let fixture = AuthFixture()
    try await fixture.signInWithConfirmedProof()
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(.post, Self.revokePath, reply: reply)
    #expect(try await fixture.client.logout() == .pendingCleanup)
    #expect(try fixture.storedJournal().count == 1)
  }

  @Test func aJournalEntryIsReplayedOnlyWithItsOwnCredentials() async throws {
    let fixture = try await Self.loggedOutOffline()
    let installationID = try #require(try fixture.storedJournal().first?.installationID)

    // A second account signs in on the same installation; cleanup runs first and fails again.
    await fixture.http.expect(.post, Self.revokePath, throwing: Self.down)
    try await fixture.signIn(
      tokens: Wire.tokens(
        access: "bob-access", refresh: "bob-refresh", sessionID: Wire.otherSessionID,
        revocation: "bob-revocation", userID: Wire.otherUserID, username: "bob"))
    await fixture.http.expect(.post, Self.revokePath, reply: .json(200, #"{"data":"ok"}"#))
    let report = try await fixture.client.completePendingCleanups()
    #expect(report.settled.count == 1)

    for replay in await fixture.http.requests(to: Self.revokePath) {
      #expect(replay.headers["authorization"] == nil)
      #expect(try bodyField(replay, "revocation_token") == Wire.proof)
      #expect(try bodyField(replay, "expected_session_id") == Wire.sessionID)
      #expect(try bodyField(replay, "installation_id") == installationID)
      #expect(!bodyText(replay).contains("bob"))
    }
    #expect(fixture.client.currentState.identity?.user.username == "bob")
  }

  @Test func concurrentCleanupCallsShareOnePass() async throws {
    let fixture = AuthFixture()
    try fixture.seedJournal(count: 1)
    let gate = Gate()
    await fixture.http.expect(.post, Self.revokePath) { _ in
      await gate.wait()
      return .json(200, #"{"data":"ok"}"#)
    }
    let client = fixture.client
    let first = Task { try await client.completePendingCleanups() }
    await gate.waitForArrivals(1)
    let second = Task { try await client.completePendingCleanups() }
    await gate.open()
    #expect(try await first.value.settled.count == 1)
    #expect(try await second.value.settled.count <= 1)
    #expect(await fixture.http.requests(to: Self.revokePath).count == 1)
    #expect(try fixture.storedJournal().isEmpty)
  }

  @Test func aFullJournalRefusesANewLogin() async throws {
    let fixture = AuthFixture()
    try fixture.seedJournal(count: 16)
    for _ in 0..<16 {
      await fixture.http.expect(
        .post, Self.revokePath, throwing: ServerBeeTransportError(.connectionRefused, "down"))
    }
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    }
    #expect(code == .logoutJournalFull)
    #expect(await fixture.http.requests(to: "/api/mobile/auth/login").isEmpty)
    #expect(try fixture.storedJournal().count == 16)
  }

  @Test func pendingCleanupsRunBeforeLoginAndFreeTheJournal() async throws {
    let fixture = AuthFixture()
    try fixture.seedJournal(count: 16)
    for _ in 0..<16 {
      await fixture.http.expect(.post, Self.revokePath, reply: .json(200, #"{"data":"ok"}"#))
    }
    try await fixture.signIn()
    #expect(try fixture.storedJournal().isEmpty)
    await fixture.http.verifyAllConsumed()
  }

  @Test func nothingIsClearedWhenTheJournalCannotBeSaved() async throws {
    let fixture = AuthFixture()
    try await fixture.signInWithConfirmedProof()
    let identity = try #require(fixture.client.currentState.identity)
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    fixture.store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
    let code = await authErrorCode { _ = try await fixture.client.logout() }
    #expect(code == .storageFailed)
    #expect(fixture.client.currentState == .signedIn(identity))
    #expect(try fixture.storedLogin()?.confirmedDeletionProof == Wire.proof)
    #expect(await fixture.http.requests(to: Self.revokePath).isEmpty)
  }

  @Test func withoutAConfirmedProofLogoutRevokesWithTheLoginRevocationToken() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(.post, Self.revokePath, reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
    let revoke = try #require(await fixture.http.received.last)
    #expect(try bodyField(revoke, "revocation_token") == Wire.revocationToken)
    #expect(try bodyField(revoke, "expected_session_id") == Wire.sessionID)
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedJournal().isEmpty)
  }

  @Test func withoutARevocationTokenTheRefreshTokenIsTheCredential() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn(tokens: Wire.tokens(revocation: nil))
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(
      .post, Self.revokePath, reply: .json(200, #"{"data":"already_absent"}"#))
    #expect(try await fixture.client.logout() == .completed)
    #expect(
      try bodyField(try #require(await fixture.http.received.last), "revocation_token")
        == "refresh-1")
  }

  @Test(arguments: [401, 403])
  func aRefusedRevocationWithoutAProofMovesToRecovery(_ status: Int) async throws {
    let fixture = AuthFixture()
    let identity = try await fixture.signIn()
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(.post, Self.revokePath, reply: .json(status, ""))
    let code = await authErrorCode { _ = try await fixture.client.logout() }
    #expect(code == .revocationRejected)
    #expect(fixture.client.currentState == .recoveryRequired(identity))
    #expect(try fixture.storedLogin()?.status == .recoveryRequired)
  }

  @Test func withoutAProofAnUnreachableServerKeepsTheSessionSignedIn() async throws {
    let fixture = AuthFixture()
    let identity = try await fixture.signIn()
    let down = ServerBeeTransportError(.connectionRefused, "down")
    await fixture.http.expect(.post, Self.unregisterPath, throwing: down)
    await fixture.http.expect(.post, Self.revokePath, throwing: down)
    let code = await authErrorCode { _ = try await fixture.client.logout() }
    #expect(code == .networkFailure)
    #expect(fixture.client.currentState == .signedIn(identity))
    #expect(try fixture.storedLogin() != nil)
  }

  @Test func retryingSafeLogoutFromRecoveryUsesOnlyTheOriginalCredential() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    await fixture.http.expect(.post, "/api/mobile/auth/refresh", reply: .json(401, ""))
    _ = await authErrorCode { try await fixture.client.refresh() }
    await fixture.http.expect(.post, Self.revokePath, reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
    let revoke = try #require(await fixture.http.received.last)
    #expect(try bodyField(revoke, "revocation_token") == Wire.revocationToken)
    #expect(try bodyField(revoke, "expected_session_id") == Wire.sessionID)
    #expect(fixture.client.currentState == .signedOut)
    await fixture.http.verifyAllConsumed()  // no push unregister for a rejected login
  }

  @Test func logoutWhenSignedOutIsATypedError() async throws {
    let fixture = AuthFixture()
    #expect(await authErrorCode { _ = try await fixture.client.logout() } == .notSignedIn)
  }

  /// A fixture signed in with a confirmed proof, then logged out while the server was down:
  /// the revocation is queued.
  private static func loggedOutOffline() async throws -> AuthFixture {
    let fixture = AuthFixture()
    try await fixture.signInWithConfirmedProof()
    await fixture.http.expect(.post, Self.unregisterPath, throwing: Self.down)
    await fixture.http.expect(.post, Self.revokePath, throwing: Self.down)
    #expect(try await fixture.client.logout() == .pendingCleanup)
    return fixture
  }
}
