#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// The success envelope of every JSON response: `{"data": <payload>}` (Protocol/README.md §3).
///
/// ```swift
/// let devices = try APIResponse<[MobileDevice]>.payload(status: 200, body: body)
/// ```
public struct APIResponse<Payload> {
  /// The payload under `data`.
  public var data: Payload

  /// Wraps a payload.
  /// - Parameter data: The payload.
  public init(data: Payload) { self.data = data }
}

extension APIResponse: Sendable where Payload: Sendable {}
extension APIResponse: Equatable where Payload: Equatable {}
extension APIResponse: Decodable where Payload: Decodable {}
extension APIResponse: Encodable where Payload: Encodable {}

extension APIResponse where Payload: Decodable {
  /// Reads a whole response: a 200 yields the payload, anything else an ``APIFailure``.
  /// - Parameters:
  ///   - status: The HTTP status code.
  ///   - body: The response body.
  /// - Returns: The payload under `data`.
  /// - Throws: ``APIFailure`` for a non-200 status; ``ServerBeeModelsError`` when a 200 body does
  ///   not decode.
  public static func payload(status: Int, body: Data) throws -> Payload {
    guard status == 200 else { throw APIFailure(status: status, body: body) }
    return try WireJSON.decode(APIResponse<Payload>.self, from: body).data
  }
}

/// The error envelope of handler errors: `{"error":{"code":…,"message":…}}` (Protocol/README.md
/// §4).
public struct APIErrorEnvelope: Codable, Hashable, Sendable {
  /// The error object.
  public var error: APIErrorBody

  /// Wraps an error object.
  /// - Parameter error: The error object.
  public init(error: APIErrorBody) { self.error = error }
}

/// The `error` object of the error envelope. `details` is left out of the JSON when `nil`.
public struct APIErrorBody: Codable, Hashable, Sendable {
  /// The upper-snake code, for example `VALIDATION_ERROR`.
  public var code: APIErrorCode
  /// The message, prefixed by status (`Validation error: 2fa_required`).
  public var message: String
  /// Extra JSON; absent on every mobile endpoint.
  public var details: JSONValue?

  /// Creates an error object.
  /// - Parameters:
  ///   - code: The code.
  ///   - message: The full message as sent on the wire.
  ///   - details: Extra JSON, omitted when `nil`.
  public init(code: APIErrorCode, message: String, details: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.details = details
  }

  private enum CodingKeys: String, CodingKey { case code, message, details }

  /// Writes `code`, `message`, then `details` only when present.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(code, forKey: .code)
    try container.encode(message, forKey: .message)
    if let details { try container.encode(details, forKey: .details) }
  }
}

/// The `error.code` values of Protocol/README.md §4 (unknown codes survive decoding).
public struct APIErrorCode: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a code.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// 400, message `Bad request: <text>`.
  public static let badRequest: Self = "BAD_REQUEST"
  /// 401, message always `Unauthorized`.
  public static let unauthorized: Self = "UNAUTHORIZED"
  /// 403, message `Forbidden: <text>`.
  public static let forbidden: Self = "FORBIDDEN"
  /// 404, message `Not found: <text>`.
  public static let notFound: Self = "NOT_FOUND"
  /// 408, message `Request timeout: <text>`.
  public static let requestTimeout: Self = "REQUEST_TIMEOUT"
  /// 409, message `Conflict: <text>`.
  public static let conflict: Self = "CONFLICT"
  /// 422, message `Validation error: <text>`.
  public static let validationError: Self = "VALIDATION_ERROR"
  /// 429, message `Too many requests: <text>`.
  public static let tooManyRequests: Self = "TOO_MANY_REQUESTS"
  /// 500, message `Internal error: <text>`.
  public static let internalError: Self = "INTERNAL_ERROR"
  /// 502, message without prefix.
  public static let badGateway: Self = "BAD_GATEWAY"
  /// 403 from a protected route while the user must change their password.
  public static let mustChangePassword: Self = "MUST_CHANGE_PASSWORD"
}
