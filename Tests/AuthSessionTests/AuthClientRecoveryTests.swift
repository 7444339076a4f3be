import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

@Suite(.timeLimit(.minutes(5))) struct AuthClientRecoveryTests {
  static let recoverPath = "/api/mobile/auth/recover"
  static let candidateA = "c0000000-0000-4000-8000-00000000000a"
  static let candidateB = "c0000000-0000-4000-8000-00000000000b"

  /// Signs in (v2, or a v1-era login without a session id) and has the refresh rejected.
  static func rejectedLogin(knownSession: Bool = true) async throws -> AuthFixture {
    let fixture = AuthFixture()
    try await fixture.signIn(
      tokens: knownSession ? Wire.tokens() : Wire.tokens(sessionID: nil, revocation: nil))
    await fixture.http.expect(.post, "/api/mobile/auth/refresh", reply: .json(401, ""))
    _ = await authErrorCode { try await fixture.client.refresh() }
    return fixture
  }

  static func answer(
    _ outcome: String, sessionID: String?, candidates: [String] = [], grant: String? = nil,
    userID: String = Wire.userID, installationID: String? = nil, fixture: AuthFixture
  ) throws -> HTTPResponse {
    let installation =
      try installationID
      ?? fixture.store.value(String.self, forKey: .installationID, in: .appPrivate) ?? ""
    let list = candidates.map {
      #"{"mobile_session_id":"\#($0)","device_name":"Phone","created_at":"2026-10-05T08:00:00.123456789+00:00","last_used_at":"2026-10-05T08:10:00+00:00"}"#
    }
    var text =
      #"{"data":{"outcome":"\#(outcome)","user_id":"\#(userID)","installation_id":"\#(installation)","mobile_session_id":"#
      + (sessionID.map { #""\#($0)""# } ?? "null")
      + #","candidates":[\#(list.joined(separator: ","))]"#
    if let grant { text += #","recovery_token":"\#(grant)""# }
    return .json(200, text + "}}")
  }

  @Test func passwordRecoveryDeletesTheKnownSessionAndSignsOut() async throws {
    let fixture = try await Self.rejectedLogin()
    await fixture.http.expect(
      .post, Self.recoverPath,
      reply: try Self.answer("ok", sessionID: Wire.sessionID, fixture: fixture))
    let result = try await fixture.client.recoverSession(
      .password(username: "ada", password: "pw", totpCode: "123456"))
    #expect(result == .completed(.ok))
    let request = try #require(await fixture.http.received.last)
    #expect(try bodyField(request, "username") == "ada")
    #expect(try bodyField(request, "totp_code") == "123456")
    #expect(try bodyField(request, "expected_user_id") == Wire.userID)
    #expect(try bodyField(request, "expected_session_id") == Wire.sessionID)
    #expect(try bodyField(request, "access_token") == "access-1")
    #expect(try bodyField(request, "refresh_token") == "refresh-1")
    #expect(try bodyField(request, "revocation_token") == Wire.revocationToken)
    #expect(try !bodyKeys(request).contains("pairing_code"))
    // Recovery never creates a login.
    #expect(fixture.client.currentState == .signedOut)
    #expect(try fixture.storedLogin() == nil)
  }

  @Test func qrRecoveryOffersCandidatesAndTheChoiceIsPersistedBeforeTheGrantIsUsed() async throws {
    let fixture = try await Self.rejectedLogin(knownSession: false)
    await fixture.http.expect(
      .post, Self.recoverPath,
      reply: try Self.answer(
        "selection_required", sessionID: nil, candidates: [Self.candidateA, Self.candidateB],
        grant: "sb_recover_grant", fixture: fixture))
    let first = try await fixture.client.recoverSession(
      .pairingQRCode(Wire.pairing(server: "https://MONITOR.example.com/", code: "sb_pair_rec")))
    guard case .selectionRequired(let candidates) = first else {
      Issue.record("expected a selection, got \(first)")
      return
    }
    #expect(candidates.map(\.mobileSessionID) == [Self.candidateA, Self.candidateB])
    let qrRequest = try #require(await fixture.http.received.last)
    #expect(try bodyField(qrRequest, "pairing_code") == "sb_pair_rec")
    #expect(try !bodyKeys(qrRequest).contains("expected_session_id"))
    #expect(try !bodyKeys(qrRequest).contains("username"))
    #expect(fixture.client.currentState.identity != nil)

    let store = fixture.store
    await fixture.http.expect(.post, Self.recoverPath) { request in
      let stored = try store.value(LoginRecord.self, forKey: .login, in: .appPrivate)
      #expect(stored?.recoveryTargetID == Self.candidateB)
      #expect(try bodyField(request, "recovery_token") == "sb_recover_grant")
      #expect(try bodyField(request, "expected_session_id") == Self.candidateB)
      return try Self.answer("ok", sessionID: Self.candidateB, fixture: fixture)
    }
    let second = try await fixture.client.recoverSession(selecting: Self.candidateB)
    #expect(second == .completed(.ok))
    #expect(fixture.client.currentState == .signedOut)
    await fixture.http.verifyAllConsumed()
  }

  @Test func aChosenCandidateIsKeptForRetriesAndCannotChange() async throws {
    let fixture = try await Self.rejectedLogin(knownSession: false)
    let credential = RecoveryCredential.password(username: "ada", password: "pw", totpCode: nil)
    await fixture.http.expect(
      .post, Self.recoverPath,
      reply: try Self.answer(
        "selection_required", sessionID: nil, candidates: [Self.candidateA], fixture: fixture))
    _ = try await fixture.client.recoverSession(credential)
    #expect(
      await authErrorCode {
        _ = try await fixture.client.recoverSession(selecting: Self.candidateB, with: credential)
      } == .invalidRecoveryCandidate)
    await fixture.http.expect(
      .post, Self.recoverPath, throwing: ServerBeeTransportError(.connectionLost, "lost"))
    _ = await authErrorCode {
      _ = try await fixture.client.recoverSession(selecting: Self.candidateA, with: credential)
    }
    // The lost answer is retried with exactly the same target, even by a plain retry.
    await fixture.http.expect(
      .post, Self.recoverPath,
      reply: try Self.answer("already_absent", sessionID: Self.candidateA, fixture: fixture))
    #expect(try await fixture.client.recoverSession(credential) == .completed(.alreadyAbsent))
    let requests = await fixture.http.requests(to: Self.recoverPath)
    #expect(try bodyField(requests[1], "expected_session_id") == Self.candidateA)
    #expect(try bodyField(requests[2], "expected_session_id") == Self.candidateA)
    #expect(
      await authErrorCode {
        _ = try await fixture.client.recoverSession(selecting: Self.candidateA)
      } == .recoveryNotRequired)
  }

  @Test func grantModeWithoutAGrantIsATypedError() async throws {
    let fixture = try await Self.rejectedLogin(knownSession: false)
    await fixture.http.expect(
      .post, Self.recoverPath,
      reply: try Self.answer(
        "selection_required", sessionID: nil, candidates: [Self.candidateA], fixture: fixture))
    _ = try await fixture.client.recoverSession(
      .password(username: "ada", password: "pw", totpCode: nil))
    let code = await authErrorCode {
      _ = try await fixture.client.recoverSession(selecting: Self.candidateA)
    }
    #expect(code == .recoveryGrantMissing)
  }

  @Test func aQRCodeForAnotherServerIsRefused() async throws {
    let fixture = try await Self.rejectedLogin()
    let code = await authErrorCode {
      _ = try await fixture.client.recoverSession(
        .pairingQRCode(Wire.pairing(server: "https://monitor.example.com:8443")))
    }
    #expect(code == .pairingPayloadForAnotherServer)
    #expect(await fixture.http.requests(to: Self.recoverPath).isEmpty)
  }

  struct StatusCase: Sendable, CustomTestStringConvertible {
    let status: Int
    let body: String
    let qrMode: Bool
    let expected: AuthSessionError.Code
    var testDescription: String { "\(status)\(qrMode ? " (QR)" : "") → \(expected)" }
  }

  static let statuses: [StatusCase] = [
    StatusCase(
      status: 400, body: Wire.error("BAD_REQUEST", "Bad request: x"), qrMode: true,
      expected: .recoveryCodeRejected),
    StatusCase(
      status: 401, body: Wire.error("UNAUTHORIZED", "Unauthorized"), qrMode: false,
      expected: .invalidCredentials),
    StatusCase(
      status: 401, body: Wire.error("UNAUTHORIZED", "Unauthorized"), qrMode: true,
      expected: .recoveryCodeRejected),
    StatusCase(
      status: 403, body: Wire.error("FORBIDDEN", "Forbidden: MUST_CHANGE_PASSWORD: x"),
      qrMode: false, expected: .mustChangePassword),
    StatusCase(status: 404, body: "", qrMode: false, expected: .unsupportedByServer),
    StatusCase(
      status: 409,
      body: Wire.error(
        "CONFLICT",
        "Conflict: The original mobile session cannot be safely identified or confirmed absent"),
      qrMode: false, expected: .unresolvedIdentity),
    StatusCase(
      status: 422, body: Wire.error("VALIDATION_ERROR", "Validation error: 2fa_required"),
      qrMode: false, expected: .twoFactorRequired),
    StatusCase(
      status: 422,
      body: Wire.error("VALIDATION_ERROR", "Validation error: Exactly one authentication mode"),
      qrMode: false, expected: .invalidRequest),
    StatusCase(
      status: 429, body: Wire.error("TOO_MANY_REQUESTS", "Too many requests: x"), qrMode: true,
      expected: .rateLimited),
    StatusCase(status: 500, body: "", qrMode: false, expected: .serverError),
  ]

  @Test(arguments: statuses)
  func recoveryStatusMapsToATypedErrorAndKeepsTheRecord(_ testCase: StatusCase) async throws {
    let fixture = try await Self.rejectedLogin()
    await fixture.http.expect(
      .post, Self.recoverPath, reply: .json(testCase.status, testCase.body))
    let credential: RecoveryCredential =
      testCase.qrMode
      ? .pairingQRCode(Wire.pairing()) : .password(username: "ada", password: "pw", totpCode: nil)
    let code = await authErrorCode { _ = try await fixture.client.recoverSession(credential) }
    #expect(code == testCase.expected)
    #expect(try fixture.storedLogin()?.status == .recoveryRequired)
    let identity = try #require(fixture.client.currentState.identity)
    if testCase.status == 404 {
      #expect(fixture.client.currentState == .serverTooOld(identity))
    } else {
      #expect(fixture.client.currentState == .recoveryRequired(identity))
    }
  }

  struct InvalidAnswer: Sendable, CustomTestStringConvertible {
    let name: String
    let knownSession: Bool
    let make: @Sendable (AuthFixture) throws -> HTTPResponse
    var testDescription: String { name }
  }

  static let invalidAnswers: [InvalidAnswer] = [
    InvalidAnswer(name: "another user", knownSession: true) {
      try answer("ok", sessionID: Wire.sessionID, userID: Wire.otherUserID, fixture: $0)
    },
    InvalidAnswer(name: "another installation", knownSession: true) {
      try answer("ok", sessionID: Wire.sessionID, installationID: "OTHER", fixture: $0)
    },
    InvalidAnswer(name: "selection for a known session", knownSession: true) {
      try answer("selection_required", sessionID: nil, candidates: [candidateA], fixture: $0)
    },
    InvalidAnswer(name: "ok for another session", knownSession: true) {
      try answer("ok", sessionID: Wire.otherSessionID, fixture: $0)
    },
    InvalidAnswer(name: "ok without id", knownSession: false) {
      try answer("ok", sessionID: nil, fixture: $0)
    },
    InvalidAnswer(name: "ok with a non-UUID id", knownSession: false) {
      try answer("ok", sessionID: "abc", fixture: $0)
    },
    InvalidAnswer(name: "already_absent naming an unknown id", knownSession: false) {
      try answer("already_absent", sessionID: candidateA, fixture: $0)
    },
    InvalidAnswer(name: "empty selection", knownSession: false) {
      try answer("selection_required", sessionID: nil, candidates: [], fixture: $0)
    },
    InvalidAnswer(name: "duplicate candidates", knownSession: false) {
      try answer(
        "selection_required", sessionID: nil, candidates: [candidateA, candidateA], fixture: $0)
    },
    InvalidAnswer(name: "selection naming a session", knownSession: false) {
      try answer("selection_required", sessionID: candidateA, candidates: [candidateA], fixture: $0)
    },
    InvalidAnswer(name: "candidates with ok", knownSession: true) {
      try answer("ok", sessionID: Wire.sessionID, candidates: [candidateA], fixture: $0)
    },
    InvalidAnswer(name: "65 candidates", knownSession: false) { fixture in
      let ids = (0..<65).map { String(format: "c0000000-0000-4000-8000-%012d", $0) }
      return try answer("selection_required", sessionID: nil, candidates: ids, fixture: fixture)
    },
    InvalidAnswer(name: "unknown outcome", knownSession: true) {
      try answer("maybe", sessionID: Wire.sessionID, fixture: $0)
    },
  ]

  @Test(arguments: invalidAnswers)
  func answersBreakingTheValidationRulesAreRefused(_ testCase: InvalidAnswer) async throws {
    let fixture = try await Self.rejectedLogin(knownSession: testCase.knownSession)
    await fixture.http.expect(.post, Self.recoverPath, reply: try testCase.make(fixture))
    let code = await authErrorCode {
      _ = try await fixture.client.recoverSession(
        .password(username: "ada", password: "pw", totpCode: nil))
    }
    #expect(code == .invalidResponse)
    #expect(try fixture.storedLogin()?.status == .recoveryRequired)
  }

  @Test func alreadyAbsentWithoutAnyIdCompletesForAnUnknownSession() async throws {
    let fixture = try await Self.rejectedLogin(knownSession: false)
    await fixture.http.expect(
      .post, Self.recoverPath,
      reply: try Self.answer("already_absent", sessionID: nil, fixture: fixture))
    let result = try await fixture.client.recoverSession(
      .password(username: "ada", password: "pw", totpCode: nil))
    #expect(result == .completed(.alreadyAbsent))
    #expect(fixture.client.currentState == .signedOut)
  }

  @Test func recoveryIsRefusedForAHealthySession() async throws {
    let fixture = AuthFixture()
    try await fixture.signIn()
    let code = await authErrorCode {
      _ = try await fixture.client.recoverSession(
        .password(username: "ada", password: "pw", totpCode: nil))
    }
    #expect(code == .recoveryNotRequired)
  }

  @Test func aLoginIsRefusedWhileRecoveryIsPending() async throws {
    let fixture = try await Self.rejectedLogin()
    let code = await authErrorCode {
      _ = try await fixture.client.login(server: Wire.server, username: "ada", password: "pw")
    }
    #expect(code == .recoveryRequired)
  }
}
