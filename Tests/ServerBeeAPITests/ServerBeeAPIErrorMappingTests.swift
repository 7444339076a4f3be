import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// Every failure is wrapped once into ServerBeeAPIError with the status, a readable message and
/// the cause; CancellationError passes through.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeAPIErrorMappingTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var status: Int
    var body: String
    var code: ServerBeeAPIError.Code
    var message: String
    var testDescription: String { "\(status) \(body.isEmpty ? "empty" : body.prefix(30))" }
  }

  static let cases: [Case] = [
    Case(
      status: 401, body: "", code: .unauthorized,
      message: "GET /api/tasks: the server rejected the credentials"),
    // A handler's 401 carries the envelope: a refused value, not a rejected session
    // (Protocol/AppRoutes.md §2.1).
    Case(
      status: 401, body: #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#,
      code: .refused, message: "GET /api/tasks: Unauthorized"),
    Case(
      status: 403, body: "", code: .forbidden,
      message: "GET /api/tasks: this account may not do this"),
    Case(
      status: 403,
      body:
        #"{"error":{"code":"FORBIDDEN","message":"Forbidden: Cannot revoke another user's device"}}"#,
      code: .forbidden, message: "GET /api/tasks: Forbidden: Cannot revoke another user's device"),
    Case(
      status: 403,
      body:
        #"{"error":{"code":"MUST_CHANGE_PASSWORD","message":"Password change required before continuing"}}"#,
      code: .mustChangePassword,
      message: "GET /api/tasks: Password change required before continuing"),
    Case(
      status: 404,
      body: #"{"error":{"code":"NOT_FOUND","message":"Not found: Task t1 not found"}}"#,
      code: .notFound, message: "GET /api/tasks: Not found: Task t1 not found"),
    Case(
      status: 404, body: "", code: .serverTooOld,
      message: "GET /api/tasks: the server has no such route (it may be too old)"),
    Case(
      status: 400, body: "Failed to deserialize query string: type: invalid", code: .badRequest,
      message: "GET /api/tasks: Failed to deserialize query string: type: invalid"),
    Case(
      status: 409,
      body: #"{"error":{"code":"CONFLICT","message":"Conflict: Task is currently running"}}"#,
      code: .conflict, message: "GET /api/tasks: Conflict: Task is currently running"),
    Case(
      status: 422,
      body: #"{"error":{"code":"VALIDATION_ERROR","message":"Validation error: bad"}}"#,
      code: .validation, message: "GET /api/tasks: Validation error: bad"),
    Case(
      status: 422, body: "Failed to deserialize the JSON body: missing field `command`",
      code: .validation,
      message: "GET /api/tasks: Failed to deserialize the JSON body: missing field `command`"),
    Case(
      status: 415, body: "Expected request with `Content-Type: application/json`",
      code: .validation,
      message: "GET /api/tasks: Expected request with `Content-Type: application/json`"),
    Case(
      status: 429,
      body: #"{"error":{"code":"TOO_MANY_REQUESTS","message":"Too many requests: slow down"}}"#,
      code: .rateLimited, message: "GET /api/tasks: Too many requests: slow down"),
    Case(
      status: 500,
      body: #"{"error":{"code":"INTERNAL_ERROR","message":"Internal error: Database error"}}"#,
      code: .server, message: "GET /api/tasks: Internal error: Database error"),
    Case(status: 502, body: "bad gateway", code: .server, message: "GET /api/tasks: bad gateway"),
    Case(
      status: 302, body: "", code: .unexpectedStatus, message: "GET /api/tasks: unexpected answer"),
    Case(
      status: 405, body: "", code: .unexpectedStatus, message: "GET /api/tasks: unexpected answer"),
  ]

  @Test(arguments: cases)
  func statusBecomesTheCode(_ item: Case) async throws {
    let sut = try SUT()
    await sut.http.expect(.get, "/api/tasks", reply: .json(item.status, item.body))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await sut.api.tasks()
    }
    #expect(error.code == item.code)
    #expect(error.httpStatus == item.status)
    #expect(error.message == item.message)
    let failure = try #require(error.apiFailure)
    #expect(failure.status == item.status)
    #expect(error.description.hasPrefix("ServerBeeAPI.\(item.code.rawValue): "))
  }

  @Test func plainTextBodiesAreKeptAsTextInTheUnderlyingFailure() async throws {
    let sut = try SUT()
    await sut.http.expect(
      .get, "/api/security/events", reply: .json(400, "Bad request: invalid cursor"))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await sut.api.securityEventPage(cursor: "garbage")
    }
    #expect(error.code == .badRequest)
    #expect(error.apiFailure?.body == .text("Bad request: invalid cursor"))
    #expect(!error.message.contains("garbage"))  // the query is never repeated
  }

  @Test func longBodiesAreCutInTheMessage() async throws {
    let sut = try SUT()
    await sut.http.expect(
      .get, "/api/servers", reply: .json(500, String(repeating: "x", count: 900)))
    let error = try await #require(throws: ServerBeeAPIError.self) { try await sut.api.servers() }
    #expect(error.message.count <= "GET /api/servers: ".count + 200)
  }

  @Test func aV1KeyRefusedWith400MeansTheServerIsTooOld() async throws {
    let sut = try SUT()
    let body =
      #"{"error":{"code":"BAD_REQUEST","message":"Bad request: alert_key must be in the format rule_id:server_id"}}"#
    await sut.http.expect(.get, "/api/alert-events/\(Samples.v1Key)", reply: .json(400, body))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await sut.api.alertEvent(key: Samples.v1Key)
    }
    #expect(error.code == .serverTooOld)
    #expect(error.httpStatus == 400)
  }

  @Test func aLegacyKeyRefusedWith400IsABadRequest() async throws {
    let sut = try SUT()
    await sut.http.expect(
      .get, "/api/alert-events/nocolon",
      reply: .json(
        400,
        #"{"error":{"code":"BAD_REQUEST","message":"Bad request: alert_key must be in the format rule_id:server_id"}}"#
      ))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await sut.api.alertEvent(key: "nocolon")
    }
    #expect(error.code == .badRequest)
  }

  @Test func transportErrorsAreWrappedWithTheirReason() async throws {
    let sut = try SUT()
    let cause = ServerBeeTransportError(.connectionRefused, "the server refused the connection")
    await sut.http.expect(.get, "/api/servers", throwing: cause)
    let error = try await #require(throws: ServerBeeAPIError.self) { try await sut.api.servers() }
    #expect(error.code == .transport)
    #expect(error.httpStatus == nil)
    #expect(
      error.message
        == "GET /api/servers: the server could not be reached: the server refused the connection")
    #expect((error.underlying as? ServerBeeTransportError)?.code == .connectionRefused)
    #expect(error.isTransient)
  }

  /// A decorator's own error is kept as the cause, and its text never reaches the message.
  struct DecoratorRefusal: Error, CustomStringConvertible {
    var description: String { "Bearer sb_secret_token" }
  }

  @Test func otherTransportErrorsAreWrappedWithoutTheirText() async throws {
    let sut = try SUT()
    await sut.http.expect(.get, "/api/auth/me", throwing: DecoratorRefusal())
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await sut.api.currentUser()
    }
    #expect(error.code == .transport)
    #expect(error.underlying is DecoratorRefusal)
    #expect(error.message == "GET /api/auth/me: the request was not sent")
    #expect(!error.description.contains("sb_secret_token"))
    #expect(!error.isTransient)
  }

  @Test func undecodableBodiesAreDecodingErrors() async throws {
    let sut = try SUT()
    await sut.http.expect(.get, "/api/servers", reply: .json(200, #"{"data":[{"id":"s1"}]}"#))
    let error = try await #require(throws: ServerBeeAPIError.self) { try await sut.api.servers() }
    #expect(error.code == .decoding)
    #expect(error.httpStatus == 200)
    #expect((error.underlying as? ServerBeeModelsError)?.code == .missingField)
    #expect(error.message.hasPrefix("GET /api/servers: the answer could not be read: "))
  }

  @Test func nonJSONSuccessIsADecodingError() async throws {
    let sut = try SUT()
    await sut.http.expect(.get, "/api/auth/me", reply: .json(200, "<html>proxy</html>"))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await sut.api.currentUser()
    }
    #expect(error.code == .decoding)
  }

  @Test func cancellationPassesThroughUntouched() async throws {
    let sut = try SUT()
    await sut.http.expect(.get, "/api/servers", throwing: CancellationError())
    await #expect(throws: CancellationError.self) { try await sut.api.servers() }
  }

  @Test func cancellationWhileTheRequestIsInFlightPassesThrough() async throws {
    let sut = try SUT()
    let gate = Gate()
    await sut.http.expect(.get, "/api/servers") { _ in
      await gate.wait()
      try Task.checkCancellation()
      return .json(200, #"{"data":[]}"#)
    }
    let api = sut.api
    let call = Task { try await api.servers() }
    await gate.waitForArrivals(1)
    call.cancel()
    await gate.open()
    await #expect(throws: CancellationError.self) { try await call.value }
  }
}
