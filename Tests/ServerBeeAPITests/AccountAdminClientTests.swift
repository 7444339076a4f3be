import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// Account, administration and alert configuration (Protocol/Account.md,
/// Protocol/Administration.md, Protocol/Alerts.md §6.2–§7): each call's method, path, query and
/// exact body bytes, the decoded answer, and the errors that matter.
@Suite(.timeLimit(.minutes(5))) struct AccountAdminClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  static let ok = try? Samples.reply("ok")

  private func body(_ index: Int = 0) async throws -> String {
    let received = await http.received
    let request = try #require(received.count > index ? received[index] : nil)
    #expect(request.headers["content-type"] == "application/json")
    return String(decoding: request.body, as: UTF8.self)
  }

  private static func failure(_ status: Int, _ json: String?) -> HTTPResponse {
    HTTPResponse(status: status, headers: [:], body: Data((json ?? "").utf8))
  }

  // MARK: Account

  @Test func changePasswordSendsBothPasswordsInWireOrder() async throws {
    await http.expect(.put, "/api/auth/password", reply: try Samples.reply("ok"))
    try await api.changePassword(from: "old-secret", to: "new-secret-1")
    #expect(try await body() == #"{"old_password":"old-secret","new_password":"new-secret-1"}"#)
    await http.verifyAllConsumed()
  }

  @Test func aWrongCurrentPasswordIsABadRequestWithTheServersText() async throws {
    await http.expect(
      .put, "/api/auth/password",
      reply: Self.failure(
        400,
        #"{"error":{"code":"BAD_REQUEST","message":"Bad request: Current password is incorrect"}}"#)
    )
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.changePassword(from: "wrong", to: "new-secret-1")
    }
    #expect(error.code == .badRequest)
    #expect(error.message.hasSuffix("Bad request: Current password is incorrect"))
  }

  @Test func twoFactorSetupDecodesAndNeverPrintsTheSecret() async throws {
    let setup = TwoFactorSetup(
      secret: "JBSWY3DPEHPK3PXP",
      otpauthURL: "otpauth://totp/ServerBee:ada?secret=JBSWY3DPEHPK3PXP&issuer=ServerBee",
      qrCodePNGBase64: "iVBORw0KGgo=")
    await http.expect(.post, "/api/auth/2fa/setup", reply: try Samples.reply(setup))
    let got = try await api.setUpTwoFactor()
    #expect(got == setup)
    #expect(!"\(got)".contains("JBSWY3DPEHPK3PXP"))
    #expect(String(decoding: try WireJSON.encode(setup), as: UTF8.self).hasPrefix(#"{"secret":"#))
  }

  /// Protocol/AppRoutes.md §2.1: a wrong code is a JSON 401 from the handler.
  @Test func aWrongTwoFactorCodeIsRefusedNotUnauthorized() async throws {
    await http.expect(
      .post, "/api/auth/2fa/enable",
      reply: Self.failure(401, #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.enableTwoFactor(code: "000000")
    }
    #expect(error.code == .refused)
    #expect(try await body() == #"{"code":"000000"}"#)
  }

  @Test func anEmptyBody401IsStillUnauthorized() async throws {
    await http.expect(.get, "/api/auth/2fa/status", reply: Self.failure(401, nil))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.twoFactorStatus()
    }
    #expect(error.code == .unauthorized)
  }

  @Test func disablingTwoFactorSendsThePassword() async throws {
    await http.expect(.post, "/api/auth/2fa/disable", reply: try Samples.reply("ok"))
    try await api.disableTwoFactor(password: "pw-12345678")
    #expect(try await body() == #"{"password":"pw-12345678"}"#)
  }

  @Test func apiKeysListCreateAndDelete() async throws {
    let listed = APIKeyRecord(
      id: "k1", name: "grafana", keyPrefix: "AbCdEfGh", createdAt: Samples.offsetTime)
    var created = listed
    created.key = "serverbee_" + String(repeating: "A", count: 43)
    await http.expect(.get, "/api/auth/api-keys", reply: try Samples.reply([listed]))
    await http.expect(.post, "/api/auth/api-keys", reply: try Samples.reply(created))
    await http.expect(.delete, "/api/auth/api-keys/k1", reply: try Samples.reply("ok"))
    #expect(try await api.apiKeys() == [listed])
    let made = try await api.createAPIKey(name: "grafana")
    #expect(made.key == created.key)
    #expect(!"\(made)".contains(String(repeating: "A", count: 43)))
    try await api.deleteAPIKey(id: "k1")
    #expect(try await body(1) == #"{"name":"grafana"}"#)
    // The list row carries `"key":null`, as the server writes it.
    #expect(
      String(decoding: try WireJSON.encode(listed), as: UTF8.self)
        == #"{"id":"k1","name":"grafana","key_prefix":"AbCdEfGh","created_at":"2027-01-15T08:00:00+00:00","key":null}"#
    )
    await http.verifyAllConsumed()
  }

  @Test func aCreatedKeyWithoutItsPlaintextIsADecodingError() async throws {
    let row = APIKeyRecord(
      id: "k1", name: "x", keyPrefix: "AbCdEfGh", createdAt: Samples.offsetTime)
    await http.expect(.post, "/api/auth/api-keys", reply: try Samples.reply(row))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.createAPIKey(name: "x")
    }
    #expect(error.code == .decoding)
  }

  @Test func legacyPushRegistrationSendsTheHexToken() async throws {
    await http.expect(.post, "/api/mobile/push/register", reply: try Samples.reply("ok"))
    try await api.registerLegacyPush(deviceToken: "ab01")
    #expect(try await body() == #"{"device_token":"ab01"}"#)
  }

  // MARK: API key credential

  @Test func anAPIKeyClientSendsTheHeaderAndNoBearer() async throws {
    let stub = StubHTTPTransport()
    let server = try ServerURL("https://bee.example:9527")
    let key = try APIKey("serverbee_" + String(repeating: "b", count: 43))
    let client = ServerBeeAPIClient(server: server, apiKey: key, transport: stub)
    await stub.expect(.get, "/api/users", reply: try Samples.reply([AdminUser]()))
    _ = try await client.users()
    let request = try #require(await stub.received.first)
    #expect(request.headers["x-api-key"] == key.text)
    #expect(request.headers["authorization"] == nil)
    #expect("\(key)" == "APIKey(serverbee_bbbb…)")
  }

  /// The middleware's 401 to a key-signed request says the key was refused (nothing can
  /// refresh a key); a handler's JSON 401 stays `.refused`.
  @Test func aRefusedAPIKeySaysSo() async throws {
    let stub = StubHTTPTransport()
    let key = try APIKey("serverbee_" + String(repeating: "c", count: 43))
    let client = ServerBeeAPIClient(
      server: try ServerURL("https://bee.example"), apiKey: key, transport: stub)
    await stub.expect(.get, "/api/users", reply: .json(401, ""))
    let error = try await #require(throws: ServerBeeAPIError.self) { try await client.users() }
    #expect(error.code == .apiKeyRejected)
    #expect(error.message == "GET /api/users: the server refused the API key")
    #expect(!error.description.contains(key.text))
  }

  @Test func anAPIKeyIsNeverSentToAnotherOrigin() async throws {
    let stub = StubHTTPTransport()
    let transport = APIKeyHTTPTransport(
      wrapping: stub, apiKey: try APIKey("serverbee_x"),
      server: try ServerURL("https://bee.example"))
    await #expect(throws: ServerBeeAPIError.self) {
      _ = try await transport.send(HTTPRequest(url: URL(string: "https://evil.example/api/users")!))
    }
    #expect(await stub.received.isEmpty)
  }

  @Test(arguments: ["", "serverbee_ with space", "line\nbreak", String(repeating: "k", count: 513)])
  func aKeyThatCannotTravelInAHeaderIsRefused(_ text: String) {
    #expect(throws: ServerBeeAPIError.self) { try APIKey(text) }
  }

  // MARK: Administration

  @Test func usersAreCreatedUpdatedAndDeleted() async throws {
    let bob = AdminUser(
      id: "u2", username: "bob", role: .member, hasTwoFactor: false, createdAt: Samples.time,
      updatedAt: Samples.time)
    await http.expect(.get, "/api/users", reply: try Samples.reply([bob]))
    await http.expect(.post, "/api/users", reply: try Samples.reply(bob))
    await http.expect(.put, "/api/users/u2", reply: try Samples.reply(bob))
    await http.expect(.delete, "/api/users/u2", reply: try Samples.reply("ok"))
    #expect(try await api.users() == [bob])
    _ = try await api.createUser(username: "bob", password: "pw-12345678")
    _ = try await api.updateUser(id: "u2", role: .admin)
    try await api.deleteUser(id: "u2")
    #expect(try await body(1) == #"{"username":"bob","password":"pw-12345678"}"#)
    #expect(try await body(2) == #"{"role":"admin"}"#)
    #expect(
      String(decoding: try WireJSON.encode(bob), as: UTF8.self)
        == #"{"id":"u2","username":"bob","role":"member","has_2fa":false,"created_at":"2027-01-15T08:00:00Z","updated_at":"2027-01-15T08:00:00Z"}"#
    )
    await http.verifyAllConsumed()
  }

  @Test func anUpdateWithNothingToChangeIsRefusedBeforeSending() async throws {
    let error = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await api.updateUser(id: "u2")
    }
    #expect(error.code == .invalidArgument)
    #expect(await http.received.isEmpty)
  }

  @Test func theAuditLogSendsItsFiltersAsQuery() async throws {
    let page = AuditLogPage(
      entries: [
        AuditLogEntry(
          id: 9, userID: "u1", action: "user.create", detail: nil, ip: "127.0.0.1",
          createdAt: Samples.offsetTime)
      ], total: 1)
    await http.expect(.get, "/api/audit-logs", reply: try Samples.reply(page))
    #expect(try await api.auditLog(limit: 20, offset: 40, action: "user.create") == page)
    #expect(
      try await sut.onlyURL()
        == Samples.base + "/api/audit-logs?limit=20&offset=40&action=user.create")
  }

  @Test func rateLimitResetSendsAnEmptyObjectForEverything() async throws {
    await http.expect(
      .post, "/api/admin/rate-limit/reset",
      reply: try Samples.reply(RateLimitResetResult(cleared: 3)))
    #expect(try await api.resetRateLimits() == 3)
    #expect(try await body() == "{}")
  }

  @Test func aGeoDatabaseThatIsNotInstalledLeavesItsDetailsOut() throws {
    #expect(
      String(decoding: try WireJSON.encode(GeoDatabaseStatus(installed: false)), as: UTF8.self)
        == #"{"installed":false}"#)
  }

  // MARK: Alert configuration

  @Test func togglingARuleAndAChannelSendsOnlyEnabled() async throws {
    let channel = NotificationChannel(
      id: "c1", name: "ops", notifyType: "matrix", configJSON: #"{"token":"very-secret"}"#,
      enabled: true, createdAt: Samples.time)
    await http.expect(.put, "/api/alert-rules/rule-1", reply: try Samples.reply(Samples.rule))
    await http.expect(.get, "/api/notifications", reply: try Samples.reply([channel]))
    await http.expect(.put, "/api/notifications/c1", reply: try Samples.reply(channel))
    await http.expect(.post, "/api/notifications/c1/test", reply: try Samples.reply("ok"))
    _ = try await api.setAlertRule(id: "rule-1", enabled: false)
    let channels = try await api.notificationChannels()
    #expect(channels.first?.notifyType.rawValue == "matrix")  // an unknown type decodes
    #expect(!"\(channels)".contains("very-secret"))
    _ = try await api.setNotificationChannel(id: "c1", enabled: true)
    try await api.testNotificationChannel(id: "c1")
    #expect(try await body(0) == #"{"enabled":false}"#)
    #expect(try await body(2) == #"{"enabled":true}"#)
    await http.verifyAllConsumed()
  }

  @Test func aFailedChannelTestCarriesTheDeliveryError() async throws {
    await http.expect(
      .post, "/api/notifications/c1/test",
      reply: Self.failure(
        502,
        #"{"error":{"code":"BAD_GATEWAY","message":"Webhook request failed: connection refused"}}"#)
    )
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.testNotificationChannel(id: "c1")
    }
    #expect(error.code == .server)
    #expect(error.message.hasSuffix("Webhook request failed: connection refused"))
  }
}
