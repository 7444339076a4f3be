/// Why an HTTP/2 request got no response.
///
/// ```swift
/// do { _ = try await connection.send(request, deadline: deadline) }
/// catch let error as HTTP2Error where error.isSafeToRetry { /* send again, elsewhere */ }
/// ```
package enum HTTP2Error: Error, Hashable, Sendable, CustomStringConvertible {
  /// The connection could not be opened (resolve, connect, TLS, ALPN); the text says why.
  case connectFailed(String)
  /// The server certificate did not verify (unknown CA, wrong name, expired).
  case untrustedServer(String)
  /// The connection ended before the response; `processed` says whether the server may have
  /// acted on the request (false after GOAWAY with a lower last-stream id, REFUSED_STREAM, or a
  /// request that never left this process).
  case connectionLost(String, processed: Bool)
  /// The peer broke HTTP/2 (or HPACK), with the error code this side sends in GOAWAY.
  case protocolViolation(HTTP2ErrorCode, String)
  /// The server reset the stream with this code.
  case streamReset(HTTP2ErrorCode)
  /// The response (headers or body) broke a rule or a bound.
  case malformedResponse(String)
  /// The deadline passed first.
  case timedOut
  /// The caller's task was cancelled.
  case cancelled

  /// Whether sending again cannot make the server act twice: the request was never processed.
  package var isSafeToRetry: Bool {
    switch self {
    case .connectFailed, .untrustedServer: true
    case .connectionLost(_, let processed): !processed
    case .streamReset(let code): code == .refusedStream
    default: false
    }
  }

  package var description: String {
    switch self {
    case .connectFailed(let text): "could not connect: \(text)"
    case .untrustedServer(let text): "the server's certificate is not trusted: \(text)"
    case .connectionLost(let text, _): "the connection was lost: \(text)"
    case .protocolViolation(let code, let text): "HTTP/2 protocol error (\(code)): \(text)"
    case .streamReset(let code): "the server reset the request (\(code))"
    case .malformedResponse(let text): "malformed response: \(text)"
    case .timedOut: "no response before the deadline"
    case .cancelled: "cancelled"
    }
  }
}
