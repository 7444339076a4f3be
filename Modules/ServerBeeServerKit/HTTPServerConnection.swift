import Foundation
import ServerBeeModels
package import ServerBeeSocketTransport
package import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One accepted HTTP/1.1 connection (plain or TLS) that yields requests until the peer closes,
/// stays idle too long, or a response ends it: keep-alive for the simulator.
///
/// ```swift
/// let connection = try await HTTPServerConnection(socket: try await listener.accept())
/// while let request = try await connection.next() {
///   await request.respond(HTTPResponseHead(status: 200, reason: "OK", headers: [:]))
/// }
/// ```
///
/// Each request must be answered (``HTTPServerRequest/respond(_:body:)``) before the next
/// ``next(timeout:maxBodySize:limits:)``; an upgrade (``HTTPServerRequest/acceptWebSocket(options:)``)
/// hands the socket to the WebSocket and ends the HTTP exchange. Bad requests are answered here
/// (400, 408, 413, 431, 501, all with `connection: close`) before ``next(timeout:maxBodySize:limits:)``
/// throws, and `Expect: 100-continue` gets its interim `100` before the body is read.
///
/// Threading: reads and writes are tried without blocking first; only when the socket is not
/// ready does the wait move to the connection's own thread (started on first need, reused for
/// every later request), never the cooperative pool.
/// ``close()`` may be called from any thread, for example to shut a server down.
package final class HTTPServerConnection: @unchecked Sendable {
  // @unchecked: `stream`, `buffer`, `scratch` and `continueSent` are used by one thread at a
  // time (the caller's sequence next → respond → next, each step awaited); cross-thread state
  // (`shared`) is behind a lock.
  /// The peer's IP address, for example `127.0.0.1`; empty when unknown.
  package let peerAddress: String
  /// Whether the connection is TLS.
  package let isTLS: Bool
  let wake: WakePipe
  private let worker = BlockingWorker()
  private let stream: any ByteStream
  private var buffer: [UInt8] = []
  private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
  private var continueSent = false
  private let shared = Locked(Shared())
  private let rejection: HTTPServerRejection.Provider?

  private struct Shared {
    var closed = false
    var webSocket: SocketWebSocketConnection?
    /// Between writing `101` and handing the socket to the WebSocket: a ``close()`` then must
    /// not cut the socket (the peer would see no close frame) but close the WebSocket once it
    /// exists.
    var upgrading = false
    var closeRequested = false
  }

  /// Takes over an accepted socket, performing the TLS server handshake when `tls` is given.
  /// - Parameters:
  ///   - socket: The accepted socket.
  ///   - tls: The certificate and key to serve TLS with, or `nil` for plain TCP.
  ///   - handshakeTimeout: How long the TLS handshake may take; 10 s by default.
  ///   - rejection: Headers and body for the requests this connection rejects itself (400,
  ///     408, 413, 431, 501), by status; `nil` (the default) answers them with an empty body.
  /// - Throws: ``ServerBeeTransportError`` (`connectionClosed` when the socket was taken,
  ///   `tlsHandshakeFailed`, `timedOut`, `connectionLost`) or `CancellationError`.
  package init(
    socket: AcceptedSocket, tls: TLSServerIdentity? = nil,
    handshakeTimeout: Duration = .seconds(10), rejection: HTTPServerRejection.Provider? = nil
  ) async throws {
    self.rejection = rejection
    guard let descriptor = socket.take() else {
      throw ServerBeeTransportError(.connectionClosed, "the socket was already taken")
    }
    peerAddress = socket.peerAddress
    isTLS = tls != nil
    let wake: WakePipe
    do {
      wake = try WakePipe()
    } catch {
      Posix.closeDescriptor(descriptor)
      throw error
    }
    self.wake = wake
    if let tls {
      let deadline = ContinuousClock.now.advanced(by: handshakeTimeout)
      stream = try await BlockingIO.run(wake: wake) { () throws -> any ByteStream in
        try TLSStream(descriptor: descriptor, identity: tls, deadline: deadline, wake: wake)
      }.value
    } else {
      stream = PlainStream(descriptor: descriptor)
    }
  }

  /// Reads the next request on the connection.
  /// - Parameters:
  ///   - timeout: How long the whole request may take to arrive, counted from this call (so
  ///     also the keep-alive idle limit); 10 s by default.
  ///   - maxBodySize: The largest `content-length` body accepted; 1 MiB by default.
  ///   - limits: The head limits; 16 KiB and 100 header lines by default.
  /// - Returns: The request, or `nil` when the connection is over: the peer closed or stayed
  ///   idle between requests, a response said `connection: close`, or ``close()`` was called.
  /// - Throws: ``ServerBeeTransportError`` after the connection was answered and closed:
  ///   `malformedHTTPHead` (400, 413, 431 or 501 sent), `timedOut` (408 sent, part of a request
  ///   had arrived), `connectionLost`, `connectionClosed` (after an upgrade); or
  ///   `CancellationError`.
  package func next(
    timeout: Duration = .seconds(10), maxBodySize: Int = 1 << 20,
    limits: HTTPHeadCodec.Limits = HTTPHeadCodec.Limits()
  ) async throws -> HTTPServerRequest? {
    let (closed, upgraded) = shared.withLock { ($0.closed, $0.webSocket != nil) }
    if upgraded {
      throw ServerBeeTransportError(.connectionClosed, "the connection was upgraded")
    }
    if closed { return nil }
    let deadline = ContinuousClock.now.advanced(by: timeout)
    do {
      var outcome = try readRequest(
        deadline: deadline, blocking: false, maxBodySize: maxBodySize, limits: limits)
      if case .wouldBlock = outcome {
        outcome = try await worker.run(wake: wake) { [self] in
          try readRequest(
            deadline: deadline, blocking: true, maxBodySize: maxBodySize, limits: limits)
        }.value
      }
      switch outcome {
      case .request(let head, let body):
        return HTTPServerRequest(head: head, body: body, connection: self)
      case .closed, .wouldBlock:
        finish()
        return nil
      }
    } catch {
      finish()
      throw error
    }
  }

  /// Runs blocking work of a request handler (disk, database locks) on the connection's own
  /// thread, so it stays off the cooperative pool like the socket waits do.
  ///
  /// ```swift
  /// let response = try await connection.runBlocking { try database.answer(request.head) }
  /// ```
  /// - Parameter body: The work; it runs after any wait of this connection has finished.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func runBlocking<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
  ) async throws -> Value {
    try await worker.run(wake: wake, body).value
  }

  /// Closes the connection from any thread: shuts the socket down (a pending read or write ends)
  /// or, after an upgrade, starts the WebSocket close handshake with 1001.
  package func close() {
    let webSocket = shared.withLock { state -> SocketWebSocketConnection? in
      if let webSocket = state.webSocket { return webSocket }
      if state.upgrading {
        state.closeRequested = true
        return nil
      }
      if !state.closed {
        state.closed = true
        // The descriptor stays open (owned by `stream`) until deinit, so this cannot hit a reused
        // descriptor; the owner's thread sees the end of the stream.
        _ = shutdown(stream.descriptor, Int32(SHUT_RDWR))
      }
      return nil
    }
    webSocket?.beginClose(code: .goingAway, reason: "")
    if !shared.withLock({ $0.upgrading && $0.webSocket == nil }) { wake.cancel() }
  }

  /// Marks the start of an upgrade (before the `101` is written); `false` when already closed.
  func beginUpgrade() -> Bool {
    shared.withLock { state in
      guard !state.closed else { return false }
      state.upgrading = true
      return true
    }
  }

  /// Closes from the owning task (no read or write in flight): a TLS stream also sends its
  /// close_notify, which ``close()`` (any thread) must not.
  func finish() {
    shared.withLock { state in
      guard state.webSocket == nil, !state.closed else { return }
      state.closed = true
      state.upgrading = false
      stream.close()
    }
  }

  deinit {
    worker.stop()
    // After an upgrade the WebSocket owns the stream and closes it.
    if shared.withLock({ $0.webSocket == nil }) { stream.close() }
  }

  // MARK: - For HTTPServerRequest

  /// Writes one response; closes the connection unless `keepAlive` and the write succeeded.
  func send(_ head: HTTPResponseHead, body: [UInt8], keepAlive: Bool, headOnly: Bool) async {
    var head = head
    head.headers["content-length"] = String(body.count)
    head.headers["connection"] = keepAlive ? "keep-alive" : "close"
    let written = await write(head.serialized + (headOnly ? [] : body))
    if !written || !keepAlive { finish() }
  }

  /// Writes `bytes`, without a thread when the socket takes them at once; `false` on failure.
  func write(_ bytes: [UInt8], timeout: Duration = .seconds(10)) async -> Bool {
    guard shared.withLock({ !$0.closed }) else { return false }
    var offset = 0
    do {
      while offset < bytes.count {
        let count = try bytes.withUnsafeBytes {
          try stream.write(UnsafeRawBufferPointer(rebasing: $0[offset...]))
        }
        if count == 0 { break }
        offset += count
      }
      if offset == bytes.count, try stream.flush() { return true }
      let rest = Array(bytes[offset...])
      let deadline = ContinuousClock.now.advanced(by: timeout)
      _ = try await worker.run(wake: wake) { [self] in
        try BlockingIO.writeAll(rest, to: stream, deadline: deadline, wake: wake)
      }
      return true
    } catch {
      return false
    }
  }

  /// Hands the socket and any bytes already read after the request to a WebSocket.
  func upgrade(
    options: WebSocketOptions, clock: any Clock<Duration>
  ) throws -> SocketWebSocketConnection {
    let connection = try SocketWebSocketConnection(
      stream: stream, leftover: buffer, options: options, clock: clock)
    buffer = []
    let (handedOver, closeRequested) = shared.withLock { state -> (Bool, Bool) in
      state.upgrading = false
      guard !state.closed else { return (false, false) }
      state.webSocket = connection
      return (true, state.closeRequested)
    }
    guard handedOver else {
      throw ServerBeeTransportError(.connectionClosed, "the connection is closed")
    }
    connection.start()
    // A close() that came while the 101 was being written: close the WebSocket properly now.
    if closeRequested { connection.beginClose(code: .goingAway, reason: "") }
    return connection
  }

  // MARK: - Reading

  private enum Outcome {
    case request(HTTPRequestHead, [UInt8])
    case closed
    case wouldBlock
  }

  /// Parses buffered bytes and reads more until a request is complete. Without `blocking` it
  /// returns `.wouldBlock` instead of waiting or writing anything.
  private func readRequest(
    deadline: ContinuousClock.Instant, blocking: Bool, maxBodySize: Int,
    limits: HTTPHeadCodec.Limits
  ) throws -> Outcome {
    if wake.isCancelled { throw CancellationError() }
    while true {
      switch HTTPRequestParser.parse(buffer, maxBodySize: maxBodySize, limits: limits) {
      case .complete(let head, let body, let consumed):
        buffer.removeFirst(consumed)
        continueSent = false
        return .request(head, body)
      case .reject(let status, let reason, let detail):
        guard blocking else { return .wouldBlock }
        reject(status, reason)
        throw ServerBeeTransportError(.malformedHTTPHead, detail)
      case .incomplete(let expectsContinue):
        if expectsContinue && !continueSent {
          guard blocking else { return .wouldBlock }
          try BlockingIO.writeAll(
            Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: stream, deadline: deadline, wake: wake)
          continueSent = true
        }
      }
      switch try scratch.withUnsafeMutableBytes({ try stream.read(into: $0) }) {
      case .bytes(let count):
        buffer.append(contentsOf: scratch[0..<count])
      case .endOfStream:
        if buffer.isEmpty { return .closed }
        throw ServerBeeTransportError(.connectionLost, "the peer closed in the middle of a request")
      case .wouldBlock:
        guard blocking else { return .wouldBlock }
        do {
          try wake.wait(
            for: stream.descriptor, events: Int16(POLLIN), until: deadline, what: "the request")
        } catch let error as ServerBeeTransportError where error.code == .timedOut {
          if buffer.isEmpty { return .closed }  // an idle keep-alive connection
          reject(408, "Request Timeout")
          throw error
        }
      }
    }
  }

  /// Answers a bad request (bounded to 5 s, best effort); the caller then closes.
  private func reject(_ status: Int, _ reason: String) {
    let custom = rejection?(status)
    var headers = custom?.headers ?? [:]
    let body = custom?.body ?? []
    headers["content-length"] = String(body.count)
    headers["connection"] = "close"
    let head = HTTPResponseHead(status: status, reason: reason, headers: headers)
    try? BlockingIO.writeAll(
      head.serialized + body, to: stream,
      deadline: ContinuousClock.now.advanced(by: .seconds(5)), wake: wake)
  }
}

/// The headers and body a server wants on the answers that ``HTTPServerConnection`` writes by
/// itself (400 malformed head, 408 slow request, 413 body over the cap, 431 head too large,
/// 501 chunked body), so that those answers look like the server's own.
///
/// ```swift
/// let rejection: HTTPServerRejection.Provider = { status in
///   HTTPServerRejection(headers: ["content-type": "text/plain"], body: Array("no".utf8))
/// }
/// let connection = try await HTTPServerConnection(socket: socket, rejection: rejection)
/// ```
package struct HTTPServerRejection: Sendable, Hashable {
  /// Builds the rejection for a status, or `nil` for the default empty answer.
  package typealias Provider = @Sendable (_ status: Int) -> HTTPServerRejection?

  /// Extra headers; `content-length` and `connection: close` are always set by the connection.
  package var headers: HTTPHeaders
  /// The body.
  package var body: [UInt8]

  /// Creates a rejection.
  /// - Parameters:
  ///   - headers: Extra headers.
  ///   - body: The body.
  package init(headers: HTTPHeaders = [:], body: [UInt8] = []) {
    self.headers = headers
    self.body = body
  }
}
