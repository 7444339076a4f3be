import Foundation
import ServerBeeModels
public import ServerBeeTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An `HTTPTransport` backed by `URLSession` that never follows redirects.
///
/// A `3xx` comes back as an `HTTPResponse` with its `location` header. Redirects are refused by
/// a session-level delegate, because on Linux the per-task delegate of `data(for:delegate:)` is
/// never called. Each request has a timeout, and cancelling the calling task cancels the request
/// and throws `CancellationError`.
///
/// ```swift
/// let transport = URLSessionHTTPTransport(configuration: .init(timeout: .seconds(15)))
/// let response = try await transport.send(HTTPRequest(url: url))
/// ```
///
/// URLSession trusts only the system CA store on Linux; for self-hosted servers with their own CA
/// or a pinned certificate, use the native stack (`SocketWebSocketTransport` for WebSockets).
public final class URLSessionHTTPTransport: HTTPTransport {
  /// Settings for ``URLSessionHTTPTransport``.
  public struct Configuration: Sendable, Hashable {
    /// How long a request may wait for data before it fails with `.timedOut`; 30 seconds by
    /// default. A request's `minimumTimeout` lengthens it for that request; a whole exchange
    /// is capped at the longer of this and 60 s (URLSession caps time per session, not per
    /// request).
    public var timeout: Duration

    /// Creates a configuration.
    /// - Parameter timeout: The per-request timeout; 30 seconds by default.
    public init(timeout: Duration = .seconds(30)) {
      self.timeout = timeout
    }
  }

  private let session: URLSession
  /// The longest `minimumTimeout` the session leaves room for: a Docker route's 30 s wait for
  /// the agent with a margin (Protocol/AppRoutes.md §8.1).
  static let longestServerWait: Duration = .seconds(60)
  private let configuration: Configuration

  /// Creates a transport with its own ephemeral `URLSession`.
  /// - Parameter configuration: The settings; defaults apply when omitted.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    let seconds = URLSessionFailure.seconds(configuration.timeout)
    sessionConfiguration.timeoutIntervalForRequest = seconds
    // The session's cap on a whole exchange leaves room for a request's `minimumTimeout` (a
    // route that waits on the server's side); each request's own interval is set below.
    sessionConfiguration.timeoutIntervalForResource = max(
      seconds, URLSessionFailure.seconds(Self.longestServerWait))
    sessionConfiguration.httpCookieAcceptPolicy = .never
    sessionConfiguration.httpShouldSetCookies = false
    sessionConfiguration.urlCache = nil
    session = URLSession(
      configuration: sessionConfiguration, delegate: RedirectRefusingDelegate(),
      delegateQueue: nil)
  }

  deinit { session.invalidateAndCancel() }

  /// Performs one exchange without following redirects.
  /// - Parameter request: The request to send.
  /// - Returns: The response, whatever its status code.
  /// - Throws: `ServerBeeTransportError` (`.timedOut`,
  ///   `.connectionRefused`, `.connectionFailed`, …);
  ///   `CancellationError` when the task is cancelled.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    urlRequest.timeoutInterval = URLSessionFailure.seconds(
      request.timeout(within: configuration.timeout))
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    if !request.body.isEmpty { urlRequest.httpBody = request.body }
    try Task.checkCancellation()
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: urlRequest)
    } catch {
      throw Self.mapped(error)
    }
    guard let http = response as? HTTPURLResponse else {
      throw ServerBeeTransportError(.connectionFailed, "the response was not HTTP")
    }
    var headers = HTTPHeaders()
    for (key, value) in http.allHeaderFields {
      if let name = key as? String, let text = value as? String { headers[name] = text }
    }
    return HTTPResponse(status: http.statusCode, headers: headers, body: data)
  }

  private static func mapped(_ error: any Error) -> any Error {
    URLSessionFailure.mapped(error, what: "the request")
  }
}

/// Refuses every redirect so the 3xx response itself reaches the caller.
///
/// It has no state, so sharing it across URLSession's delegate queue is safe.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
