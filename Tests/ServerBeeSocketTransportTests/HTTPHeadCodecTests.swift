import Testing

@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

@Suite struct HTTPHeadCodecTests {
  let request = Array(
    ("GET /api/ws/servers?x=1 HTTP/1.1\r\nHost: bee.example\r\nUpgrade: websocket\r\n"
      + "Sec-WebSocket-Extensions: permessage-deflate\r\n"
      + "Sec-WebSocket-Extensions: x-other\r\nX-Empty:\r\n\r\n").utf8)

  @Test func parsesARequestHeadWithLowercasedAndJoinedHeaders() throws {
    #expect(try HTTPHeadCodec.headLength(in: request + Array("body".utf8)) == request.count)
    let head = try HTTPHeadCodec.parseRequest(request)
    #expect(head.method == "GET")
    #expect(head.target == "/api/ws/servers?x=1")
    #expect(head.headers["host"] == "bee.example")
    #expect(head.headers["sec-websocket-extensions"] == "permessage-deflate, x-other")
    #expect(head.headers["x-empty"] == "")
  }

  @Test func parsesAResponseHeadAndRoundTripsSerialization() throws {
    let text =
      "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nWWW-Authenticate:  Bearer \r\n\r\n"
    let head = try HTTPHeadCodec.parseResponse(Array(text.utf8))
    #expect(head.status == 401)
    #expect(head.reason == "Unauthorized")
    #expect(head.headers["www-authenticate"] == "Bearer")
    #expect(try HTTPHeadCodec.parseResponse(head.serialized) == head)
    #expect(
      try HTTPHeadCodec.parseRequest(try HTTPHeadCodec.parseRequest(request).serialized)
        == HTTPHeadCodec.parseRequest(request))
  }

  /// Found by `fuzz-http-head`: the request line was always written as `HTTP/1.1`.
  /// The head written as bytes is the text the codec used to build: the start line, the
  /// fields sorted by name, a blank line.
  @Test func serializationWritesTheSortedFieldsAfterTheStartLine() {
    let headers: HTTPHeaders = ["Zeta": "z", "accept": "*/*", "X-Émoji": "🐝 ok", "b": ""]
    var text = "POST /v1/send HTTP/1.1\r\n"
    for (name, value) in headers.fields.sorted(by: { $0.key < $1.key }) {
      text += "\(name): \(value)\r\n"
    }
    text += "\r\n"
    #expect(
      HTTPHeadCodec.serialize(startLine: "POST /v1/send HTTP/1.1", headers: headers)
        == Array(text.utf8))
    let empty = HTTPHeadCodec.serialize(startLine: "GET / HTTP/1.1", headers: [:])
    #expect(empty == Array("GET / HTTP/1.1\r\n\r\n".utf8))
  }

  @Test func anHTTP10RequestSerializesAsHTTP10() throws {
    let head = try HTTPHeadCodec.parseRequest(Array("GET / HTTP/1.0\r\nX-A: 1\r\n\r\n".utf8))
    #expect(head.version == "HTTP/1.0")
    #expect(head.serialized == Array("GET / HTTP/1.0\r\nx-a: 1\r\n\r\n".utf8))
    #expect(try HTTPHeadCodec.parseRequest(head.serialized) == head)
  }

  /// Found by `fuzz-http-request`: `Upgrade: websocket` then an empty `Upgrade:` joined to
  /// `"websocket, "`, which serialized and parsed again as `"websocket,"`.
  @Test func aRepeatedHeaderWithAnEmptyValueRoundTrips() throws {
    let text = "GET / HTTP/1.1\r\nUpgrade: websocket\r\nUpgrade:\r\nX: \r\nX: b\r\n\r\n"
    let head = try HTTPHeadCodec.parseRequest(Array(text.utf8))
    #expect(head.headers["upgrade"] == "websocket,")
    #expect(head.headers["x"] == ", b")
    #expect(try HTTPHeadCodec.parseRequest(head.serialized) == head)
  }

  @Test func incompleteHeadNeedsMoreBytesAtEveryCut() throws {
    for cut in 0..<request.count {
      #expect(try HTTPHeadCodec.headLength(in: request[0..<cut]) == nil)
    }
  }

  @Test func oversizeHeadIsRejectedWithoutATerminator() {
    let limits = HTTPHeadCodec.Limits(maxHeadBytes: 64)
    let long = Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100)).utf8)
    #expect(throws: HTTPHeadError.tooLarge) {
      try HTTPHeadCodec.headLength(in: long, limits: limits)
    }
    #expect(throws: HTTPHeadError.tooLarge) {
      try HTTPHeadCodec.parseRequest(request, limits: limits)
    }
  }

  @Test func tooManyHeadersAreRejected() {
    let limits = HTTPHeadCodec.Limits(maxHeaderCount: 2)
    #expect(throws: HTTPHeadError.tooManyHeaders) {
      try HTTPHeadCodec.parseRequest(request, limits: limits)
    }
  }

  @Test(arguments: [
    "GET / HTTP/2\r\n\r\n", "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "\r\n\r\n",
    "G@T / HTTP/1.1\r\n\r\n",
  ])
  func malformedRequestLinesAreRejected(text: String) {
    #expect(throws: HTTPHeadError.malformedStartLine) {
      try HTTPHeadCodec.parseRequest(Array(text.utf8))
    }
  }

  @Test(arguments: [
    "GET / HTTP/1.1\r\nNoColon\r\n\r\n", "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
    "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", "GET / HTTP/1.1\r\nA: b\nC: d\r\n\r\n",
    "GET / HTTP/1.1\r\nA: b\u{7F}\r\n\r\n", "GET / HTTP/1.1\r\n: empty\r\n\r\n",
  ])
  func malformedHeaderLinesAreRejected(text: String) {
    #expect(throws: HTTPHeadError.self) { try HTTPHeadCodec.parseRequest(Array(text.utf8)) }
  }

  @Test(arguments: [
    "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n", "HTTP/1.1 099\r\n\r\n",
    "ICY 200 OK\r\n\r\n",
  ])
  func malformedStatusLinesAreRejected(text: String) {
    #expect(throws: HTTPHeadError.malformedStartLine) {
      try HTTPHeadCodec.parseResponse(Array(text.utf8))
    }
  }
}
