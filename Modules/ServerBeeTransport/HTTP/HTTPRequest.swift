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
  /// The least time the exchange is given, for a request the server answers only after
  /// waiting on someone else (a Docker route waits up to 30 s for the agent before it answers
  /// 408): the transport waits the longer of this and its own timeout. `nil` for the
  /// transport's timeout alone.
  ///
  /// ```swift
  /// var request = HTTPRequest(url: url)
  /// request.minimumTimeout = .seconds(40)  // a 15 s transport still waits 40 s for this one
  /// ```
  public var minimumTimeout: Duration?

  /// Creates a request.
  /// - Parameters:
  ///   - method: The request method; `GET` by default.
  ///   - url: The absolute URL.
  ///   - headers: The header fields; names are lowercased.
  ///   - body: The body; empty by default.
  ///   - minimumTimeout: The least time the exchange is given (``minimumTimeout``); `nil` by
  ///     default.
  public init(
    method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data = Data(),
    minimumTimeout: Duration? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.minimumTimeout = minimumTimeout
  }

  /// The time a transport whose own timeout is `timeout` gives this request: the longer of
  /// `timeout` and ``minimumTimeout``.
  public func timeout(within timeout: Duration) -> Duration {
    guard let minimumTimeout, minimumTimeout > timeout else { return timeout }
    return minimumTimeout
  }
}
