import Foundation
import ServerBeeModels
public import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// HTTP/1.1 on the native TCP + TLS stack (OpenSSL), the Linux default: the same `TLSTrust`
/// as ``SocketWebSocketTransport`` (system store, an extra CA file, SHA-256 pins), a total
/// deadline per request and a cap on the response size, so no server can hold a request open
/// or fill memory. Redirects are never followed (a `3xx` is returned as it is).
///
/// ```swift
/// let http = SocketHTTPTransport(configuration: .init(
///   timeout: .seconds(15), tls: TLSTrust(additionalCAFile: caFile)))
/// let response = try await http.send(HTTPRequest(url: serverURL.endpoint("/api/servers")))
/// ```
///
/// Connections are kept alive per origin (scheme, host, port) and reused: at most
/// ``Configuration/maxIdleConnectionsPerOrigin`` idle ones, each for at most
/// ``Configuration/idleTimeout``. A kept connection the server has closed meanwhile is noticed
/// before it is reused; if one fails before any answer arrived, an idempotent request (`GET`,
/// `HEAD`, `PUT`, `DELETE`, `OPTIONS`) is sent once more on a new connection, and any other
/// request fails with `connectionLost` (never sent twice behind the caller's back, RFC 9110
/// §9.2.2). A connection is kept only after a complete, framed response without
/// `connection: close`.
///
/// The whole exchange — name resolution aside, which cannot be interrupted — runs on a thread of
/// its own, never on the cooperative pool; cancelling the calling task ends it (and discards the
/// connection).
public final class SocketHTTPTransport: HTTPTransport {
  /// Settings with the documented defaults.
  public struct Configuration: Sendable, Hashable {
    /// The total time one request may take: connect, TLS, sending, and the whole response
    /// (a server trickling bytes is cut off at this deadline); 30 s by default.
    public var timeout: Duration
    /// The largest response body accepted, after de-chunking; 16 MiB by default.
    public var maxResponseSize: Int
    /// What `https` connections trust; the system CA store by default.
    public var tls: TLSTrust
    /// How many idle connections are kept per origin; 4 by default, 0 for a new connection per
    /// request (`connection: close`).
    public var maxIdleConnectionsPerOrigin: Int
    /// How long an idle connection is kept before it is closed; 4 s by default, below the
    /// shortest idle limit common servers and proxies use (5 s), so a kept connection is very
    /// unlikely to be closed by the server just as a request is sent on it.
    public var idleTimeout: Duration

    /// Creates a configuration.
    /// - Parameters:
    ///   - timeout: The total time per request.
    ///   - maxResponseSize: The largest response body.
    ///   - tls: What `https` trusts.
    ///   - maxIdleConnectionsPerOrigin: Idle connections kept per origin (0: no keep-alive).
    ///   - idleTimeout: How long an idle connection is kept.
    public init(
      timeout: Duration = .seconds(30), maxResponseSize: Int = 16 << 20, tls: TLSTrust = TLSTrust(),
      maxIdleConnectionsPerOrigin: Int = 4, idleTimeout: Duration = .seconds(4)
    ) {
      self.timeout = timeout
      self.maxResponseSize = maxResponseSize
      self.tls = tls
      self.maxIdleConnectionsPerOrigin = maxIdleConnectionsPerOrigin
      self.idleTimeout = idleTimeout
    }
  }

  private let configuration: Configuration
  private let pool: HTTPConnectionPool

  /// Creates a transport.
  /// - Parameter configuration: The settings.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    pool = HTTPConnectionPool(
      maxIdlePerOrigin: configuration.maxIdleConnectionsPerOrigin,
      idleTimeout: configuration.idleTimeout)
  }

  deinit { pool.closeAll() }

  /// How many idle connections are kept right now (all origins); for tests and diagnostics.
  package var idleConnectionCount: Int { pool.idleCount }

  /// How many connections this transport has opened so far; for tests and diagnostics.
  package var openedConnectionCount: Int { pool.openedCount }

  /// Performs one exchange; every status is returned, none is thrown.
  /// - Parameter request: The request; `http` or `https` only.
  /// - Returns: The response with its whole body.
  /// - Throws: `ServerBeeTransportError`: `invalidURL`, `nameResolutionFailed`,
  ///   `connectionRefused`, `connectionFailed`, `timedOut` (the total deadline),
  ///   `tlsUntrustedCertificate`, `tlsHostnameMismatch`, `tlsPinMismatch`,
  ///   `tlsHandshakeFailed`, `malformedHTTPHead` (also a bad chunk or length),
  ///   `responseTooLarge`, `connectionLost`; or `CancellationError`.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let exchange = try prepare(request, checkingCancellation: true)
    let wake = try WakePipe()
    return try await BlockingIO.run(wake: wake) { try exchange(wake) }.value
  }

  /// ``send(_:)`` on the calling thread, which may block: no task, no thread of its own. For a
  /// caller that already runs on a thread of its own (the simulator's outbox workers send every
  /// push to the relay this way; each send through ``send(_:)`` started a thread and a task).
  /// `wake` interrupts the waits when it is cancelled; it may serve many calls in a row, one at
  /// a time. Same connections, limits, deadline and errors as ``send(_:)`` (but no
  /// `CancellationError` unless `wake` is cancelled).
  package func sendBlocking(_ request: HTTPRequest, wake: WakePipe) throws -> HTTPResponse {
    try prepare(request, checkingCancellation: false)(wake)
  }

  /// Checks `request` and returns the exchange that sends it and reads the answer, to run on a
  /// thread that may block.
  private func prepare(_ request: HTTPRequest, checkingCancellation: Bool) throws
    -> @Sendable (WakePipe) throws -> HTTPResponse
  {
    let scheme = request.url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https", let host = request.url.host, !host.isEmpty
    else {
      throw ServerBeeTransportError(.invalidURL, "an HTTP URL needs http:// or https:// and a host")
    }
    for (name, value) in request.headers where !HTTPHeadCodec.isValidField(name: name, value: value)
    {
      throw ServerBeeTransportError(
        .invalidURL, "the header '\(name)' is not a valid HTTP field")
    }
    if checkingCancellation { try Task.checkCancellation() }
    let secure = scheme == "https"
    let port = UInt16(clamping: request.url.port ?? (secure ? 443 : 80))
    let configuration = configuration
    let pool = pool
    let origin = HTTPOrigin(secure: secure, host: host, port: port)
    let keepAlive = configuration.maxIdleConnectionsPerOrigin > 0
    let bytes =
      Self.serialize(request, host: host, port: port, secure: secure, keepAlive: keepAlive)
      + Array(request.body)
    let timeout = request.timeout(within: configuration.timeout)
    return { (wake: WakePipe) throws -> HTTPResponse in
      let deadline = ContinuousClock.now.advanced(by: timeout)
      if let kept = pool.take(origin) {
        do {
          return try Self.exchange(
            bytes, method: request.method, on: kept, origin: origin, pool: pool,
            configuration: configuration, deadline: deadline, wake: wake)
        } catch let error as ServerBeeTransportError
          where error.code == .connectionLost && request.method.isIdempotent
        {
          // The server closed the kept connection as we used it: nothing was answered, and
          // sending an idempotent request again is safe. Anything else fails as it is.
        }
      }
      let descriptor = try TCPConnector.connect(
        host: host, port: port, deadline: deadline, wake: wake)
      let stream: any ByteStream =
        secure
        ? try TLSStream(
          descriptor: descriptor, host: host, trust: configuration.tls, deadline: deadline,
          wake: wake)
        : PlainStream(descriptor: descriptor)
      pool.countOpened()
      return try Self.exchange(
        bytes, method: request.method, on: HTTPPooledStream(stream), origin: origin, pool: pool,
        configuration: configuration, deadline: deadline, wake: wake)
    }
  }

  /// Sends `bytes` and reads the response on `connection`, then keeps the connection for the
  /// next request when the response allows it, or closes it.
  private static func exchange(
    _ bytes: [UInt8], method: HTTPMethod, on connection: HTTPPooledStream, origin: HTTPOrigin,
    pool: HTTPConnectionPool, configuration: Configuration, deadline: ContinuousClock.Instant,
    wake: WakePipe
  ) throws -> HTTPResponse {
    var kept = false
    defer { if !kept { connection.stream.close() } }
    try BlockingIO.writeAll(bytes, to: connection.stream, deadline: deadline, wake: wake)
    var reader = HTTPResponseReader(
      stream: connection.stream, deadline: deadline, wake: wake,
      limit: configuration.maxResponseSize)
    let response = try reader.read(method: method)
    if configuration.maxIdleConnectionsPerOrigin > 0, reader.allowsReuse {
      kept = pool.keep(connection, for: origin)
    }
    return response
  }

  static func serialize(
    _ request: HTTPRequest, host: String, port: UInt16, secure: Bool, keepAlive: Bool = false
  ) -> [UInt8] {
    var headers = request.headers
    let defaultPort: UInt16 = secure ? 443 : 80
    let hostName = host.contains(":") ? "[\(host)]" : host
    headers["host"] = port == defaultPort ? hostName : "\(hostName):\(port)"
    headers["connection"] = keepAlive ? "keep-alive" : "close"
    headers["content-length"] = nil
    headers["transfer-encoding"] = nil
    if !request.body.isEmpty || request.method == .post || request.method == .put
      || request.method == .patch
    {
      headers["content-length"] = String(request.body.count)
    }
    var target: String
    if let path = PlainURLPath.of(request.url) {
      target = String(path)  // what `URLComponents` gives it, without parsing it again
    } else {
      target = request.url.path.isEmpty ? "/" : request.url.path
      if let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
        target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
      }
    }
    return HTTPHeadCodec.serialize(
      startLine: "\(request.method.rawValue) \(target) HTTP/1.1", headers: headers)
  }
}

/// Reads one response: the head, then a `content-length`, chunked or close-delimited body, each
/// bounded by the size limit and the deadline. ``allowsReuse`` then says whether the connection
/// may carry another request.
struct HTTPResponseReader {
  let stream: any ByteStream
  let deadline: ContinuousClock.Instant
  let wake: WakePipe
  let limit: Int
  private var buffered: [UInt8] = []
  private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
  private var ended = false
  /// Whether the connection can carry another request: an HTTP/1.1 response without
  /// `connection: close`, framed by length or chunks, with nothing read past its end.
  private(set) var allowsReuse = false

  init(stream: any ByteStream, deadline: ContinuousClock.Instant, wake: WakePipe, limit: Int) {
    self.stream = stream
    self.deadline = deadline
    self.wake = wake
    self.limit = limit
  }

  mutating func read(method: HTTPMethod) throws -> HTTPResponse {
    var head: HTTPResponseHead
    var version11 = false
    repeat {
      let (bytes, leftover) = try BlockingIO.readHead(
        from: stream, deadline: deadline, wake: wake, leftover: buffered)
      buffered = leftover
      do {
        head = try HTTPHeadCodec.parseResponse(bytes)
      } catch {
        throw ServerBeeTransportError(.malformedHTTPHead, "the response head is malformed")
      }
      version11 = bytes.starts(with: Array("HTTP/1.1 ".utf8))
    } while (100..<200).contains(head.status)  // interim answers (100 Continue) carry no body
    // Names are lowercased already (copying them into new headers lowercased them again).
    let headers = head.headers
    let closes = !version11 || head.headers["connection"].map(Self.saysClose) == true
    if method == .head || head.status == 204 || head.status == 304 {
      allowsReuse = !closes && buffered.isEmpty
      return HTTPResponse(status: head.status, headers: headers)
    }
    let body: [UInt8]
    var framed = true
    if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
      body = try readChunked()
    } else if let text = head.headers["content-length"] {
      guard let length = HTTPHeadCodec.contentLength(text) else {
        throw ServerBeeTransportError(.malformedHTTPHead, "the content-length is not a number")
      }
      guard length <= limit else { throw tooLarge() }
      body = try readExactly(length)
    } else {
      body = try readToEnd()
      framed = false
    }
    allowsReuse = framed && !closes && buffered.isEmpty
    return HTTPResponse(status: head.status, headers: headers, body: Data(body))
  }

  /// Whether a `connection` value lists `close` (any case, any whitespace around it). A value
  /// without the letters `close` in it cannot, so it is not split (which trimmed every part
  /// with Foundation's character sets, about 10 k instructions a response).
  static func saysClose(_ value: String) -> Bool {
    let lowered = value.lowercased()
    let bytes = Array(lowered.utf8)
    guard bytes.indices.contains(where: { bytes[$0...].starts(with: "close".utf8) }) else {
      return false
    }
    return lowered.split(separator: ",").contains {
      $0.trimmingCharacters(in: .whitespaces) == "close"
    }
  }

  private func tooLarge() -> ServerBeeTransportError {
    ServerBeeTransportError(
      .responseTooLarge, "the response is larger than \(limit) bytes")
  }

  /// Reads more bytes into `buffered`; `false` at the end of the stream.
  private mutating func fill() throws -> Bool {
    if ended { return false }
    let stream = self.stream
    while true {
      switch try scratch.withUnsafeMutableBytes({ try stream.read(into: $0) }) {
      case .bytes(let count):
        buffered.append(contentsOf: scratch[0..<count])
        return true
      case .endOfStream:
        ended = true
        return false
      case .wouldBlock:
        try wake.wait(
          for: stream.descriptor, events: Int16(POLLIN), until: deadline, what: "the response")
      }
    }
  }

  private mutating func readExactly(_ length: Int) throws -> [UInt8] {
    while buffered.count < length {
      guard try fill() else {
        throw ServerBeeTransportError(.connectionLost, "the server closed before the body ended")
      }
    }
    let body = Array(buffered[0..<length])
    buffered.removeFirst(length)
    return body
  }

  private mutating func readToEnd() throws -> [UInt8] {
    // Checked before the first read too: the whole body may have come with the head (found by
    // fuzz-http-response, which saw an oversized body accepted when it arrived in one read).
    repeat {
      if buffered.count > limit { throw tooLarge() }
    } while try fill()
    return buffered
  }

  /// One CRLF-terminated line (chunk sizes, trailers), at most 8 KiB.
  private mutating func readLine() throws -> [UInt8] {
    var searched = 0  // bytes already known to hold no CRLF, so each byte is scanned once
    while true {
      if let end = Self.crlf(in: buffered, from: max(0, searched - 1)) {
        // The same limit whether the line arrived in one read or trickled in.
        guard end <= 8192 else {
          throw ServerBeeTransportError(.malformedHTTPHead, "a chunk line is too long")
        }
        let line = Array(buffered[0..<end])
        buffered.removeFirst(end + 2)
        return line
      }
      guard buffered.count <= 8192 else {
        throw ServerBeeTransportError(.malformedHTTPHead, "a chunk line is too long")
      }
      searched = buffered.count
      guard try fill() else {
        throw ServerBeeTransportError(.connectionLost, "the server closed inside a chunked body")
      }
    }
  }

  private mutating func readChunked() throws -> [UInt8] {
    var body: [UInt8] = []
    while true {
      let line = try readLine()
      let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
      guard !sizeText.isEmpty, sizeText.count <= 16,
        let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16), size >= 0
      else { throw ServerBeeTransportError(.malformedHTTPHead, "a chunk size is malformed") }
      if size == 0 {
        while try !readLine().isEmpty {}  // trailers end with an empty line
        return body
      }
      guard body.count + size <= limit else { throw tooLarge() }
      body += try readExactly(size)
      guard try readLine().isEmpty else {
        throw ServerBeeTransportError(.malformedHTTPHead, "a chunk does not end with CRLF")
      }
    }
  }

  private static func crlf(in bytes: [UInt8], from start: Int = 0) -> Int? {
    guard bytes.count >= 2, start < bytes.count - 1 else { return nil }
    for index in start..<(bytes.count - 1) where bytes[index] == 13 && bytes[index + 1] == 10 {
      return index
    }
    return nil
  }
}

extension HTTPMethod {
  /// Whether RFC 9110 §9.2.2 calls the method idempotent, so a request may be sent again after
  /// a connection failed before any answer.
  var isIdempotent: Bool { [.get, .head, .put, .delete, .options].contains(self) }
}
