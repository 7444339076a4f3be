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
/// ``next(timeout:headTimeout:idleTimeout:maxBodySize:limits:)``; an upgrade
/// (``HTTPServerRequest/acceptWebSocket(options:)``) hands the socket to the WebSocket and ends
/// the HTTP exchange. Bad requests are answered here (400, 408, 413, 431, 501, all with
/// `connection: close`) before ``next(timeout:headTimeout:idleTimeout:maxBodySize:limits:)``
/// throws, and `Expect: 100-continue` gets its interim `100` before the body is read.
///
/// Time limits (slowloris): a request has its own head deadline and whole-request deadline,
/// both counted from its start: from the first byte of the request, or, for the first request
/// on the connection, from the call right after accept (and the TLS handshake). Time spent idle
/// between keep-alive requests has its own limit and is not part of either.
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
  /// What the upload gate said about the request being received (reset by each `next`).
  private var gate = GateState.unasked
  /// When the request being received started; `nil` while idle between keep-alive requests.
  private var requestStart: ContinuousClock.Instant?
  /// Whether a request was returned before (so the connection is being kept alive).
  private var hasServed = false
  private let acceptedAt: ContinuousClock.Instant
  private let shared: Locked<Shared>
  private let rejection: HTTPServerRejection.Provider?
  /// Told when a WebSocket upgrade finds no descriptor left (the server's reporter).
  let onDescriptorsExhausted: (@Sendable () -> Void)?

  private struct Shared {
    var closed = false
    var webSocket: SocketWebSocketConnection?
    /// Between writing `101` and handing the socket to the WebSocket: a ``close()`` then must
    /// not cut the socket (the peer would see no close frame) but close the WebSocket once it
    /// exists.
    var upgrading = false
    var closeRequested = false
    /// What the connection is doing, for ``HTTPServer``'s load shedding.
    var activity: ConnectionActivity
    /// Set by ``shed()``: the owning thread ends the connection at its next step.
    var shedRequested = false
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
  package convenience init(
    socket: AcceptedSocket, tls: TLSServerIdentity? = nil,
    handshakeTimeout: Duration = .seconds(10), rejection: HTTPServerRejection.Provider? = nil
  ) async throws {
    try await self.init(
      socket: socket, tls: tls, handshakeTimeout: handshakeTimeout, rejection: rejection,
      wake: WakePipe())
  }

  /// The initializer above with the wake pipe made by the caller: ``HTTPServer`` keeps it to
  /// cancel a handshake it sheds before the connection exists.
  init(
    socket: AcceptedSocket, tls: TLSServerIdentity?, handshakeTimeout: Duration,
    rejection: HTTPServerRejection.Provider?, wake: WakePipe,
    onDescriptorsExhausted: (@Sendable () -> Void)? = nil
  ) async throws {
    self.rejection = rejection
    self.onDescriptorsExhausted = onDescriptorsExhausted
    guard let descriptor = socket.take() else {
      throw ServerBeeTransportError(.connectionClosed, "the socket was already taken")
    }
    peerAddress = socket.peerAddress
    acceptedAt = socket.acceptedAt
    shared = Locked(Shared(activity: .receiving(since: socket.acceptedAt)))
    isTLS = tls != nil
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
  ///
  /// A request starts with its first byte; the first request on the connection (and one whose
  /// bytes already arrived with the previous one) starts with this call. Before a kept-alive
  /// request starts, the connection waits at most `idleTimeout` and then ends without an answer.
  /// - Parameters:
  ///   - timeout: How long the whole request (head and body) may take, counted from its start;
  ///     10 s by default.
  ///   - headTimeout: How long its head may take, counted from its start (at most `timeout`);
  ///     `nil` (the default) for `timeout`.
  ///   - idleTimeout: How long a kept-alive connection may wait for the first byte of its next
  ///     request; `nil` (the default) for `timeout`.
  ///   - maxBodySize: The largest `content-length` body accepted; 1 MiB by default.
  ///   - limits: The head limits; 16 KiB and 100 header lines by default.
  ///   - uploadGate: Asked once the head has arrived without all of the body; `nil` (the
  ///     default) reads every body.
  /// - Returns: The request, or `nil` when the connection is over: the peer closed, sent
  ///   nothing in time, or stayed idle between requests; a response said `connection: close`;
  ///   or ``close()`` was called.
  /// - Throws: ``ServerBeeTransportError`` after the connection was answered and closed:
  ///   `malformedHTTPHead` (400, 413, 431 or 501 sent), `timedOut` (408 sent: part of a request
  ///   had arrived, but not all of it in time, or the server shed the connection to make room),
  ///   `connectionLost`, `connectionClosed` (after an upgrade); or `CancellationError`.
  package func next(
    timeout: Duration = .seconds(10), headTimeout: Duration? = nil, idleTimeout: Duration? = nil,
    maxBodySize: Int = 1 << 20, limits: HTTPHeadCodec.Limits = HTTPHeadCodec.Limits(),
    uploadGate: HTTPUploadGate? = nil
  ) async throws -> HTTPServerRequest? {
    let (closed, upgraded) = shared.withLock { ($0.closed, $0.webSocket != nil) }
    if upgraded {
      throw ServerBeeTransportError(.connectionClosed, "the connection was upgraded")
    }
    if closed { return nil }
    let now = ContinuousClock.now
    let budget = Budget(
      request: timeout, head: min(headTimeout ?? timeout, timeout),
      idleDeadline: now.advanced(by: idleTimeout ?? timeout), uploadGate: uploadGate)
    gate = .unasked
    if !hasServed || !buffer.isEmpty {
      requestStart = now
      let since = hasServed ? now : acceptedAt
      shared.withLock { $0.activity = .receiving(since: since) }
    } else {
      requestStart = nil
      shared.withLock { $0.activity = .idle(since: now) }
    }
    do {
      var outcome = try readRequest(
        budget, blocking: false, maxBodySize: maxBodySize, limits: limits)
      if case .wouldBlock = outcome {
        outcome = try await worker.run(wake: wake) { [self] in
          try readRequest(budget, blocking: true, maxBodySize: maxBodySize, limits: limits)
        }.value
      }
      switch outcome {
      case .request(let head, let body):
        hasServed = true
        var ticket: HTTPRequestTicket?
        if case .proceeding(let held) = gate { ticket = held }
        gate = .unasked
        return HTTPServerRequest(head: head, body: body, connection: self, ticket: ticket)
      case .closed, .wouldBlock:
        endGateTicket()
        finish()
        return nil
      }
    } catch {
      endGateTicket()
      finish()
      throw error
    }
  }

  /// Ends the ticket of a request the connection gave up on.
  private func endGateTicket() {
    if case .proceeding(let ticket) = gate { ticket?.end() }
    gate = .unasked
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

  /// The connection's activity for load shedding: `.handling` (never shed) once it is closed,
  /// shed or upgraded.
  var activity: ConnectionActivity {
    shared.withLock { state in
      state.closed || state.shedRequested || state.upgrading || state.webSocket != nil
        ? .handling : state.activity
    }
  }

  /// Asks the connection to end to make room for a new one, from any thread: the owning thread
  /// answers 408 when part of a request had arrived and closes, or closes silently when none
  /// had. Refused (`false`) while a complete request is being handled, after an upgrade, or
  /// once closed; then nothing changes. ``HTTPServer`` sheds at its connection cap; the relay
  /// also sheds an upload that holds an in-flight slot too long (see ``HTTPUploadGate``).
  package func shed() -> Bool {
    let accepted = shared.withLock { state -> Bool in
      guard !state.closed, !state.shedRequested, !state.upgrading, state.webSocket == nil,
        state.activity != .handling
      else { return false }
      state.shedRequested = true
      return true
    }
    // Not `cancel()`: the owning thread must still be able to write its 408.
    if accepted { wake.wake() }
    return accepted
  }

  /// Marks the start of an upgrade (before the `101` is written); `false` when already closed
  /// or shed (a shed that raced with the request's completion: no WebSocket outlives it).
  func beginUpgrade() -> Bool {
    shared.withLock { state in
      guard !state.closed, !state.shedRequested else { return false }
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
    if keepAlive {
      // Idle (first to be shed) from before the peer can see the response, so a client that
      // connects once it has its answer finds this connection sheddable. A shed now only takes
      // effect at the next read: the response is still written in full.
      shared.withLock { state in
        if state.activity == .handling { state.activity = .idle(since: .now) }
      }
    }
    let written = await write(
      ResponseBytes.make(
        head, contentLength: body.count, connection: keepAlive ? "keep-alive" : "close",
        body: headOnly ? [] : body))
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
    let connection: SocketWebSocketConnection
    do {
      connection = try SocketWebSocketConnection(
        stream: stream, leftover: buffer, options: options, clock: clock)
    } catch {
      // The `101` is out (no descriptor left for the WebSocket's wake pipe, say): close with
      // 1011 rather than leave the client with an open socket that never speaks.
      let close: [UInt8] = [0x88, 0x02, 0x03, 0xF3]
      _ = try? close.withUnsafeBytes { try stream.write($0) }
      _ = try? stream.flush()
      shared.withLock { $0.upgrading = false }
      finish()
      throw error
    }
    buffer = []
    // The WebSocket reads with its own buffer; this one would stay for the socket's life
    // (16 KiB per subscribed client).
    scratch = []
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
    // The WebSocket has its own I/O thread: the worker's would idle for the socket's life (a
    // thread and its malloc arena per client). Later `runBlocking` calls (a resync)
    // run on a one-off thread.
    worker.stop()
    // A close() that came while the 101 was being written: close the WebSocket properly now.
    if closeRequested { connection.beginClose(code: .goingAway, reason: "") }
    return connection
  }

  // MARK: - Reading

  private enum GateState {
    case unasked
    case proceeding(HTTPRequestTicket?)
    case answering(HTTPResponseHead, [UInt8])
  }

  private enum Outcome {
    case request(HTTPRequestHead, [UInt8])
    case closed
    case wouldBlock
  }

  /// The time limits of one ``next(timeout:headTimeout:idleTimeout:maxBodySize:limits:)``.
  private struct Budget {
    /// The whole request, from its start.
    var request: Duration
    /// The head, from the request's start; at most `request`.
    var head: Duration
    /// Until when an idle keep-alive connection waits for the next request's first byte.
    var idleDeadline: ContinuousClock.Instant
    /// Asked once the head of a request has arrived without all of its body.
    var uploadGate: HTTPUploadGate?
  }

  /// Parses buffered bytes and reads more until a request is complete. Without `blocking` it
  /// returns `.wouldBlock` instead of waiting or writing anything.
  private func readRequest(
    _ budget: Budget, blocking: Bool, maxBodySize: Int, limits: HTTPHeadCodec.Limits
  ) throws -> Outcome {
    if wake.isCancelled { throw CancellationError() }
    while true {
      let headComplete: Bool
      switch HTTPRequestParser.parse(buffer, maxBodySize: maxBodySize, limits: limits) {
      case .complete(let head, let body, let consumed):
        buffer.removeFirst(consumed)
        continueSent = false
        // Never shed from here on. If a shed raced in just before, the request is still
        // served and the connection ends at its next read (``shed()`` already gave up the
        // slot, so the cap is exceeded by this one request at most).
        shared.withLock { $0.activity = .handling }
        return .request(head, body)
      case .reject(let status, let reason, let detail):
        guard blocking else { return .wouldBlock }
        reject(status, reason)
        throw ServerBeeTransportError(.malformedHTTPHead, detail)
      case .incompleteHead:
        headComplete = false
      case .incompleteBody(let head, let expectsContinue):
        headComplete = true
        if case .unasked = gate, let uploadGate = budget.uploadGate {
          switch uploadGate(head, self) {
          case .proceed(let ticket): gate = .proceeding(ticket)
          case .answer(let head, let body): gate = .answering(head, body)
          }
        }
        if case .answering(let head, let body) = gate {
          guard blocking else { return .wouldBlock }
          answerBeforeBody(head, body)
          throw ServerBeeTransportError(
            .connectionClosed, "the request was answered before its body arrived")
        }
        if expectsContinue && !continueSent {
          guard blocking else { return .wouldBlock }
          try BlockingIO.writeAll(
            Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: stream,
            deadline: (requestStart ?? .now).advanced(by: budget.request), wake: wake)
          continueSent = true
        }
      }
      switch try scratch.withUnsafeMutableBytes({ try stream.read(into: $0) }) {
      case .bytes(let count):
        buffer.append(contentsOf: scratch[0..<count])
        if requestStart == nil {
          // The first byte of a kept-alive request: its deadlines start now.
          let now = ContinuousClock.now
          requestStart = now
          shared.withLock { $0.activity = .receiving(since: now) }
        }
      case .endOfStream:
        if buffer.isEmpty { return .closed }
        throw ServerBeeTransportError(.connectionLost, "the peer closed in the middle of a request")
      case .wouldBlock:
        guard blocking else { return .wouldBlock }
        // Checked once the socket is drained, so that whatever the peer sent counts.
        if shared.withLock({ $0.shedRequested }) {
          if buffer.isEmpty { return .closed }
          reject(408, "Request Timeout")
          throw ServerBeeTransportError(
            .timedOut, "the request was cut off to make room for new connections")
        }
        let deadline =
          requestStart?.advanced(by: headComplete ? budget.request : budget.head)
          ?? budget.idleDeadline
        do {
          try wake.wait(
            for: stream.descriptor, events: Int16(POLLIN), until: deadline,
            what: headComplete ? "the request body" : "the request head")
        } catch let error as ServerBeeTransportError where error.code == .timedOut {
          // Nothing arrived: an idle keep-alive connection, or one that never sent a request.
          if buffer.isEmpty { return .closed }
          reject(408, "Request Timeout")
          throw error
        }
      }
    }
  }

  /// Writes an upload gate's answer (bounded to 5 s, best effort), then reads and drops what
  /// the peer still sends for at most 1 s or 64 KiB: closing with unread bytes would reset the
  /// connection, and a reset can destroy the answer before the peer reads it. The caller then
  /// closes.
  private func answerBeforeBody(_ head: HTTPResponseHead, _ body: [UInt8]) {
    var head = head
    head.headers["content-length"] = String(body.count)
    head.headers["connection"] = "close"
    let now = ContinuousClock.now
    do {
      try BlockingIO.writeAll(
        head.serialized + body, to: stream, deadline: now.advanced(by: .seconds(5)), wake: wake)
    } catch {
      return
    }
    // A plain peer that waits for the end of the stream sees it now; under TLS the stream
    // closes properly in `finish()`.
    if !isTLS { _ = shutdown(stream.descriptor, Int32(SHUT_WR)) }
    let deadline = ContinuousClock.now.advanced(by: .seconds(1))
    var dropped = 0
    while dropped < 64 * 1024 {
      switch try? scratch.withUnsafeMutableBytes({ try stream.read(into: $0) }) {
      case .bytes(let count)?: dropped += count
      case .wouldBlock?:
        guard
          (try? wake.wait(
            for: stream.descriptor, events: Int16(POLLIN), until: deadline,
            what: "the rest of a refused request")) != nil
        else { return }
      case .endOfStream?, nil: return
      }
    }
  }

  /// Answers a bad request (bounded to 5 s, best effort); the caller then closes.
  /// Answers `status` with the server's rejection headers and body and closes the connection.
  /// - Parameters:
  ///   - status: The status, for example 503.
  ///   - reason: Its reason phrase.
  func sendRejection(_ status: Int, _ reason: String) async {
    let custom = rejection?(status)
    await send(
      HTTPResponseHead(status: status, reason: reason, headers: custom?.headers ?? [:]),
      body: custom?.body ?? [], keepAlive: false, headOnly: false)
  }

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
