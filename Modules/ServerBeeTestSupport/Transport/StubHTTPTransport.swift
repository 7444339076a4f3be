import Foundation
package import ServerBeeTransport
package import Testing

/// An ``HTTPTransport`` that answers with scripted replies, in order, and records what it got.
///
/// Each test builds its own stub. An unexpected request (none left, or a different method/URL)
/// records an issue and throws ``StubHTTPTransport/UnexpectedRequest``.
///
/// ```swift
/// let http = StubHTTPTransport()
/// await http.expect(.post, "https://bee.example/api/auth/login", reply: .json(200, #"{"data":…}"#))
/// let client = AuthClient(transport: http, …)
/// …
/// await http.verifyAllConsumed()
/// ```
package actor StubHTTPTransport: HTTPTransport {
  /// What the stub answers with.
  package enum Reply: Sendable {
    /// A response.
    case response(HTTPResponse)
    /// A thrown error (for example a transport failure or `CancellationError`).
    case failure(any Error & Sendable)

    /// A JSON response with `content-type: application/json`.
    /// - Parameters:
    ///   - status: The status code.
    ///   - json: The body text.
    /// - Returns: The reply.
    package static func json(_ status: Int, _ json: String) -> Reply {
      .response(
        HTTPResponse(
          status: status, headers: ["content-type": "application/json"], body: Data(json.utf8)))
    }
  }

  /// The error thrown for a request the script did not expect.
  package struct UnexpectedRequest: Error, Sendable, CustomStringConvertible {
    /// The request.
    package let request: HTTPRequest
    /// A readable description.
    package var description: String { "unexpected \(request.method) \(request.url)" }
  }

  private struct Expectation {
    var method: HTTPMethod
    var url: URL
    var check: (@Sendable (HTTPRequest) -> Void)?
    var reply: Reply
    var sourceLocation: SourceLocation
  }

  private var expectations: [Expectation] = []
  /// Every request received, in order.
  package private(set) var received: [HTTPRequest] = []

  /// Creates a stub with no expectations.
  package init() {}

  /// Adds the next expected request and its reply.
  /// - Parameters:
  ///   - method: The expected method.
  ///   - url: The expected absolute URL (including the query).
  ///   - check: Extra assertions on the request (headers, body), run when it arrives.
  ///   - reply: What to answer.
  ///   - sourceLocation: Where a mismatch is reported.
  package func expect(
    _ method: HTTPMethod, _ url: String, check: (@Sendable (HTTPRequest) -> Void)? = nil,
    reply: Reply, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let parsed = URL(string: url) else {
      Issue.record("invalid URL \(url)", sourceLocation: sourceLocation)
      return
    }
    expectations.append(
      Expectation(
        method: method, url: parsed, check: check, reply: reply, sourceLocation: sourceLocation))
  }

  /// Answers the next scripted reply if `request` matches it.
  /// - Parameter request: The request.
  /// - Returns: The scripted response.
  /// - Throws: The scripted error, or ``UnexpectedRequest``.
  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    received.append(request)
    guard let next = expectations.first, next.method == request.method, next.url == request.url
    else {
      let error = UnexpectedRequest(request: request)
      let expected = expectations.first.map { "\($0.method) \($0.url)" } ?? "nothing"
      Issue.record("\(error); expected \(expected)")
      throw error
    }
    expectations.removeFirst()
    next.check?(request)
    switch next.reply {
    case .response(let response): return response
    case .failure(let error): throw error
    }
  }

  /// Records an issue for every expectation that was never used.
  /// - Parameter sourceLocation: Where to report.
  package func verifyAllConsumed(sourceLocation: SourceLocation = #_sourceLocation) {
    for left in expectations {
      Issue.record(
        "expected request never arrived: \(left.method) \(left.url)",
        sourceLocation: left.sourceLocation)
    }
  }
}
