#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A non-200 answer from a ServerBee server, classified so callers can act on it.
///
/// Servers answer errors in three body forms (Protocol/README.md §4–§5): the JSON error envelope
/// from handlers, an **empty** body from middleware (401 no credential, 403 admin gate, 404 unknown
/// route), and plain text from framework rejections (415, 400/422 for malformed JSON). This type
/// keeps the status and whichever form arrived, and ``kind`` says what it means:
///
/// ```swift
/// do {
///   _ = try APIResponse<MobileTokenResponse>.payload(status: status, body: body)
/// } catch let failure as APIFailure where failure.kind == .twoFactorRequired {
///   // ask for the TOTP code and log in again
/// }
/// ```
public struct APIFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The body form that came with the status.
  public enum Body: Sendable, Hashable {
    /// The JSON error envelope.
    case envelope(APIErrorBody)
    /// No body at all (middleware).
    case empty
    /// Any other text (framework rejections), at most 1 KiB kept.
    case text(String)
  }

  /// What the failure means for a client.
  public enum Kind: Sendable, Hashable {
    /// 401 with an empty body (or any body that is not the error envelope): the auth
    /// middleware found no valid credential (token expired, revoked or wrong). Only this 401
    /// is worth a token refresh.
    case unauthorized
    /// 401 with the JSON error envelope: a route's handler refused a value it was sent (a
    /// wrong two-factor code, say). The credential is fine: refreshing would not help.
    case refused
    /// 403 with an empty body or `FORBIDDEN`: the account may not do this.
    case notPermitted
    /// 403 `MUST_CHANGE_PASSWORD` (either form): finish onboarding in the web UI first.
    case mustChangePassword
    /// 422 whose message contains `2fa_required`: send the TOTP code.
    case twoFactorRequired
    /// 404 with an empty body: the route does not exist (the server is too old for it).
    case routeNotFound
    /// 404 with a message: the resource does not exist.
    case notFound
    /// 400: the request was refused as bad.
    case badRequest
    /// 422 (other than 2FA) or 415: a field was missing, empty or invalid.
    case invalidRequest
    /// 409: a conflict (revision mismatch, state changed).
    case conflict
    /// 429: rate-limited.
    case rateLimited
    /// 5xx.
    case serverError
    /// Anything else (3xx included: redirects are never followed).
    case other
  }

  /// The HTTP status code.
  public let status: Int
  /// The body as it arrived.
  public let body: Body

  /// Classifies a response.
  /// - Parameters:
  ///   - status: The HTTP status.
  ///   - body: The raw body.
  public init(status: Int, body: Data) {
    self.status = status
    if body.isEmpty || body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      self.body = .empty
    } else if body.count <= 64 << 10,
      let envelope = try? JSONDecoder().decode(APIErrorEnvelope.self, from: body)
    {
      self.body = .envelope(envelope.error)
    } else {
      self.body = .text(String(decoding: body.prefix(1024), as: UTF8.self))
    }
  }

  /// Creates a failure from its parts.
  /// - Parameters:
  ///   - status: The HTTP status.
  ///   - body: The body form.
  public init(status: Int, body: Body) {
    self.status = status
    self.body = body
  }

  /// The server's message, if the body carried one.
  public var message: String? {
    switch body {
    case .envelope(let error): return error.message
    case .text(let text): return text
    case .empty: return nil
    }
  }

  /// The prefixes a server's handler errors put before their message, one per status
  /// (`Protocol/README.md`).
  static let messagePrefixes = [
    "Bad request: ", "Forbidden: ", "Not found: ", "Request timeout: ", "Conflict: ",
    "Validation error: ", "Internal error: ",
  ]

  /// The server's message without the status prefix of the error envelope, for a sentence:
  /// `name is required` for `Validation error: name is required`.
  ///
  /// ```swift
  /// if let detail = failure.detail { print("the server refused a value: \(detail)") }
  /// ```
  public var detail: String? {
    guard let message, !message.isEmpty else { return nil }
    for prefix in Self.messagePrefixes where message.hasPrefix(prefix) {
      let rest = message.dropFirst(prefix.count)
      return rest.isEmpty ? nil : String(rest)
    }
    return message
  }

  /// The server's `error.code`, if the body was the JSON envelope.
  public var code: APIErrorCode? {
    if case .envelope(let error) = body { return error.code }
    return nil
  }

  /// What this failure means; see ``Kind``.
  public var kind: Kind {
    switch status {
    case 401:
      if case .envelope = body { return .refused }
      return .unauthorized
    case 403:
      if code == .mustChangePassword || message?.contains("MUST_CHANGE_PASSWORD") == true {
        return .mustChangePassword
      }
      return .notPermitted
    case 404: return body == .empty ? .routeNotFound : .notFound
    case 400: return .badRequest
    case 422:
      return message?.contains("2fa_required") == true ? .twoFactorRequired : .invalidRequest
    case 415: return .invalidRequest
    case 409: return .conflict
    case 429: return .rateLimited
    case 500...599: return .serverError
    default: return .other
    }
  }

  /// `HTTP 422 VALIDATION_ERROR: Validation error: 2fa_required`.
  public var description: String {
    var text = "HTTP \(status)"
    if let code { text += " \(code.rawValue)" }
    if let message { text += ": \(message.prefix(200))" }
    return text
  }
}
