import Foundation
import ServerBeeModels
import ServerBeeTransport

/// A handler failure that becomes one exact ServerBee response (wire contract v1 §1.2, §1.3).
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
    }
  }
}

enum Reply {
  static func data(_ payload: some Encodable) -> HTTPResponse {
    json(200, APIResponse(data: payload))
  }

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

  static func error(_ status: Int, _ code: APIErrorCode, _ message: String) -> HTTPResponse {
    let envelope = APIErrorEnvelope(error: APIErrorBody(code: code, message: message))
    let body = (try? WireJSON.encode(envelope)) ?? Data()
    return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  static func text(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
  }
}

/// The parsed parts of one request.
struct RequestContext {
  let request: HTTPRequest
  let method: String
  let segments: [String]
  let query: [String: String]
  let remoteAddress: String
  /// Path parameters captured by `*` in the route pattern, in order.
  var parameters: [String] = []

  init(_ request: HTTPRequest, remoteAddress: String) {
    self.request = request
    self.method = request.method.rawValue
    self.remoteAddress = remoteAddress
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let path = components?.percentEncodedPath ?? request.url.path
    segments = path.split(separator: "/", omittingEmptySubsequences: true).map {
      String($0).removingPercentEncoding ?? String($0)
    }
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] where query[item.name] == nil {
      query[item.name] = item.value ?? ""
    }
    self.query = query
  }

  /// axum's text for a body that is not JSON (`JsonSyntaxError`).
  static let syntaxRejection = "Failed to parse the request body as JSON"

  func parameter(_ index: Int) -> String {
    parameters.indices.contains(index) ? parameters[index] : ""
  }

  /// The JSON object body, with axum's rejections (wire contract v1 §1.3): 415 without a JSON content type,
  /// 400 for malformed JSON, 422 (plain text) for a body that is not an object.
  ///
  /// Every route that reads a body comes through here, so every one is as strict as
  /// `serde_json` (``StrictJSON``): a byte order mark or any other syntax `serde_json` refuses
  /// is the 400, and a key given twice is a 422 `duplicate field` (a deserialisation error in
  /// axum's terms, like a missing field), both plain text, without serde's "at line L column
  /// C" suffix, which the simulator leaves out of every such message.
  func jsonBody() throws -> JSONBody {
    let contentType = request.headers["content-type"]?.lowercased() ?? ""
    guard contentType.hasPrefix("application/json") else {
      throw APIError.plain(415, "Expected request with `Content-Type: application/json`")
    }
    do {
      try StrictJSON.check(request.body)
    } catch .syntax {
      throw APIError.plain(400, Self.syntaxRejection)
    } catch .duplicateKey(let path, let key) {
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: "
          + (path.isEmpty ? "" : "\(path): ") + "duplicate field `\(key)`")
    }
    guard let value = try? WireJSON.decode(JSONValue.self, from: request.body) else {
      throw APIError.plain(400, Self.syntaxRejection)
    }
    guard case .object = value else {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: invalid type")
    }
    return JSONBody(value: value)
  }
}

/// Field access on a request object with serde's semantics: a required key that is missing or
/// of the wrong type is a framework 422 with a plain-text body.
struct JSONBody {
  let value: JSONValue

  func string(_ key: String) throws -> String {
    guard let field = value[key] else { throw missing(key) }
    guard case .string(let text) = field else { throw wrongType(key) }
    return text
  }

  func optionalString(_ key: String) throws -> String? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .string(let text): return text
    default: throw wrongType(key)
    }
  }

  func has(_ key: String) -> Bool {
    if let field = value[key], field != .null { return true }
    return false
  }

  func int(_ key: String) throws -> Int64? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .number(let number) where number == number.rounded(): return Int64(number)
    default: throw wrongType(key)
    }
  }

  func double(_ key: String) throws -> Double? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .number(let number): return number
    default: throw wrongType(key)
    }
  }

  func bool(_ key: String) throws -> Bool? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .bool(let flag): return flag
    default: throw wrongType(key)
    }
  }

  func strings(_ key: String) throws -> [String]? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .array(let items):
      return try items.map {
        guard case .string(let text) = $0 else { throw wrongType(key) }
        return text
      }
    default: throw wrongType(key)
    }
  }

  /// serde's `deny_unknown_fields` with every key required (wire contract v2 §3.1): an unknown key, then a
  /// missing one, is a framework 422 with a plain-text body. `path` prefixes nested objects.
  func requireExactly(_ keys: [String], path: String = "") throws {
    guard case .object(let members) = value else {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: \(path)invalid type")
    }
    for member in members where !keys.contains(member.key) {
      let expected =
        keys.count == 2
        ? "`\(keys[0])` or `\(keys[1])`"
        : "one of " + keys.map { "`\($0)`" }.joined(separator: ", ")
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: \(path)unknown field "
          + "`\(member.key)`, expected \(expected)")
    }
    for key in keys where value[key] == nil { throw missing(path + key) }
  }

  /// A required nested object whose keys are exactly `keys`.
  func object(_ key: String, exactly keys: [String]) throws -> JSONBody {
    guard let field = value[key] else { throw missing(key) }
    guard case .object = field else { throw wrongType(key) }
    let nested = JSONBody(value: field)
    try nested.requireExactly(keys, path: key + ".")
    return nested
  }

  /// A required boolean (no null).
  func requiredBool(_ key: String) throws -> Bool {
    guard let field = value[key] else { throw missing(key) }
    guard case .bool(let flag) = field else { throw wrongType(key) }
    return flag
  }

  /// A required integer that fits an i64 (no null, no fraction).
  func requiredInt(_ key: String) throws -> Int64 {
    guard let field = value[key] else { throw missing(key) }
    guard case .number(let number) = field, number == number.rounded(),
      abs(number) < 9.2e18
    else { throw wrongType(key) }
    return Int64(number)
  }

  private func missing(_ key: String) -> APIError {
    .plain(422, "Failed to deserialize the JSON body into the target type: missing field `\(key)`")
  }

  private func wrongType(_ key: String) -> APIError {
    .plain(422, "Failed to deserialize the JSON body into the target type: \(key): invalid type")
  }
}
