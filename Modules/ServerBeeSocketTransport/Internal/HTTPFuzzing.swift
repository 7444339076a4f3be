public import ServerBeeTransport

/// Entry points for the fuzz targets in `Fuzz/` (a separate package, so `package` declarations
/// are out of its reach): the HTTP/1.1 head codec, the server's request framing and the
/// WebSocket upgrade checks, as pure functions over public value types. Not API: import with
/// `@_spi(Fuzzing)` only.
@_spi(Fuzzing) public enum HTTPFuzzing {
  /// A parsed request head.
  public struct Request: Sendable, Hashable {
    /// The method token.
    public var method: String
    /// The request target.
    public var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The header fields.
    public var headers: HTTPHeaders

    init(_ head: HTTPRequestHead) {
      (method, target, version, headers) = (head.method, head.target, head.version, head.headers)
    }

    var head: HTTPRequestHead {
      HTTPRequestHead(method: method, target: target, headers: headers, version: version)
    }

    /// The head as the codec writes it.
    public var serialized: [UInt8] { head.serialized }
  }

  /// A parsed response head.
  public struct Response: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The reason phrase.
    public var reason: String
    /// The header fields.
    public var headers: HTTPHeaders

    init(_ head: HTTPResponseHead) {
      (status, reason, headers) = (head.status, head.reason, head.headers)
    }

    var head: HTTPResponseHead {
      HTTPResponseHead(status: status, reason: reason, headers: headers)
    }

    /// The head as the codec writes it.
    public var serialized: [UInt8] { head.serialized }
  }

  /// Why the codec or a handshake check refused its input.
  public struct Failure: Error, Sendable, Hashable {
    /// What was wrong.
    public var reason: String

    init(reason: String) { self.reason = reason }

    // A switch, not string interpolation: reflection would dominate a fuzz run.
    init(_ error: HTTPHeadError) {
      switch error {
      case .tooLarge: reason = "too large"
      case .tooManyHeaders: reason = "too many headers"
      case .malformedStartLine: reason = "malformed start line"
      case .malformedHeader: reason = "malformed header"
      }
    }
  }

  /// What the server's framing makes of the bytes received so far.
  public enum Framing: Sendable, Hashable {
    /// A whole request, its body, and how many bytes it used.
    case complete(Request, body: [UInt8], consumed: Int)
    /// More bytes are needed.
    case incomplete(expectsContinue: Bool)
    /// Answered with `status`, then the connection closes.
    case reject(status: Int)
  }

  /// ``HTTPHeadCodec/headLength(in:limits:)``.
  /// - Parameters:
  ///   - bytes: The bytes received so far.
  ///   - maxHeadBytes: The head size limit.
  ///   - maxHeaderCount: The header line limit.
  /// - Returns: The head length, or `nil` when more bytes are needed.
  /// - Throws: ``Failure``.
  public static func headLength(
    in bytes: [UInt8], maxHeadBytes: Int, maxHeaderCount: Int
  ) throws(Failure) -> Int? {
    do {
      return try HTTPHeadCodec.headLength(
        in: bytes, limits: .init(maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount))
    } catch {
      throw Failure(error)
    }
  }

  /// ``HTTPHeadCodec/parseRequest(_:limits:)``.
  /// - Parameters:
  ///   - head: The head bytes.
  ///   - maxHeadBytes: The head size limit.
  ///   - maxHeaderCount: The header line limit.
  /// - Returns: The request head.
  /// - Throws: ``Failure``.
  public static func parseRequest(
    _ head: [UInt8], maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100
  ) throws(Failure) -> Request {
    do {
      return Request(
        try HTTPHeadCodec.parseRequest(
          head, limits: .init(maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount)))
    } catch {
      throw Failure(error)
    }
  }

  /// ``HTTPHeadCodec/parseResponse(_:limits:)``.
  /// - Parameters:
  ///   - head: The head bytes.
  ///   - maxHeadBytes: The head size limit.
  ///   - maxHeaderCount: The header line limit.
  /// - Returns: The response head.
  /// - Throws: ``Failure``.
  public static func parseResponse(
    _ head: [UInt8], maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100
  ) throws(Failure) -> Response {
    do {
      return Response(
        try HTTPHeadCodec.parseResponse(
          head, limits: .init(maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount)))
    } catch {
      throw Failure(error)
    }
  }

  /// The server's request framing (``HTTPServerConnection``).
  /// - Parameters:
  ///   - buffer: The bytes received so far.
  ///   - maxBodySize: The body limit.
  ///   - maxHeadBytes: The head size limit.
  ///   - maxHeaderCount: The header line limit.
  /// - Returns: The framing decision.
  public static func frameRequest(
    _ buffer: [UInt8], maxBodySize: Int, maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100
  ) -> Framing {
    let limits = HTTPHeadCodec.Limits(maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount)
    switch HTTPRequestParser.parse(buffer, maxBodySize: maxBodySize, limits: limits) {
    case .complete(let head, let body, let consumed):
      return .complete(Request(head), body: body, consumed: consumed)
    case .incompleteHead: return .incomplete(expectsContinue: false)
    case .incompleteBody(_, let expectsContinue):
      return .incomplete(expectsContinue: expectsContinue)
    case .reject(let status, _, _): return .reject(status: status)
    }
  }

  /// The server side of an upgrade: validates the request and builds the `101` it answers
  /// with (permessage-deflate negotiated from the request's offer).
  /// - Parameter request: The request head.
  /// - Returns: The client's key and the `101` response.
  /// - Throws: ``Failure`` when the server answers 400.
  public static func acceptUpgrade(_ request: Request) throws(Failure) -> (
    key: String, response: Response
  ) {
    do {
      let key = try WebSocketHandshake.validateRequest(request.head)
      let negotiated = PerMessageDeflateParameters.negotiate(
        offers: request.headers["sec-websocket-extensions"])
      let response = WebSocketHandshake.switchingProtocols(
        key: key, extensions: negotiated?.response)
      return (key, Response(response))
    } catch {
      throw Failure(reason: error.detail)
    }
  }

  /// The client side of an upgrade: checks the server's response.
  /// - Parameters:
  ///   - response: The response head.
  ///   - key: The key the client sent.
  ///   - offeredCompression: Whether the client offered permessage-deflate.
  /// - Returns: Whether compression was negotiated.
  /// - Throws: ``ServerBeeTransportError`` as the client reports it.
  public static func checkUpgradeResponse(
    _ response: Response, key: String, offeredCompression: Bool
  ) throws(ServerBeeTransportError) -> Bool {
    try WebSocketHandshake.validateResponse(
      response.head, key: key, offeredCompression: offeredCompression) != nil
  }

  /// The server's permessage-deflate choice for a client's offers, and what a client reads
  /// back from that answer.
  /// - Parameter offers: The `Sec-WebSocket-Extensions` request header.
  /// - Returns: `nil` when the server declines; else its answer, its parameters and the
  ///   client's reading of the answer (`server_no_context_takeover`,
  ///   `client_no_context_takeover`, `server_max_window_bits`), or the client's refusal.
  public static func negotiateDeflate(offers: String) -> (
    answer: String, server: [String], client: Result<[String], Failure>
  )? {
    guard let (answer, parameters) = PerMessageDeflateParameters.negotiate(offers: offers)
    else { return nil }
    let client: Result<[String], Failure>
    do {
      client = .success(describe(try PerMessageDeflateParameters.acceptResponse(answer)))
    } catch {
      client = .failure(Failure(reason: error.detail))
    }
    return (answer, describe(parameters), client)
  }

  /// How a client reads a server's `Sec-WebSocket-Extensions` answer.
  /// - Parameter answer: The header value.
  /// - Returns: The parameters read (see ``negotiateDeflate(offers:)``), `nil` when declined.
  /// - Throws: ``Failure`` when the client refuses the answer.
  public static func readDeflateAnswer(_ answer: String) throws(Failure) -> [String]? {
    do {
      return try PerMessageDeflateParameters.acceptResponse(answer).map(describe)
    } catch {
      throw Failure(reason: error.detail)
    }
  }

  private static func describe(_ parameters: PerMessageDeflateParameters?) -> [String] {
    guard let parameters else { return [] }
    var result: [String] = []
    if parameters.serverNoContextTakeover { result.append("server_no_context_takeover") }
    if parameters.clientNoContextTakeover { result.append("client_no_context_takeover") }
    if let bits = parameters.serverMaxWindowBits { result.append("server_max_window_bits=\(bits)") }
    return result
  }
}
