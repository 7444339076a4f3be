import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

/// A server stand-in for the decorator: 401 for any token but the current one; counts refreshes.
actor FakeTokenServer: HTTPTransport {
  private(set) var currentToken = "access-1"
  private(set) var refreshCount = 0
  private(set) var apiCalls = 0
  private let refreshGate: Gate

  init(refreshGate: Gate) { self.refreshGate = refreshGate }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    switch request.url.path {
    case "/api/mobile/auth/refresh":
      refreshCount += 1
      await refreshGate.wait()
      currentToken = "access-\(refreshCount + 1)"
      return .json(200, Wire.tokens(access: currentToken, refresh: "refresh-\(refreshCount + 1)"))
    case "/api/mobile/auth/login":
      return .json(200, Wire.tokens())
    default:
      apiCalls += 1
      let authorized = request.headers["authorization"] == "Bearer \(currentToken)"
      return authorized ? .json(200, #"{"data":[]}"#) : .json(401, "")
    }
  }

  func rotateAway() { currentToken = "revoked-by-server" }
}

@Suite(.timeLimit(.minutes(5))) struct AuthClientStateAndTransportTests {
  @Test func hundredConcurrent401sCauseOneRefreshAndEveryRequestIsRetriedOnce() async throws {
    let gate = Gate()
    let server = FakeTokenServer(refreshGate: gate)
    let clock = ManualClock()
    let client = AuthClient(
      configuration: .init(deviceName: "Test phone", refreshesProactively: false),
      store: InMemoryCredentialStore(), transport: server, clock: clock,
      now: { clock.currentDate }, randomBytes: { [UInt8](repeating: 7, count: $0) },
      makeUUID: { UUID() })
    _ = try await client.login(server: Wire.server, username: "ada", password: "pw")
    await server.rotateAway()  // the server no longer accepts access-1
    let api = AuthorizedHTTPTransport(wrapping: server, client: client)
    let url = try ServerURL(Wire.server).endpoint("/api/servers")
    let statuses = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<100 {
        group.addTask { (try? await api.send(HTTPRequest(url: url)))?.status ?? -1 }
      }
      await gate.waitForArrivals(1)
      await gate.open()
      var statuses: [Int] = []
      for await status in group { statuses.append(status) }
      return statuses
    }
    #expect(statuses == Array(repeating: 200, count: 100))
    #expect(await server.refreshCount == 1)
    #expect(await server.apiCalls <= 200)
  }

  @Test func theDecoratorSignsRetriesOnceAndReturnsTheSecondAnswer() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let api = AuthorizedHTTPTransport(wrapping: fixture.http, client: fixture.client)
    await fixture.http.expect(.get, "/api/servers", reply: .json(401, ""))
    await fixture.http.expect(
      .post, "/api/mobile/auth/refresh", reply: .json(200, Wire.tokens(access: "access-2")))
    await fixture.http.expect(.get, "/api/servers", reply: .json(401, ""))
    let response = try await api.send(
      HTTPRequest(url: try ServerURL(Wire.server).endpoint("/api/servers")))
    #expect(response.status == 401)
    let calls = await fixture.http.requests(to: "/api/servers")
    #expect(calls.map { $0.headers["authorization"] } == ["Bearer access-1", "Bearer access-2"])
    await fixture.http.verifyAllConsumed()
  }

  /// Protocol/AppRoutes.md §2.1: a wrong two-factor code is a 401 **with** the JSON envelope,
  /// from the handler. It must not refresh (on v1 servers a refresh rotates the session and
  /// drops push rows), nor log out: the answer goes back as it is.
  @Test func aHandlers401WithTheJSONEnvelopeIsReturnedWithoutARefresh() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let api = AuthorizedHTTPTransport(wrapping: fixture.http, client: fixture.client)
    await fixture.http.expect(
      .post, "/api/auth/2fa/enable",
      reply: .json(401, #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#))
    let response = try await api.send(
      HTTPRequest(
        method: .post, url: try ServerURL(Wire.server).endpoint("/api/auth/2fa/enable"),
        body: Data(#"{"code":"000000"}"#.utf8)))
    #expect(response.status == 401)
    #expect(await fixture.http.requests(to: "/api/mobile/auth/refresh").isEmpty)
    #expect(fixture.client.currentIdentity != nil)
    await fixture.http.verifyAllConsumed()
  }

  @Test func theDecoratorNeverSendsTheTokenToAnotherOrigin() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let api = AuthorizedHTTPTransport(wrapping: fixture.http, client: fixture.client)
    for text in [
      "https://evil.example.net/api/servers", "http://monitor.example.com/api/servers",
      "https://monitor.example.com:8443/api/servers",
    ] {
      let url = try #require(URL(string: text))
      let code = await authErrorCode { _ = try await api.send(HTTPRequest(url: url)) }
      #expect(code == .foreignHost, "\(text)")
    }
    #expect(await fixture.http.received.count == 1)  // the login only
  }

  @Test func theDecoratorRefusesWhenSignedOut() async throws {
    let fixture = AuthFixture()
    _ = try await fixture.client.restore()
    let api = AuthorizedHTTPTransport(wrapping: fixture.http, client: fixture.client)
    let url = try ServerURL(Wire.server).endpoint("/api/servers")
    #expect(await authErrorCode { _ = try await api.send(HTTPRequest(url: url)) } == .notSignedIn)
  }

  // MARK: State stream

  @Test func everySubscriberGetsItsOwnStreamStartingWithTheCurrentState() async throws {
    let fixture = AuthFixture()
    var early = fixture.client.stateChanges().makeAsyncIterator()
    #expect(await early.next() == .restoring)
    _ = try await fixture.client.restore()
    #expect(await early.next() == .signedOut)

    let identity = try await fixture.signIn()
    var late = fixture.client.stateChanges().makeAsyncIterator()
    #expect(await late.next() == .signedIn(identity))
    #expect(await early.next() == .signedIn(identity))

    await fixture.http.expect(.post, "/api/mobile/auth/refresh", reply: .json(401, ""))
    _ = await authErrorCode { try await fixture.client.refresh() }
    #expect(await early.next() == .recoveryRequired(identity))
    #expect(await late.next() == .recoveryRequired(identity))
  }

  @Test func endingASubscriptionUnsubscribes() async throws {
    let fixture = AuthFixture()
    let task = Task {
      for await state in fixture.client.stateChanges() where state == .signedOut { return }
    }
    _ = try await fixture.client.restore()
    await task.value
    #expect(fixture.client.stateSubscriberCount == 0)

    let stream = fixture.client.stateChanges()
    #expect(fixture.client.stateSubscriberCount == 1)
    let consumer = Task { for await _ in stream {} }
    consumer.cancel()
    await consumer.value
    #expect(fixture.client.stateSubscriberCount == 0)
  }

  @Test func restorePublishesTheStoredState() async throws {
    let store = InMemoryCredentialStore()
    let first = AuthFixture(store: store)
    let identity = try await first.signIn()

    let restarted = AuthFixture(store: store)
    #expect(restarted.client.currentState == .restoring)
    #expect(try await restarted.client.restore() == .signedIn(identity))
    #expect(try await restarted.client.validAccessToken() == "access-1")

    await restarted.http.expect(.post, "/api/mobile/auth/refresh", reply: .json(403, ""))
    _ = await authErrorCode { try await restarted.client.refresh() }
    let again = AuthFixture(store: store)
    #expect(try await again.client.restore() == .recoveryRequired(identity))
  }

  @Test func restoreReportsAnUnreadableStore() async throws {
    let store = InMemoryCredentialStore(values: [.appPrivate: ["auth.login": Data("nope".utf8)]])
    let fixture = AuthFixture(store: store)
    #expect(await authErrorCode { _ = try await fixture.client.restore() } == .storageFailed)
    #expect(fixture.client.currentState == .restoring)
  }

  // MARK: v1 server

  @Test func aV1ServerLogsInRefreshesAndLogsOutWithTheBearerRoute() async throws {
    let fixture = AuthFixture()
    let identity = try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    #expect(!identity.serverSupportsRevocation)
    await fixture.http.expect(
      .post, "/api/mobile/auth/refresh",
      reply: .json(
        200, Wire.tokens(access: "access-2", refresh: "r-2", sessionID: nil, revocation: nil)))
    try await fixture.client.refresh()
    #expect(try fixture.storedLogin()?.confirmedDeletionProof == nil)

    await fixture.http.expect(
      .post, "/api/mobile/push/unregister", reply: .json(200, #"{"data":"ok"}"#))
    await fixture.http.expect(
      .post, "/api/mobile/auth/logout", reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
    let logout = try #require(await fixture.http.received.last)
    #expect(logout.headers["authorization"] == "Bearer access-2")
    #expect(logout.body.isEmpty)
    #expect(fixture.client.currentState == .signedOut)
    #expect(await fixture.http.requests(to: "/api/mobile/auth/revoke").isEmpty)
    await fixture.http.verifyAllConsumed()
  }

  @Test func aRejectedV1LoginIsRevokedWithItsRefreshTokenAtLogout() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    await fixture.http.expect(.post, "/api/mobile/push/unregister", reply: .json(401, ""))
    await fixture.http.expect(.post, "/api/mobile/auth/logout", reply: .json(401, ""))
    await fixture.http.expect(.post, "/api/mobile/auth/refresh", reply: .json(401, ""))
    await fixture.http.expect(
      .post, "/api/mobile/auth/revoke", reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await fixture.client.logout() == .completed)
    let revoke = try #require(await fixture.http.received.last)
    #expect(try bodyField(revoke, "revocation_token") == "refresh-1")
    #expect(try !bodyKeys(revoke).contains("expected_session_id"))
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedLogin() == nil)
    await fixture.http.verifyAllConsumed()
  }

  @Test func aV1LogoutThatCannotReachTheServerStillClearsLocally() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    let down = ServerBeeTransportError(.connectionRefused, "down")
    await fixture.http.expect(.post, "/api/mobile/push/unregister", throwing: down)
    await fixture.http.expect(.post, "/api/mobile/auth/logout", throwing: down)
    #expect(try await fixture.client.logout() == .serverNotReached)
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedLogin() == nil)
  }

  @Test func v2OnlyOperationsOnAV1ServerAnswerUnsupportedAndTheLoginCanBeForgotten() async throws {
    let fixture = AuthFixture()
    let identity = try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    #expect(
      await authErrorCode { _ = try await fixture.client.forgetSession() } == .recoveryNotRequired)
    await fixture.http.expect(.post, "/api/mobile/auth/refresh", reply: .json(401, ""))
    _ = await authErrorCode { try await fixture.client.refresh() }
    await fixture.http.expect(.post, "/api/mobile/auth/recover", reply: .json(404, ""))
    let code = await authErrorCode {
      _ = try await fixture.client.recoverSession(
        .password(username: "ada", password: "pw", totpCode: nil))
    }
    #expect(code == .unsupportedByServer)
    #expect(fixture.client.currentState == .serverTooOld(identity))
    #expect(try await fixture.client.forgetSession() == .serverNotReached)
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedLogin() == nil)
  }

  @Test func aServerUpgradedToV2IsAdoptedAtTheNextRefresh() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn(tokens: Wire.tokens(sessionID: nil, revocation: nil))
    await fixture.http.expect(
      .post, "/api/mobile/auth/refresh",
      reply: .json(200, Wire.tokens(access: "a-2", refresh: "r-2", revocation: Wire.proof)))
    let identity = try await fixture.client.refresh()
    #expect(identity.mobileSessionID == Wire.sessionID)
    #expect(try fixture.storedLogin()?.confirmedDeletionProof == Wire.proof)
    #expect(fixture.client.currentState == .signedIn(identity))
  }
}
