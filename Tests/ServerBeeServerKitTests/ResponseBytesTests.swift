import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// The connection's response writer against what it replaced: the head with
/// `content-length` and `connection` set, `serialized`, then the body.
@Suite struct ResponseBytesTests {
  static let heads: [HTTPResponseHead] = [
    HTTPResponseHead(status: 200, reason: "OK", headers: [:]),
    HTTPResponseHead(
      status: 200, reason: "OK",
      headers: ["content-type": "application/json", "cache-control": "no-store"]),
    HTTPResponseHead(
      status: 429, reason: "Too Many Requests",
      headers: ["Retry-After": "60", "content-type": "application/json", "Zeta": "z"]),
    HTTPResponseHead(
      status: 503, reason: "",
      headers: ["content-length": "999", "Connection": "upgrade", "a": "", "é-x": "ü"]),
    HTTPResponseHead(status: 101, reason: "Switching Protocols", headers: ["B": "1", "a": "2"]),
  ]

  @Test(arguments: heads)
  func theBytesAreTheSerializedHeadAndTheBody(_ head: HTTPResponseHead) {
    for (body, connection) in [([UInt8](), "close"), (Array("{\"a\":1}".utf8), "keep-alive")] {
      var expected = head
      expected.headers["content-length"] = String(body.count)
      expected.headers["connection"] = connection
      #expect(
        ResponseBytes.make(head, contentLength: body.count, connection: connection, body: body)
          == expected.serialized + body)
    }
  }
}
