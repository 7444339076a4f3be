#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// One HTTP response: status code, headers with lowercased names and the body.
///
/// Transports return every status code, including 3xx, 4xx and 5xx, as a response; what a status
/// means is decided by the caller.
///
/// ```swift
/// let response = try await transport.send(request)
/// if response.status == 200 { … }
/// ```
public struct HTTPResponse: Sendable, Hashable {
  /// The status code, for example `200` or `302`.
  public var status: Int
  /// The header fields (names lowercased).
  public var headers: HTTPHeaders
  /// The body; empty for none.
  public var body: Data

  /// Creates a response.
  /// - Parameters:
  ///   - status: The status code.
  ///   - headers: The header fields; names are lowercased.
  ///   - body: The body; empty by default.
  public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}
