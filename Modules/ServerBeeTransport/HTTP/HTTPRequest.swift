#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// One HTTP request: method, absolute URL, headers with lowercased names and a body.
///
/// A plain `Sendable`, `Hashable` value, so tests can compare what a transport received with
/// what they expected:
///
/// ```swift
/// let request = HTTPRequest(
///   method: .post, url: URL(string: "https://bee.example/api/auth/login")!,
///   headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
/// ```
public struct HTTPRequest: Sendable, Hashable {
  /// The request method.
  public var method: HTTPMethod
  /// The absolute URL.
  public var url: URL
  /// The header fields (names lowercased).
  public var headers: HTTPHeaders
  /// The body; empty for none.
  public var body: Data

  /// Creates a request.
  /// - Parameters:
  ///   - method: The request method; `GET` by default.
  ///   - url: The absolute URL.
  ///   - headers: The header fields; names are lowercased.
  ///   - body: The body; empty by default.
  public init(
    method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data = Data()
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}
