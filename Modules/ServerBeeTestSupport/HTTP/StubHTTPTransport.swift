import Foundation
public import ServerBeeTransport
public import Testing

/// An `HTTPTransport` that answers from a script of expected requests, in order.
///
/// Each test creates its own stub, scripts the exchanges it expects, and checks at the end that
/// every scripted exchange happened:
///
/// ```swift
/// let http = StubHTTPTransport()
/// await http.expect(.post, "/api/mobile/auth/login", reply: .json(200, #"{"data":…}"#))
/// // … exercise the code under test …
/// await http.verifyAllConsumed()
/// ```
///
/// A request that does not match the next expectation (or arrives when none is left) is recorded
/// as a test issue with `Issue.record` and answered by throwing ``StubHTTPTransport/Unexpected``.
/// Every request, expected or not, is kept in ``received``.
public actor StubHTTPTransport: HTTPTransport {
  /// The error thrown for a request that was not expected.
  public struct Unexpected: Error, CustomStringConvertible {
    /// What was received and what was expected.
    public let description: String
  }

  /// How a scripted exchange answers.
  public typealias Responder = @Sendable (HTTPRequest) async throws -> HTTPResponse

  private struct Expectation {
    let method: HTTPMethod
    let path: String
    let respond: Responder
    let sourceLocation: SourceLocation
  }

  private var expectations: [Expectation] = []
  /// Every request received, in order.
  public private(set) var received: [HTTPRequest] = []

  /// Creates a stub with no expectations.
  public init() {}

  /// Scripts the next exchange: a request with this method and path gets this reply.
  /// - Parameters:
  ///   - method: The expected method.
  ///   - path: The expected URL path, for example `/api/mobile/auth/refresh`.
  ///   - reply: The response to return.
  ///   - sourceLocation: Where the expectation was written, for failure messages.
  public func expect(
    _ method: HTTPMethod, _ path: String, reply: HTTPResponse,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expect(method, path, sourceLocation: sourceLocation) { _ in reply }
  }

  /// Scripts the next exchange: a request with this method and path makes the transport throw.
  /// - Parameters:
  ///   - method: The expected method.
  ///   - path: The expected URL path.
  ///   - error: The error to throw, for example a transport failure.
  ///   - sourceLocation: Where the expectation was written, for failure messages.
  public func expect(
    _ method: HTTPMethod, _ path: String, throwing error: any Error & Sendable,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expect(method, path, sourceLocation: sourceLocation) { _ in throw error }
  }

  /// Scripts the next exchange with a closure that builds the reply (it may also suspend, for
  /// example to hold a response until the test releases it).
  /// - Parameters:
  ///   - method: The expected method.
  ///   - path: The expected URL path.
  ///   - sourceLocation: Where the expectation was written, for failure messages.
  ///   - respond: Builds the response from the request, or throws.
  public func expect(
    _ method: HTTPMethod, _ path: String, sourceLocation: SourceLocation = #_sourceLocation,
    respond: @escaping Responder
  ) {
    expectations.append(
      Expectation(method: method, path: path, respond: respond, sourceLocation: sourceLocation))
  }

  /// Answers a request from the script.
  /// - Parameter request: The request.
  /// - Returns: The scripted response.
  /// - Throws: The scripted error, or ``Unexpected`` when the request was not expected.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    received.append(request)
    let summary = "\(request.method.rawValue) \(request.url.path)"
    guard let next = expectations.first else {
      let error = Unexpected(description: "unexpected request \(summary): none was expected")
      Issue.record(Comment(rawValue: error.description))
      throw error
    }
    guard next.method == request.method, next.path == request.url.path else {
      let error = Unexpected(
        description:
          "unexpected request \(summary): expected \(next.method.rawValue) \(next.path)")
      Issue.record(Comment(rawValue: error.description), sourceLocation: next.sourceLocation)
      throw error
    }
    expectations.removeFirst()
    return try await next.respond(request)
  }

  /// The requests received whose URL path is `path`.
  /// - Parameter path: A URL path.
  /// - Returns: The matching requests, in order.
  public func requests(to path: String) -> [HTTPRequest] {
    received.filter { $0.url.path == path }
  }

  /// Records a test issue for every scripted exchange that did not happen.
  /// - Parameter sourceLocation: Where the check was written.
  public func verifyAllConsumed(sourceLocation: SourceLocation = #_sourceLocation) {
    for leftover in expectations {
      Issue.record(
        "expected request \(leftover.method.rawValue) \(leftover.path) was never sent",
        sourceLocation: leftover.sourceLocation)
    }
  }
}
