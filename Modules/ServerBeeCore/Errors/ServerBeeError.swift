#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Names the module an error comes from; one conforming type per module.
///
/// Every module of ServerBeeKit reports failures with one public error type,
/// ``ServerBeeError`` specialised for its domain (for example `ServerBeeModelsError`), so all
/// errors share one shape: a stable ``ServerBeeError/Code``, a human-readable message without
/// secrets, an optional HTTP status and an optional underlying error.
public protocol ServerBeeErrorDomain: Sendable {
  /// The module name shown in descriptions, for example `"ServerBeeModels"`.
  static var name: String { get }
}

/// The one error shape of ServerBeeKit, specialised per module through `Domain`.
///
/// Match on ``code`` (codes are static constants declared by each module, so adding one is not
/// source-breaking):
///
/// ```swift
/// do {
///   let token = try WireJSON.decode(APIResponse<MobileTokenResponse>.self, from: body)
/// } catch let error as ServerBeeModelsError where error.code == .missingField {
///   print(error.message) // "missing field 'data.access_token'"
/// }
/// ```
///
/// Messages never contain tokens, keys, passwords or notification plaintext.
public struct ServerBeeError<Domain: ServerBeeErrorDomain>: Error, Sendable,
  CustomStringConvertible
{
  /// A stable, machine-readable error code.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's text, for example `"missing_field"`.
    public let rawValue: String
    /// Creates a code from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a code from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The code's text.
    public var description: String { rawValue }
  }

  /// What went wrong, as a stable code.
  public var code: Code
  /// A readable explanation without secrets.
  public var message: String
  /// The HTTP status involved, if the failure came from a response.
  public var httpStatus: Int?
  /// The lower-level error that caused this one, if any.
  public var underlying: (any Error & Sendable)?

  /// Creates an error.
  /// - Parameters:
  ///   - code: The stable code.
  ///   - message: A readable explanation; never include a secret.
  ///   - httpStatus: The HTTP status involved, if any.
  ///   - underlying: The lower-level cause, if any.
  public init(
    _ code: Code, _ message: String, httpStatus: Int? = nil,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.message = message
    self.httpStatus = httpStatus
    self.underlying = underlying
  }

  /// `Domain.code: message (HTTP status)`.
  public var description: String {
    var text = "\(Domain.name).\(code.rawValue): \(message)"
    if let httpStatus { text += " (HTTP \(httpStatus))" }
    return text
  }
}

/// What every ServerBeeKit error offers, whatever module it comes from: catch this one protocol
/// to handle any of them.
///
/// ```swift
/// do {
///   try await client.login(server: url, username: name, password: password)
/// } catch let error as any ServerBeeErrorProtocol {
///   show(error.localizedDescription)  // a sentence, for example "Unauthorized (HTTP 401)."
///   if error.httpStatus == 401 { showLoginAgain() }
/// }
/// ```
public protocol ServerBeeErrorProtocol: LocalizedError, CustomStringConvertible, Sendable {
  /// The module the error comes from, for example `"AuthSession"`.
  var domainName: String { get }
  /// The stable error code, for example `"refresh_rejected"`.
  var codeName: String { get }
  /// A readable message without secrets.
  var message: String { get }
  /// The HTTP status that caused it, if any.
  var httpStatus: Int? { get }
  /// The lower-level error that caused it, if any.
  var cause: (any Error & Sendable)? { get }
}

extension ServerBeeError: ServerBeeErrorProtocol {
  /// The module the error comes from (`Domain.name`).
  public var domainName: String { Domain.name }

  /// The code's wire text.
  public var codeName: String { code.rawValue }

  /// The lower-level error that caused this one (``underlying``).
  public var cause: (any Error & Sendable)? { underlying }

  /// A sentence a user can read: the message, capitalised, with the HTTP status when there is
  /// one, for example `The server refused the connection (HTTP 503).` It is what
  /// `localizedDescription` shows instead of "The operation could not be completed".
  public var errorDescription: String? {
    var text = message.prefix(1).uppercased() + message.dropFirst()
    if let httpStatus { text += " (HTTP \(httpStatus))" }
    if !text.hasSuffix(".") { text += "." }
    return text
  }
}
