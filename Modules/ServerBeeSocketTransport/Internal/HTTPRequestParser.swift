import ServerBeeTransport

/// The server's request framing as a pure function of the bytes received so far: one head
/// (``HTTPHeadCodec``), then a `content-length` body, or the status to reject the request with.
///
/// ``HTTPServerConnection`` calls it on its buffer after every read; the fuzz target
/// `fuzz-http-request` calls it (through ``HTTPFuzzing``) on hostile input.
package enum HTTPRequestParser {
  /// What the buffered bytes amount to.
  package enum Outcome: Sendable, Hashable {
    /// A whole request: its head, its body, and how many buffered bytes it used.
    case complete(HTTPRequestHead, body: [UInt8], consumed: Int)
    /// More bytes are needed before the head ends.
    case incompleteHead
    /// The head is complete and more body bytes are needed; `expectsContinue` when the head
    /// asked for `100 Continue`.
    case incompleteBody(HTTPRequestHead, expectsContinue: Bool)
    /// The request must be answered with `status` and the connection closed.
    case reject(status: Int, reason: String, detail: String)
  }

  /// Parses the request at the start of `buffer`.
  /// - Parameters:
  ///   - buffer: The bytes received so far (a request starts at its first byte).
  ///   - maxBodySize: The largest `content-length` accepted (413 beyond it).
  ///   - limits: The head limits (431 beyond them).
  /// - Returns: The outcome; 400 for a malformed head or length, 501 for `transfer-encoding`.
  package static func parse(
    _ buffer: [UInt8], maxBodySize: Int, limits: HTTPHeadCodec.Limits = HTTPHeadCodec.Limits()
  ) -> Outcome {
    let headLength: Int
    do {
      guard let length = try HTTPHeadCodec.headLength(in: buffer, limits: limits) else {
        return .incompleteHead
      }
      headLength = length
    } catch .tooLarge {
      return .reject(
        status: 431, reason: "Request Header Fields Too Large",
        detail: "the request head is too large")
    } catch {
      return .reject(status: 400, reason: "Bad Request", detail: "a line ends without CR")
    }
    let head: HTTPRequestHead
    do {
      head = try HTTPHeadCodec.parseRequest(buffer[0..<headLength], limits: limits)
    } catch .tooManyHeaders {
      return .reject(
        status: 431, reason: "Request Header Fields Too Large", detail: "too many header lines")
    } catch {
      return .reject(status: 400, reason: "Bad Request", detail: "the request head is malformed")
    }
    if head.headers["transfer-encoding"] != nil {
      return .reject(
        status: 501, reason: "Not Implemented", detail: "chunked request bodies are not supported")
    }
    var length = 0
    if let text = head.headers["content-length"] {
      guard let value = HTTPHeadCodec.contentLength(text) else {
        return .reject(status: 400, reason: "Bad Request", detail: "bad content-length")
      }
      guard value <= maxBodySize else {
        return .reject(
          status: 413, reason: "Content Too Large", detail: "the request body is too large")
      }
      length = value
    }
    guard buffer.count - headLength >= length else {
      return .incompleteBody(
        head, expectsContinue: head.headers["expect"]?.lowercased() == "100-continue")
    }
    let body = Array(buffer[headLength..<(headLength + length)])
    return .complete(head, body: body, consumed: headLength + length)
  }
}
