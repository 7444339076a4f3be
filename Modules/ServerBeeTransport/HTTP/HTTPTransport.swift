/// Performs HTTP exchanges; the seam every ServerBeeKit client talks through.
///
/// Implementations return every status code as an ``HTTPResponse`` and never follow redirects,
/// so a `302` reaches the caller. They throw only for transport failures (``ServerBeeTransportError``)
/// and pass `CancellationError` through unchanged. Cross-cutting behaviour such as bearer tokens
/// or retries is added by decorators that are themselves `HTTPTransport`s.
///
/// ```swift
/// let transport: any HTTPTransport = URLSessionHTTPTransport()
/// let response = try await transport.send(HTTPRequest(url: url))
/// ```
public protocol HTTPTransport: Sendable {
  /// Performs one exchange.
  /// - Parameter request: The request to send.
  /// - Returns: The response, whatever its status code.
  /// - Throws: ``ServerBeeTransportError`` for transport failures; `CancellationError` when the
  ///   calling task is cancelled.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
