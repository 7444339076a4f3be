import Foundation
import ServerBeeModels
import ServerBeeTransport

/// A handler failure that becomes one exact ServerBee response (Protocol/README.md §4, §5).
enum APIError: Error {
  case badRequest(String)
  case unauthorized
  case forbidden(String)
  case notFound(String)
  case conflict(String)
  case validation(String)
  case tooManyRequests(String)
  case mustChangePassword
  /// A middleware or framework answer with an empty body (401, 403, 404, 405, 413).
  case bare(Int)
  /// A framework rejection with a plain-text body (415, 400 JSON syntax, 422 missing key).
  case plain(Int, String)
  /// A domain error: its own upper-snake code, a message with no prefix, and optional
  /// `details` (Protocol/Agents.md §1).
  case domain(Int, APIErrorCode, String, details: JSONValue?)

  var response: HTTPResponse {
    switch self {
    case .badRequest(let text): return Reply.error(400, .badRequest, "Bad request: \(text)")
    case .unauthorized: return Reply.error(401, .unauthorized, "Unauthorized")
    case .forbidden(let text): return Reply.error(403, .forbidden, "Forbidden: \(text)")
    case .notFound(let text): return Reply.error(404, .notFound, "Not found: \(text)")
    case .conflict(let text): return Reply.error(409, .conflict, "Conflict: \(text)")
    case .validation(let text):
      return Reply.error(422, .validationError, "Validation error: \(text)")
    case .tooManyRequests(let text):
      return Reply.error(429, .tooManyRequests, "Too many requests: \(text)")
    case .mustChangePassword:
      return Reply.error(
        403, .mustChangePassword, "Password change required before continuing")
    case .bare(let status): return HTTPResponse(status: status)
    case .plain(let status, let text): return Reply.text(status, text)
    case .domain(let status, let code, let text, let details):
      return Reply.error(status, code, text, details: details)
    }
  }
}

/// The ways a handler writes its answer: ServerBee's JSON envelopes, the error envelope, plain
/// text, and the control API's JSON objects.
enum Reply {
  /// A 200 with `{"data": payload}` (Protocol/README.md §4).
  static func data(_ payload: some Encodable) -> HTTPResponse {
    json(200, APIResponse(data: payload))
  }

  /// `value` as JSON with `status`; an encoding failure is a 500 error envelope.
  static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
    guard let body = try? WireJSON.encode(value) else {
      return error(500, .internalError, "Internal error: encoding failed")
    }
    return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  /// A 200 with JSON written already.
  static func json(body: Data) -> HTTPResponse {
    HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
  }

  /// The error envelope `{"error": {"code", "message"}}` with `status`, and `details` after
  /// them when given.
  static func error(
    _ status: Int, _ code: APIErrorCode, _ message: String, details: JSONValue? = nil
  ) -> HTTPResponse {
    let envelope = APIErrorEnvelope(
      error: APIErrorBody(code: code, message: message, details: details))
    let body = (try? WireJSON.encode(envelope)) ?? Data()
    return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  /// A plain-text answer (framework rejections and `healthz`).
  static func text(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
  }

  /// A 200 with a JSON object whose members keep their order (the control API's answers).
  static func object(_ members: [(String, JSONValue)]) -> HTTPResponse {
    json(200, JSONValue.object(members.map { (key: $0.0, value: $0.1) }))
  }
}
