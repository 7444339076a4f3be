import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

@Suite(.timeLimit(.minutes(5))) struct AuthClientRefreshTests {
  static let refreshPath = "/api/mobile/auth/refresh"

  @Test func hundredConcurrentCallersCauseExactlyOneRefreshRequest() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    fixture.clock.advance(by: .seconds(900))  // the access token has expired
    let gate = Gate()
    await fixture.http.expect(.post, Self.refreshPath) { _ in
      await gate.wait()
      return .json(200, Wire.tokens(access: "access-2", refresh: "refresh-2"))
    }
    let joined = Counter()
    await fixture.client.observeRefreshJoins { _ = joined.next() }
    let client = fixture.client
    let tokens = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<100 { group.addTask { try? await client.validAccessToken() } }
      await gate.waitForArrivals(1)
      await gate.open()
      var tokens: [String?] = []
      for await token in group { tokens.append(token) }
      return tokens
    }
    #expect(tokens.count == 100)
    #expect(tokens.allSatisfy { $0 == "access-2" })
    #expect(await fixture.http.requests(to: Self.refreshPath).count == 1)
    #expect(try fixture.storedLogin()?.refreshToken == "refresh-2")
    await fixture.http.verifyAllConsumed()
  }

  @Test func aWaiterWhoseLeaderFailedTransientlyMakesItsOwnAttempt() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let leaderGate = Gate()
    await fixture.http.expect(.post, Self.refreshPath) { _ in
      await leaderGate.wait()
      throw ServerBeeTransportError(.connectionLost, "lost")
    }
    await fixture.http.expect(
      .post, Self.refreshPath, reply: .json(200, Wire.tokens(access: "access-2", refresh: "r-2")))
    let joinedGate = Gate()
    await fixture.client.observeRefreshJoins { Task { await joinedGate.wait() } }
    let client = fixture.client
    let leader = Task { try await client.refresh() }
    await leaderGate.waitForArrivals(1)
    let waiter = Task { try await client.refresh() }
    await joinedGate.waitForArrivals(1)  // the waiter joined the leader's refresh
    await leaderGate.open()

    let leaderResult = await leader.result
    #expect(throws: AuthSessionError.self) { try leaderResult.get() }
    if case .failure(let error as AuthSessionError) = leaderResult {
      #expect(error.code == .networkFailure)
    }
    _ = try await waiter.value
    #expect(try await client.validAccessToken() == "access-2")
    #expect(await fixture.http.requests(to: Self.refreshPath).count == 2)
    await joinedGate.open()
  }

  @Test func rotatedTokensAreStoredBeforeTheyAreHandedOut() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    await fixture.http.expect(
      .post, Self.refreshPath, reply: .json(200, Wire.tokens(access: "access-2", refresh: "r-2")))
    fixture.store.failWrites(with: nil)
    // The proposal is stored first, then the rotation fails to store: the new token is withheld.
    let store = fixture.store
    await fixture.http.expect(.post, Self.refreshPath) { _ in
      store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
      return .json(200, Wire.tokens(access: "access-3", refresh: "r-3"))
    }
    try await fixture.client.refresh()
    #expect(try fixture.storedLogin()?.accessToken == "access-2")
    let code = await authErrorCode { try await fixture.client.refresh() }
    #expect(code == .storageFailed)
    #expect(try fixture.storedLogin()?.refreshToken == "r-2")
    #expect(try await fixture.client.validAccessToken() == "access-2")
  }

  @Test func refreshSendsThePersistedProofProposalAndConfirmsItsEcho() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let store = fixture.store
    await fixture.http.expect(.post, Self.refreshPath) { request in
      // The proposal was persisted before the request left.
      let stored = try store.value(LoginRecord.self, forKey: .login, in: .appPrivate)
      #expect(stored?.proposedDeletionProof == (try bodyField(request, "revocation_proof")))
      return .json(200, Wire.tokens(access: "access-2", refresh: "r-2", revocation: Wire.proof))
    }
    await fixture.http.expect(
      .post, Self.refreshPath,
      reply: .json(200, Wire.tokens(access: "a-3", refresh: "r-3", revocation: nil)))
    try await fixture.client.refresh()

    let first = try #require(await fixture.http.received.last)
    let proof = try #require(try bodyField(first, "revocation_proof"))
    #expect(proof == Wire.proof)
    #expect(proof.hasPrefix("sb-revoke-v1.") && proof.count == 13 + 43)
    #expect(!proof.contains("=") && !proof.contains("+") && !proof.contains("/"))
    #expect(try bodyField(first, "refresh_token") == "refresh-1")
    let stored = try #require(try fixture.storedLogin())
    #expect(stored.confirmedDeletionProof == Wire.proof)
    #expect(stored.proposedDeletionProof == nil)

    try await fixture.client.refresh()
    let second = try #require(await fixture.http.received.last)
    #expect(try !bodyKeys(second).contains("revocation_proof"))
    #expect(try fixture.storedLogin()?.confirmedDeletionProof == Wire.proof)
  }

  @Test func anUnechoedProposalIsKeptAndSentAgain() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    await fixture.http.expect(
      .post, Self.refreshPath, throwing: ServerBeeTransportError(.timedOut, "timeout"))
    await fixture.http.expect(
      .post, Self.refreshPath,
      reply: .json(200, Wire.tokens(access: "a-2", refresh: "r-2", revocation: nil)))
    _ = await authErrorCode { try await fixture.client.refresh() }
    try await fixture.client.refresh()
    let requests = await fixture.http.requests(to: Self.refreshPath)
    #expect(try bodyField(requests[0], "revocation_proof") == Wire.proof)
    #expect(try bodyField(requests[1], "revocation_proof") == Wire.proof)
    #expect(try fixture.storedLogin()?.proposedDeletionProof == Wire.proof)
    #expect(try fixture.storedLogin()?.confirmedDeletionProof == nil)
  }

  @Test func noRequestIsSentWhenTheProposalCannotBeStored() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    fixture.store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
    let code = await authErrorCode { try await fixture.client.refresh() }
    #expect(code == .storageFailed)
    #expect(await fixture.http.requests(to: Self.refreshPath).isEmpty)
  }

  @Test(arguments: [401, 403])
  func rejectionWithoutAConfirmedProofMovesToRecovery(_ status: Int) async throws {
    let fixture = AuthFixture()
    let identity = try await fixture.signIn()
    await fixture.http.expect(.post, Self.refreshPath, reply: .json(status, ""))
    let code = await authErrorCode { try await fixture.client.refresh() }
    #expect(code == .sessionRejected)
    #expect(fixture.client.currentState == .recoveryRequired(identity))
    #expect(try fixture.storedLogin()?.status == .recoveryRequired)
    #expect(
      await authErrorCode { _ = try await fixture.client.validAccessToken() } == .recoveryRequired)
  }

  @Test func rejectionWithAConfirmedProofQueuesCleanupAndSignsOut() async throws {
    let fixture = AuthFixture()
    try await fixture.signInWithConfirmedProof()
    await fixture.http.expect(.post, Self.refreshPath, reply: .json(401, ""))
    let code = await authErrorCode { try await fixture.client.refresh() }
    #expect(code == .sessionRejected)
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedLogin() == nil)
    let journal = try fixture.storedJournal()
    #expect(journal.count == 1)
    #expect(journal.first?.proof == Wire.proof && journal.first?.mobileSessionID == Wire.sessionID)
  }

  @Test func rejectionWithAConfirmedProofAndAFullJournalMovesToRecoveryAndKeepsTheProof()
    async throws
  {
    let fixture = AuthFixture()
    try await fixture.signInWithConfirmedProof()
    try fixture.seedJournal(count: 16)
    await fixture.http.expect(.post, Self.refreshPath, reply: .json(401, ""))
    #expect(await authErrorCode { try await fixture.client.refresh() } == .sessionRejected)
    #expect(try fixture.storedLogin()?.status == .recoveryRequired)
    #expect(try fixture.storedJournal().count == 16)

    // A retried safe logout uses the confirmed proof.
    await fixture.http.expect(
      .post, "/api/mobile/auth/revoke", reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
    let revoke = try #require(await fixture.http.received.last)
    #expect(try bodyField(revoke, "revocation_token") == Wire.proof)
    #expect(fixture.client.currentState == .signedOut)
  }

  struct TransientCase: Sendable, CustomTestStringConvertible {
    let name: String
    let reply: HTTPResponse?
    var testDescription: String { name }
  }

  static let transientCases: [TransientCase] = [
    TransientCase(
      name: "500", reply: .json(500, Wire.error("INTERNAL_ERROR", "Internal error: x"))),
    TransientCase(name: "502 text", reply: .json(502, "bad gateway")),
    TransientCase(name: "empty 404", reply: .json(404, "")),
    TransientCase(name: "undecodable 200", reply: .json(200, #"{"data":{"access_token":1}}"#)),
    TransientCase(name: "network", reply: nil),
  ]

  @Test(arguments: transientCases)
  func transientFailuresKeepTheCredentials(_ testCase: TransientCase) async throws {
    let fixture = AuthFixture()
    let identity = try await fixture.signIn()
    if let reply = testCase.reply {
      await fixture.http.expect(.post, Self.refreshPath, reply: reply)
    } else {
      await fixture.http.expect(
        .post, Self.refreshPath, throwing: ServerBeeTransportError(.connectionRefused, "down"))
    }
    do {
      try await fixture.client.refresh()
      Issue.record("expected a failure")
    } catch let error as AuthSessionError {
      #expect(error.isTransient, "\(error.code)")
    }
    #expect(fixture.client.currentState == .signedIn(identity))
    #expect(try fixture.storedLogin()?.refreshToken == "refresh-1")
    #expect(try fixture.storedLogin()?.status == .active)
  }

  @Test(arguments: [
    Wire.tokens(access: "a-2", refresh: "r-2", userID: Wire.otherUserID),
    Wire.tokens(access: "a-2", refresh: "r-2", sessionID: Wire.otherSessionID),
  ])
  func anAnswerForAnotherUserOrSessionIsRefused(_ body: String) async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    await fixture.http.expect(.post, Self.refreshPath, reply: .json(200, body))
    let code = await authErrorCode { try await fixture.client.refresh() }
    #expect(code == .identityMismatch)
    #expect(try fixture.storedLogin()?.accessToken == "access-1")
  }

  @Test func confirmDeletionProofRefreshesOnceAndThenAnswersFromTheStore() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    await fixture.http.expect(
      .post, Self.refreshPath,
      reply: .json(200, Wire.tokens(access: "a-2", refresh: "r-2", revocation: Wire.proof)))
    try await fixture.client.confirmDeletionProof()
    try await fixture.client.confirmDeletionProof()
    #expect(await fixture.http.requests(to: Self.refreshPath).count == 1)
    #expect(try fixture.storedLogin()?.confirmedDeletionProof == Wire.proof)
  }

  @Test func confirmDeletionProofOnAV1ServerIsUnsupported() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    await fixture.http.expect(
      .post, Self.refreshPath,
      reply: .json(200, Wire.tokens(access: "a-2", refresh: "r-2", sessionID: nil, revocation: nil))
    )
    let code = await authErrorCode { try await fixture.client.confirmDeletionProof() }
    #expect(code == .unsupportedByServer)
    #expect(try fixture.storedLogin()?.accessToken == "a-2")
  }

  @Test func validAccessTokenRefreshesOnlyWithinTheLeadTime() async throws {
    let fixture = AuthFixture(
      configuration: .init(deviceName: "Test phone", refreshesProactively: false))
    try await fixture.signIn()
    fixture.clock.advance(by: .seconds(839))
    #expect(try await fixture.client.validAccessToken() == "access-1")
    fixture.clock.advance(by: .seconds(1))
    await fixture.http.expect(
      .post, Self.refreshPath, reply: .json(200, Wire.tokens(access: "access-2", refresh: "r-2")))
    #expect(try await fixture.client.validAccessToken() == "access-2")
    #expect(await fixture.http.requests(to: Self.refreshPath).count == 1)
  }

  @Test func proactiveRefreshRunsShortlyBeforeTheFixedExpiry() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let refreshed = Gate()
    await fixture.http.expect(.post, Self.refreshPath) { _ in
      await refreshed.open()
      return .json(200, Wire.tokens(access: "access-2", refresh: "r-2"))
    }
    await fixture.clock.waitForSleepers(1)
    fixture.clock.advance(by: .seconds(839))
    #expect(await fixture.http.requests(to: Self.refreshPath).isEmpty)
    fixture.clock.advance(by: .seconds(1))
    await refreshed.wait()
    let states = fixture.client.stateChanges()
    // After the rotation the next proactive refresh is scheduled again.
    await fixture.clock.waitForSleepers(1)
    #expect(try fixture.storedLogin()?.accessToken == "access-2")
    #expect(await fixture.http.requests(to: Self.refreshPath).count == 1)
    var iterator = states.makeAsyncIterator()
    #expect(await iterator.next()?.identity?.mobileSessionID == Wire.sessionID)
  }

  @Test func aTransientProactiveFailureIsRetriedAfterTheConfiguredDelay() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let retried = Gate()
    await fixture.http.expect(
      .post, Self.refreshPath, throwing: ServerBeeTransportError(.connectionRefused, "down"))
    await fixture.http.expect(.post, Self.refreshPath) { _ in
      await retried.open()
      return .json(200, Wire.tokens(access: "access-2", refresh: "r-2"))
    }
    await fixture.clock.waitForSleepers(1)
    fixture.clock.advance(by: .seconds(840))
    await fixture.clock.waitForSleepers(1)  // the retry timer
    fixture.clock.advance(by: .seconds(30))
    await retried.wait()
    await fixture.clock.waitForSleepers(1)
    #expect(await fixture.http.requests(to: Self.refreshPath).count == 2)
  }
}
