import Foundation
import Testing

@testable import ServerBeeModels

@Suite struct APIFailureTests {
  private func failure(_ status: Int, _ body: String) -> APIFailure {
    APIFailure(status: status, body: Data(body.utf8))
  }

  @Test(arguments: [
    (401, "", APIFailure.Kind.unauthorized),
    // The envelope on a 401 is a handler refusing a value, not the middleware.
    (401, #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#, .refused),
    (403, "", .notPermitted),
    (
      403,
      #"{"error":{"code":"FORBIDDEN","message":"Forbidden: Cannot revoke another user's device"}}"#,
      .notPermitted
    ),
    (
      403,
      #"{"error":{"code":"MUST_CHANGE_PASSWORD","message":"Password change required before continuing"}}"#,
      .mustChangePassword
    ),
    (
      403,
      #"{"error":{"code":"FORBIDDEN","message":"Forbidden: MUST_CHANGE_PASSWORD: complete onboarding via the web UI before using mobile"}}"#,
      .mustChangePassword
    ),
    (
      422, #"{"error":{"code":"VALIDATION_ERROR","message":"Validation error: 2fa_required"}}"#,
      .twoFactorRequired
    ),
    (
      422,
      #"{"error":{"code":"VALIDATION_ERROR","message":"Validation error: Username and password are required"}}"#,
      .invalidRequest
    ),
    (
      422, "Failed to deserialize the JSON body into the target type: missing field `code`",
      .invalidRequest
    ),
    (415, "Expected request with `Content-Type: application/json`", .invalidRequest),
    (404, "", .routeNotFound),
    (404, #"{"error":{"code":"NOT_FOUND","message":"Not found: Server not found"}}"#, .notFound),
    (
      400, #"{"error":{"code":"BAD_REQUEST","message":"Bad request: Invalid pairing code"}}"#,
      .badRequest
    ),
    (
      409,
      #"{"error":{"code":"CONFLICT","message":"Conflict: Notification settings changed; reload before saving"}}"#,
      .conflict
    ),
    (
      429,
      #"{"error":{"code":"TOO_MANY_REQUESTS","message":"Too many requests: Too many login attempts. Please try again later."}}"#,
      .rateLimited
    ),
    (
      500, #"{"error":{"code":"INTERNAL_ERROR","message":"Internal error: Database error"}}"#,
      .serverError
    ),
    (502, "<html>bad gateway</html>", .serverError),
    (302, "", .other),
  ])
  func classifiesEveryBodyForm(status: Int, body: String, kind: APIFailure.Kind) {
    #expect(failure(status, body).kind == kind)
  }

  @Test func keepsTheEnvelopeCodeAndMessage() {
    let f = failure(404, #"{"error":{"code":"NOT_FOUND","message":"Not found: Server not found"}}"#)
    #expect(f.code == .notFound)
    #expect(f.message == "Not found: Server not found")
    #expect(f.description == "HTTP 404 NOT_FOUND: Not found: Server not found")
  }

  @Test func tellsAnEmptyBodyFromPlainText() {
    #expect(failure(403, "").body == .empty)
    #expect(failure(400, "Invalid query").body == .text("Invalid query"))
    #expect(failure(400, "Invalid query").code == nil)
  }

  @Test func payloadReturnsDataOn200AndThrowsTheFailureOtherwise() throws {
    let ok = try APIResponse<String>.payload(status: 200, body: Data(#"{"data":"ok"}"#.utf8))
    #expect(ok == "ok")
    #expect(throws: APIFailure.self) {
      try APIResponse<String>.payload(status: 401, body: Data())
    }
  }

  @Test func errorEnvelopeLeavesOutEmptyDetails() throws {
    let body = APIErrorEnvelope(
      error: APIErrorBody(code: .conflict, message: "Conflict: Task is currently running"))
    #expect(
      String(decoding: try WireJSON.encode(body), as: UTF8.self)
        == #"{"error":{"code":"CONFLICT","message":"Conflict: Task is currently running"}}"#)
  }

  @Test func unknownErrorCodesSurviveARoundTrip() throws {
    let text = #"{"error":{"code":"FUTURE_CODE","message":"x","details":{"k":[1]}}}"#
    let envelope = try WireJSON.decode(APIErrorEnvelope.self, from: Data(text.utf8))
    #expect(envelope.error.code.rawValue == "FUTURE_CODE")
    #expect(String(decoding: try WireJSON.encode(envelope), as: UTF8.self) == text)
  }
}

extension APIFailureTests {
  @Test(
    arguments: [
      (
        #"{"error":{"code":"VALIDATION_ERROR","message":"Validation error: name is required"}}"#,
        "name is required"
      ),
      (
        #"{"error":{"code":"BAD_REQUEST","message":"Bad request: invalid cursor"}}"#,
        "invalid cursor"
      ),
      (
        #"{"error":{"code":"ONBOARDING_IDEMPOTENCY_CONFLICT","message":"Request differs"}}"#,
        "Request differs"
      ),
      ("Failed to deserialize the JSON body", "Failed to deserialize the JSON body"),
      (#"{"error":{"code":"NOT_FOUND","message":"Not found: "}}"#, nil),
      ("", nil),
    ] as [(String, String?)])
  func theDetailDropsTheStatusPrefix(_ body: String, _ detail: String?) {
    #expect(APIFailure(status: 422, body: Data(body.utf8)).detail == detail)
  }
}
