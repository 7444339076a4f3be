import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

/// The session seam of ServerBeeTransport (`SessionContext`) as AuthClient provides it: the
/// identity, its changes, the login scope, and the decorator working over any session.
@Suite(.timeLimit(.minutes(5))) struct SessionContextTests {
  @Test func identityChangesFollowSignInAndLogout() async throws {
    let fixture = AuthFixture()
    _ = try await fixture.client.restore()
    var changes = fixture.client.identityChanges().makeAsyncIterator()
    #expect(await changes.next() == .some(nil))
    let identity = try await fixture.signIn()
    #expect(await changes.next() == .some(identity))
    #expect(fixture.client.currentIdentity == identity)
    await fixture.http.expect(
      .post, "/api/mobile/push/unregister", reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(
      .post, "/api/mobile/auth/revoke", reply: .json(200, #"{"data":"ok"}"#))
    _ = try await fixture.client.logout()
    #expect(await changes.next() == .some(nil))
    #expect(fixture.client.currentIdentity == nil)
  }

  @Test func aRefreshKeepsTheScopeAndSendsNoIdentityChange() async throws {
    let fixture = AuthFixture()
    let identity = try await fixture.signIn()
    let scope = try #require(fixture.client.currentIdentity?.scope)
    #expect(scope == identity.scope && scope.count == 64)
    var changes = fixture.client.identityChanges().makeAsyncIterator()
    #expect(await changes.next() == .some(identity))
    await fixture.http.expect(
      .post, "/api/mobile/auth/refresh",
      reply: .json(200, Wire.tokens(access: "access-2", refresh: "refresh-2")))
    try await fixture.client.refresh()
    #expect(fixture.client.currentIdentity?.scope == scope)
  }

  @Test func aReplacementLoginOfTheSameAccountHasAnotherScope() async throws {
    let fixture = AuthFixture()
    let first = try await fixture.signIn()
    await fixture.http.expect(
      .post, "/api/mobile/push/unregister", reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(
      .post, "/api/mobile/auth/revoke", reply: .json(200, #"{"data":"ok"}"#))
    _ = try await fixture.client.logout()
    let second = try await fixture.signIn()
    #expect(first.user == second.user && first.server == second.server)
    #expect(first.scope != second.scope)
  }

  @Test func theScopeIsTheContractHashOfServerUserInstallationAndLogin() throws {
    let identity = SessionIdentity(
      loginID: "login-1", server: try ServerURL("https://serverbee.test"),
      user: SessionUser(id: "alice", username: "alice", role: .admin),
      installationID: "test-install", mobileSessionID: nil)
    // sha256("https://serverbee.test|alice|test-install|login-1"), computed with Python hashlib.
    #expect(
      identity.scope == "ab84969112ea509c243c40e0fca102ed781dd6afa346eeda77cadd4688118d41")
  }

  @Test func theDecoratorSignsWithAnySessionContext() async throws {
    let session = FakeSessionContext()
    session.signIn(
      try FakeSessionContext.identity(user: "ada", server: Wire.server), token: "t-1")
    let http = StubHTTPTransport()
    await http.expect(.get, "/api/servers", reply: .json(200, #"{"data":[]}"#))
    let api = AuthorizedHTTPTransport(wrapping: http, client: session)
    let response = try await api.send(
      HTTPRequest(url: try ServerURL(Wire.server).endpoint("/api/servers")))
    #expect(response.status == 200)
    #expect(await http.received.first?.headers["authorization"] == "Bearer t-1")
    session.signOut()
    await #expect(throws: AuthSessionError.self) {
      _ = try await api.send(
        HTTPRequest(url: try ServerURL(Wire.server).endpoint("/api/servers")))
    }
  }
}
