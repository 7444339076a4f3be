import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

/// Values that belong to one login (a content key in the shared group, a test in flight) are
/// gone when the call that ended or replaced the login returns, in every path.
@Suite(.timeLimit(.minutes(5))) struct AuthClientLoginScopeTests {
  static let contentKey = CredentialSlot(.pushContentKey, in: .sharedWithExtension)
  static let testInFlight = CredentialSlot("test.in-flight", in: .appPrivate)
  static let revokePath = "/api/mobile/auth/revoke"
  static let unregisterPath = "/api/mobile/push/unregister"
  static let refreshPath = "/api/mobile/auth/refresh"

  static func fixture(store: InMemoryCredentialStore = InMemoryCredentialStore()) -> AuthFixture {
    AuthFixture(
      store: store,
      configuration: .init(
        deviceName: "Test phone", loginScopedValues: [contentKey, testInFlight]))
  }

  /// Stores both login-scoped values, as the notification settings would.
  static func seed(_ store: InMemoryCredentialStore) throws {
    try store.setValue("key of this login", forKey: contentKey.key, in: contentKey.group)
    try store.setValue("test of this login", forKey: testInFlight.key, in: testInFlight.group)
  }

  static func held(_ store: InMemoryCredentialStore) throws -> [String] {
    try [contentKey, testInFlight].compactMap {
      try store.value(String.self, forKey: $0.key, in: $0.group)
    }
  }

  static func marker(_ store: InMemoryCredentialStore) throws -> String? {
    try store.value(String.self, forKey: .currentLoginScope, in: .sharedWithExtension)
  }

  @Test func signingInNamesTheLoginsScopeInTheSharedGroup() async throws {
    let fixture = Self.fixture()
    let identity = try await fixture.signIn()
    #expect(try Self.marker(fixture.store) == identity.scope)
  }

  @Test func anOnlineLogoutRemovesTheValuesInTheWriteThatClearsTheLogin() async throws {
    let fixture = Self.fixture()
    try await fixture.signInWithConfirmedProof()
    try Self.seed(fixture.store)
    let store = fixture.store
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(.post, Self.revokePath) { _ in
      // Already gone while the revocation is on the network.
      let held = try Self.held(store)
      #expect(held.isEmpty)
      return .json(200, #"{"data":"ok"}"#)
    }
    #expect(try await fixture.client.logout() == .completed)
    #expect(try Self.held(store).isEmpty)
    #expect(try Self.marker(store) == nil)
  }

  @Test func anOfflineLogoutRemovesTheValuesBeforeItReturns() async throws {
    let fixture = Self.fixture()
    try await fixture.signInWithConfirmedProof()
    try Self.seed(fixture.store)
    let down = ServerBeeTransportError(.connectionRefused, "down")
    await fixture.http.expect(.post, Self.unregisterPath, throwing: down)
    await fixture.http.expect(.post, Self.revokePath, throwing: down)
    #expect(try await fixture.client.logout() == .pendingCleanup)
    #expect(try Self.held(fixture.store).isEmpty)
    #expect(try Self.marker(fixture.store) == nil)
  }

  @Test func aLogoutWithoutAProofRemovesTheValues() async throws {
    let fixture = Self.fixture()
    try await fixture.signIn()
    try Self.seed(fixture.store)
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(.post, Self.revokePath, reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
    #expect(try Self.held(fixture.store).isEmpty)
  }

  @Test func aV1LogoutRemovesTheValues() async throws {
    let fixture = Self.fixture()
    try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    try Self.seed(fixture.store)
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(
      .post, "/api/mobile/auth/logout", reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
    #expect(try Self.held(fixture.store).isEmpty)
  }

  @Test func aSessionTheServerRejectsLosesItsValuesWhenItMovesToRecovery() async throws {
    let fixture = Self.fixture()
    let identity = try await fixture.signIn()
    try Self.seed(fixture.store)
    await fixture.http.expect(.post, Self.refreshPath, reply: .json(401, ""))
    _ = await authErrorCode { try await fixture.client.refresh() }
    #expect(fixture.client.currentState == .recoveryRequired(identity))
    #expect(try Self.held(fixture.store).isEmpty)
    #expect(try Self.marker(fixture.store) == nil)
  }

  @Test func aRejectedSessionWithAConfirmedProofIsQueuedWithoutItsValues() async throws {
    let fixture = Self.fixture()
    try await fixture.signInWithConfirmedProof()
    try Self.seed(fixture.store)
    await fixture.http.expect(.post, Self.refreshPath, reply: .json(401, ""))
    _ = await authErrorCode { try await fixture.client.refresh() }
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedJournal().count == 1)
    #expect(try Self.held(fixture.store).isEmpty)
  }

  @Test func recoveryEndsTheLoginAndAnythingStoredForIt() async throws {
    let fixture = Self.fixture()
    try await fixture.signIn()
    await fixture.http.expect(.post, Self.refreshPath, reply: .json(401, ""))
    _ = await authErrorCode { try await fixture.client.refresh() }
    // Something stored for the login while it waited for recovery (another process).
    try Self.seed(fixture.store)
    let installation =
      try fixture.store.value(
        String.self, forKey: .installationID, in: .appPrivate) ?? ""
    await fixture.http.expect(
      .post, "/api/mobile/auth/recover",
      reply: .json(
        200,
        #"{"data":{"outcome":"ok","user_id":"\#(Wire.userID)","installation_id":"\#(installation)","mobile_session_id":"\#(Wire.sessionID)","candidates":[]}}"#
      ))
    _ = try await fixture.client.recoverSession(
      .password(username: "ada", password: "pw", totpCode: nil))
    #expect(fixture.client.currentState == .signedOut)
    #expect(try Self.held(fixture.store).isEmpty)
  }

  @Test func anotherAccountNeverFindsTheFirstAccountsValues() async throws {
    let fixture = Self.fixture()
    let first = try await fixture.signIn()
    try Self.seed(fixture.store)
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(.post, Self.revokePath, reply: .json(200, #"{"data":"ok"}"#))
    try await fixture.client.logout()
    // Another process stored a value for the ended login after the logout.
    try Self.seed(fixture.store)
    let second = try await fixture.signIn(
      tokens: Wire.tokens(sessionID: Wire.otherSessionID, userID: Wire.otherUserID))
    #expect(first.scope != second.scope)
    #expect(try Self.held(fixture.store).isEmpty)
    #expect(try Self.marker(fixture.store) == second.scope)
  }

  @Test func aRefreshKeepsTheValuesOfTheSameLogin() async throws {
    let fixture = Self.fixture()
    let identity = try await fixture.signIn()
    try Self.seed(fixture.store)
    await fixture.http.expect(
      .post, Self.refreshPath,
      reply: .json(200, Wire.tokens(access: "access-2", refresh: "refresh-2")))
    try await fixture.client.refresh()
    #expect(try Self.held(fixture.store).count == 2)
    #expect(try Self.marker(fixture.store) == identity.scope)
  }

  @Test func restoringASignedOutInstallationRemovesValuesAnEarlierVersionLeft() async throws {
    let store = InMemoryCredentialStore()
    try Self.seed(store)
    try store.setValue("an ended login", forKey: .currentLoginScope, in: .sharedWithExtension)
    let fixture = Self.fixture(store: store)
    #expect(try await fixture.client.restore() == .signedOut)
    #expect(try Self.held(store).isEmpty)
    #expect(try Self.marker(store) == nil)
  }

  @Test func restoringAnActiveLoginStoredWithoutAMarkerNamesItAndKeepsItsValues() async throws {
    let store = InMemoryCredentialStore()
    let identity = try await Self.fixture(store: store).signIn()
    try Self.seed(store)
    try store.removeValue(forKey: .currentLoginScope, in: .sharedWithExtension)
    let relaunched = Self.fixture(store: store)
    #expect(try await relaunched.client.restore() == .signedIn(identity))
    #expect(try Self.marker(store) == identity.scope)
    #expect(try Self.held(store).count == 2)
  }

  @Test func whenTheValuesCannotBeRemovedTheLogoutFailsTypedAndLosesNothing() async throws {
    let fixture = Self.fixture()
    try await fixture.signInWithConfirmedProof()
    let identity = try #require(fixture.client.currentState.identity)
    try Self.seed(fixture.store)
    await fixture.http.expect(.post, Self.unregisterPath, reply: .json(200, #"{"data":"ok"}"#))
    fixture.store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
    let code = await authErrorCode { _ = try await fixture.client.logout() }
    #expect(code == .storageFailed)
    #expect(fixture.client.currentState == .signedIn(identity))
    #expect(try fixture.storedLogin() != nil)
    #expect(try Self.held(fixture.store).count == 2)
    #expect(await fixture.http.requests(to: Self.revokePath).isEmpty)
  }
}
