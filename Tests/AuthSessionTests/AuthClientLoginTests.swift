import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

@Suite(.timeLimit(.minutes(5))) struct AuthClientLoginTests {
  @Test func loginSendsNormalisedRequestStoresTokensAndSignsIn() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(.post, "/api/mobile/auth/login", reply: .json(200, Wire.tokens()))
    let outcome = try await fixture.client.login(
      server: " HTTPS://Monitor.Example.COM:443/ ", username: "ada", password: "pw")

    let request = try #require(await fixture.http.received.first)
    #expect(request.url.absoluteString == "https://monitor.example.com/api/mobile/auth/login")
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.headers["authorization"] == nil)
    #expect(bodyText(request).hasPrefix(#"{"username":"ada","password":"pw","installation_id":"#))
    #expect(
      try bodyKeys(request) == [
        "username", "password", "installation_id", "device_name", "totp_code",
      ])
    #expect(try bodyField(request, "device_name") == "Test phone")
    let installationID = try #require(try bodyField(request, "installation_id"))
    #expect(
      installationID == installationID.uppercased() && UUID(uuidString: installationID) != nil)

    guard case .signedIn(let identity) = outcome else {
      Issue.record("expected signedIn, got \(outcome)")
      return
    }
    #expect(identity.server.string == "https://monitor.example.com")
    #expect(identity.mobileSessionID == Wire.sessionID)
    #expect(identity.serverSupportsRevocation)
    #expect(fixture.client.currentState == .signedIn(identity))
    let stored = try #require(try fixture.storedLogin())
    #expect(stored.accessToken == "access-1" && stored.refreshToken == "refresh-1")
    #expect(stored.revocationToken == Wire.revocationToken)
    #expect(stored.accessExpiresAt == fixture.clock.currentDate.addingTimeInterval(900))
    #expect(try await fixture.client.validAccessToken() == "access-1")
    await fixture.http.verifyAllConsumed()
  }

  @Test func twoFactorStepIsATypedAnswerAndTheCodeIsSentOnTheSecondStep() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(
      .post, "/api/mobile/auth/login",
      reply: .json(422, Wire.error("VALIDATION_ERROR", "Validation error: 2fa_required")))
    await fixture.http.expect(.post, "/api/mobile/auth/login", reply: .json(200, Wire.tokens()))

    let first = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    #expect(first == .twoFactorRequired)
    #expect(fixture.client.currentState == .signedOut)
    let second = try await fixture.client.login(
      server: Wire.server, username: "ada", password: "pw", totpCode: "123456")
    guard case .signedIn = second else {
      Issue.record("expected signedIn")
      return
    }
    let requests = await fixture.http.received
    #expect(try bodyField(requests[1], "totp_code") == "123456")
    #expect(
      try bodyField(requests[0], "installation_id") == bodyField(requests[1], "installation_id"))
  }

  struct StatusCase: Sendable, CustomTestStringConvertible {
    let status: Int
    let body: String
    let expected: AuthSessionError.Code
    var testDescription: String { "\(status) → \(expected)" }
  }

  static let loginStatuses: [StatusCase] = [
    StatusCase(
      status: 401, body: Wire.error("UNAUTHORIZED", "Unauthorized"), expected: .invalidCredentials),
    StatusCase(
      status: 403,
      body: Wire.error(
        "FORBIDDEN", "Forbidden: MUST_CHANGE_PASSWORD: complete onboarding via the web UI"),
      expected: .mustChangePassword),
    StatusCase(
      status: 429, body: Wire.error("TOO_MANY_REQUESTS", "Too many requests: slow down"),
      expected: .rateLimited),
    StatusCase(
      status: 422, body: Wire.error("VALIDATION_ERROR", "Validation error: Username and password"),
      expected: .invalidRequest),
    StatusCase(status: 404, body: "", expected: .unsupportedByServer),
    StatusCase(
      status: 500, body: Wire.error("INTERNAL_ERROR", "Internal error: x"), expected: .serverError),
    StatusCase(status: 302, body: "", expected: .serverError),
  ]

  @Test(arguments: loginStatuses)
  func loginStatusMapsToATypedError(_ testCase: StatusCase) async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(
      .post, "/api/mobile/auth/login", reply: .json(testCase.status, testCase.body))
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    }
    #expect(code == testCase.expected)
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedLogin() == nil)
  }

  @Test func networkFailureIsTransientAndStoresNothing() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(
      .post, "/api/mobile/auth/login",
      throwing: ServerBeeTransportError(.connectionRefused, "refused"))
    do {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
      Issue.record("expected a failure")
    } catch let error as AuthSessionError {
      #expect(error.code == .networkFailure && error.isTransient)
    }
    #expect(try fixture.storedLogin() == nil)
  }

  @Test func invalidServerURLIsRefusedWithoutARequest() async throws {
    let fixture = AuthFixture()
    for text in ["monitor.example.com", "ftp://x", "https://user:pw@x", "https://x/?q=1", ""] {
      let code = await authErrorCode {
        _ = try await fixture.client.login(server: text, username: "ada", password: "pw")
      }
      #expect(code == .invalidServerURL, "\(text)")
    }
    #expect(await fixture.http.received.isEmpty)
  }

  @Test func installationIDIsCreatedOnceAndKeptInTheStore() async throws {
    let store = InMemoryCredentialStore()
    let first = AuthFixture(store: store)
    try await first.signIn()
    let stored = try #require(
      try store.value(String.self, forKey: .installationID, in: .appPrivate))
    #expect(first.client.currentState.identity?.installationID == stored)

    try store.removeValue(forKey: .login, in: .appPrivate)
    let second = AuthFixture(store: store)
    try await second.signIn()
    #expect(
      try bodyField(try #require(await second.http.received.first), "installation_id") == stored)
  }

  @Test func loginWhileSignedInIsRefused() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: "bob", password: "pw")
    }
    #expect(code == .alreadySignedIn)
    #expect(await fixture.http.received.count == 1)
  }

  @Test func loginWhoseStoreWriteFailsRevokesTheNewServerSessionAndThrows() async throws {
    let fixture = AuthFixture()
    _ = try await fixture.client.restore()
    try fixture.store.setValue("INSTALL-1", forKey: .installationID, in: .appPrivate)
    // The store fails once the request is out (the sign-in attempt was recorded before it).
    let store = fixture.store
    await fixture.http.expect(.post, "/api/mobile/auth/login") { _ in
      store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
      return .json(200, Wire.tokens())
    }
    await fixture.http.expect(
      .post, "/api/mobile/auth/revoke", reply: .json(200, #"{"data":"ok"}"#))
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    }
    #expect(code == .storageFailed)
    #expect(fixture.client.currentState == .signedOut)
    let revoke = try #require(await fixture.http.received.last)
    #expect(try bodyField(revoke, "revocation_token") == Wire.revocationToken)
    #expect(try bodyField(revoke, "expected_session_id") == Wire.sessionID)
    #expect(try await fixture.client.pendingSignInAttempts().count == 1, "a later sweep checks")
    await fixture.http.verifyAllConsumed()
  }

  @Test func malformedTokenAnswerIsRefused() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(
      .post, "/api/mobile/auth/login", reply: .json(200, Wire.tokens(sessionID: "not-a-uuid")))
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    }
    #expect(code == .invalidResponse)
    #expect(fixture.client.currentState == .signedOut)
  }

  // MARK: Pairing

  @Test func pairRedeemsTheScannedCodeOnThePayloadServer() async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(.post, "/api/mobile/auth/pair", reply: .json(200, Wire.tokens()))
    let identity = try await fixture.client.pair(
      scannedPayload: Wire.pairing(server: "https://Monitor.example.com:9527/"),
      expectedServer: "https://monitor.example.com:9527")
    let request = try #require(await fixture.http.received.first)
    #expect(request.url.absoluteString == "https://monitor.example.com:9527/api/mobile/auth/pair")
    #expect(try bodyKeys(request) == ["code", "installation_id", "device_name"])
    #expect(try bodyField(request, "code") == "sb_pair_abc")
    #expect(identity.server.string == "https://monitor.example.com:9527")
    #expect(fixture.client.currentState == .signedIn(identity))
  }

  @Test(arguments: [
    #"{"type":"other_pair","server_url":"https://monitor.example.com","code":"sb_pair_x"}"#,
    #"{"type":"serverbee_pair","server_url":"https://monitor.example.com"}"#,
    "https://monitor.example.com/pair?code=x",
  ])
  func pairRefusesAPayloadOfTheWrongShape(_ scanned: String) async throws {
    let fixture = AuthFixture()
    let code = await authErrorCode { _ = try await fixture.client.pair(scannedPayload: scanned) }
    #expect(code == .invalidPairingPayload)
    #expect(await fixture.http.received.isEmpty)
  }

  @Test func pairRefusesAPayloadForAnotherServer() async throws {
    let fixture = AuthFixture()
    let code = await authErrorCode {
      _ = try await fixture.client.pair(
        scannedPayload: Wire.pairing(server: "https://evil.example.net"),
        expectedServer: Wire.server)
    }
    #expect(code == .pairingPayloadForAnotherServer)
    #expect(await fixture.http.received.isEmpty)
  }

  @Test(arguments: [
    (400, Wire.error("BAD_REQUEST", "Bad request: Invalid pairing code"), "pairing_code_rejected"),
    (404, "", "unsupported_by_server"),
    (422, Wire.error("VALIDATION_ERROR", "Validation error: code required"), "invalid_request"),
  ])
  func pairStatusMapsToATypedError(_ status: Int, _ body: String, _ expected: String) async throws {
    let fixture = AuthFixture()
    await fixture.http.expect(.post, "/api/mobile/auth/pair", reply: .json(status, body))
    let code = await authErrorCode {
      _ = try await fixture.client.pair(scannedPayload: Wire.pairing())
    }
    #expect(code?.rawValue == expected)
  }
}
