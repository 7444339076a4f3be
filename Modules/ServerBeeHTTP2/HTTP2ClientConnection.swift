import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeSocketTransport
package import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP/2 client connection over TLS (ALPN `h2`, RFC 9113): many concurrent requests on
/// one socket, each with its own deadline.
///
/// ```swift
/// let connection = try await HTTP2ClientConnection.connect(
///   host: "api.sandbox.push.apple.com", port: 443, trust: TLSTrust(),
///   deadline: .now + .seconds(10))
/// let response = try await connection.send(
///   HTTP2Request(method: "POST", path: "/3/device/ab", body: payload),
///   deadline: .now + .seconds(10))
/// ```
///
/// One I/O thread per connection (never the cooperative pool) owns the socket, both HPACK
/// contexts and the flow-control windows; callers hand it requests through a locked inbox and a
/// wake pipe, and are resumed with the response. It respects the server's SETTINGS (concurrent
/// streams, frame size, initial window, header table size), queues requests past the stream
/// limit until a stream ends or their deadline passes, answers PING, sends its own PING after
/// ``Options/idlePingInterval`` without traffic (and closes the connection when the ACK does not
/// come within ``Options/pingTimeout``), and after GOAWAY (or a lost socket) fails what the server did not process with an error that says so
/// (``HTTP2Error/isSafeToRetry``), so a caller can open a new connection and send again.
package final class HTTP2ClientConnection: Sendable {
  /// Limits this side keeps.
  package struct Options: Sendable {
    /// The most streams open at once, whatever the server allows; 100 by default.
    package var maximumConcurrentStreams: Int
    /// The largest response body accepted (else `malformedResponse`); 64 KiB by default.
    package var maximumResponseBodySize: Int
    /// The largest decoded response header list; 16 KiB by default.
    package var maximumHeaderListSize: Int
    /// After this long with no stream open and no frame received, a PING checks that the
    /// connection still carries frames; nil (the default) never sends one.
    package var idlePingInterval: Duration?
    /// How long a PING may wait for its ACK before the connection counts as lost and closes
    /// (requests then fail with `connectionLost`, safe to send again on a new connection);
    /// 10 s by default.
    package var pingTimeout: Duration

    package init(
      maximumConcurrentStreams: Int = 100, maximumResponseBodySize: Int = 65_536,
      maximumHeaderListSize: Int = 16_384, idlePingInterval: Duration? = nil,
      pingTimeout: Duration = .seconds(10)
    ) {
      self.maximumConcurrentStreams = maximumConcurrentStreams
      self.maximumResponseBodySize = maximumResponseBodySize
      self.maximumHeaderListSize = maximumHeaderListSize
      self.idlePingInterval = idlePingInterval
      self.pingTimeout = pingTimeout
    }
  }

  private let engine: HTTP2Engine

  private init(engine: HTTP2Engine) { self.engine = engine }

  deinit { engine.requestClose() }

  /// Opens a connection: TCP, TLS with `trust` and ALPN `h2`, the connection preface.
  /// - Parameters:
  ///   - host: The host name (SNI and certificate name) or IP address.
  ///   - port: The port.
  ///   - trust: The trusted CAs (system store plus `additionalCAFile`) or pins.
  ///   - options: The limits; the defaults by default.
  ///   - deadline: When to give up.
  /// - Returns: The open connection, its I/O thread running.
  /// - Throws: `untrustedServer`, `connectFailed` (also when the server does not select `h2`),
  ///   `timedOut` or `cancelled`.
  package static func connect(
    host: String, port: UInt16, trust: TLSTrust, options: Options = Options(),
    deadline: ContinuousClock.Instant
  ) async throws(HTTP2Error) -> HTTP2ClientConnection {
    let wake: WakePipe
    do {
      wake = try WakePipe()
    } catch {
      throw .connectFailed(error.message)
    }
    let stream: any ByteStream
    do {
      stream = try await BlockingIO.run(wake: wake) { () throws -> TLSStream in
        let descriptor = try TCPConnector.connect(
          host: host, port: port, deadline: deadline, wake: wake)
        let tls = try TLSStream(
          descriptor: descriptor, host: host, trust: trust, deadline: deadline, wake: wake,
          applicationProtocols: ["h2"])
        guard tls.negotiatedProtocol == "h2" else {
          tls.close()
          throw HTTP2Error.connectFailed("the server did not select HTTP/2 (ALPN h2)")
        }
        return tls
      }.value
    } catch let error as HTTP2Error {
      throw error
    } catch let error as ServerBeeTransportError {
      switch error.code {
      case .tlsUntrustedCertificate, .tlsHostnameMismatch, .tlsCertificateExpired, .tlsPinMismatch:
        throw .untrustedServer(error.message)
      case .timedOut: throw .timedOut
      default: throw .connectFailed(error.message)
      }
    } catch {
      throw Task.isCancelled ? .cancelled : .connectFailed("\(error)")
    }
    let authority = port == 443 ? host : "\(host):\(port)"
    let engine = HTTP2Engine(stream: stream, wake: wake, authority: authority, options: options)
    engine.start()
    return HTTP2ClientConnection(engine: engine)
  }

  /// Sends one request and waits for its whole response.
  /// - Parameters:
  ///   - request: The request.
  ///   - deadline: When to give up (the stream is then reset with CANCEL).
  /// - Returns: The response.
  /// - Throws: ``HTTP2Error``; ``HTTP2Error/isSafeToRetry`` tells whether the server cannot
  ///   have acted on it.
  package func send(
    _ request: HTTP2Request, deadline: ContinuousClock.Instant
  ) async throws(HTTP2Error) -> HTTP2Response {
    try await engine.send(request, deadline: deadline).get()
  }

  /// Whether new requests can start here: false after GOAWAY, a lost socket or ``close()``.
  package var isAcceptingRequests: Bool { engine.isAcceptingRequests }

  /// How many requests were ever started on this connection (streams opened).
  package var streamsOpened: Int { engine.streamsOpened }

  /// How many of this side's idle PINGs the server acknowledged
  /// (``Options/idlePingInterval``).
  package var pingsAcknowledged: Int { engine.pingsAcknowledged }

  /// Closes the connection: requests in flight fail with `connectionLost`.
  package func close() { engine.requestClose() }

  /// The receive path without a socket or a thread: `requests` go out right after the preface,
  /// then `serverBytes` arrive in reads of `readSizes`, then the server closes (fuzzing, tests).
  ///
  /// ```swift
  /// let results = HTTP2ClientConnection.replay(
  ///   requests: [HTTP2Request(method: "GET", path: "/")], serverBytes: bytes, readSizes: [9])
  /// ```
  /// - Parameters:
  ///   - requests: The requests, on streams 1, 3, 5, … before any server byte is read.
  ///   - serverBytes: Everything the server sends.
  ///   - readSizes: The sizes of the reads (cycled; one read when empty).
  ///   - options: The limits.
  /// - Returns: Each request's result, in order.
  package static func replay(
    requests: [HTTP2Request], serverBytes: [UInt8], readSizes: [Int],
    options: Options = Options()
  ) -> [Result<HTTP2Response, HTTP2Error>] {
    HTTP2Engine.replay(
      requests: requests, serverBytes: serverBytes, readSizes: readSizes, options: options)
  }
}

/// The I/O side of ``HTTP2ClientConnection``.
final class HTTP2Engine: @unchecked Sendable {
  // @unchecked: `inbox` is behind its lock; everything else is touched only by the I/O thread
  // (after `start()`), and `stream` was handed over by the setup thread before it.

  /// A request waiting for its response.
  final class Pending: @unchecked Sendable {
    // @unchecked: `continuation` is resumed exactly once, by whoever wins `inbox`'s lock.
    let id: Int
    let request: HTTP2Request
    let deadline: ContinuousClock.Instant
    var continuation: CheckedContinuation<Result<HTTP2Response, HTTP2Error>, Never>?
    /// The result, for a request without a continuation (``HTTP2Engine/replay``).
    var replayed: Result<HTTP2Response, HTTP2Error>?

    init(id: Int, request: HTTP2Request, deadline: ContinuousClock.Instant) {
      self.id = id
      self.request = request
      self.deadline = deadline
    }
  }

  private struct Inbox {
    var submitted: [Pending] = []
    var cancelled: [Int] = []
    var closeRequested = false
    var accepting = true
    var finished = false
    var nextID = 0
    var streamsOpened = 0
    var pingsAcknowledged = 0
    /// Every pending request not yet resumed, by id (so exactly one party resumes each).
    var waiting: [Int: Pending] = [:]
  }

  /// One open stream (I/O thread only).
  private struct OpenStream {
    let pending: Pending
    var body: ArraySlice<UInt8>
    var sendWindow: Int
    var status: Int?
    var headers: [HPACKField] = []
    var responseBody: [UInt8] = []
    var sentEnd = false
  }

  private let stream: any ByteStream
  private let wake: WakePipe
  private let authority: String
  private let options: HTTP2ClientConnection.Options
  private let inbox = Locked(Inbox())

  // I/O-thread state.
  private var encoder = HPACKEncoder()
  private var decoder: HPACKDecoder
  private var output: [UInt8] = []
  private var outputOffset = 0
  private var input: [UInt8] = []
  private var queued: [Pending] = []
  private var open: [UInt32: OpenStream] = [:]
  private var nextStreamID: UInt32 = 1
  private var peerSettingsReceived = false
  private var peerMaximumStreams = Int.max
  private var peerMaximumFrameSize = 16_384
  private var peerInitialWindow = 65_535
  private var connectionSendWindow = 65_535
  private var goAwayLastStream: UInt32?
  /// When a frame last arrived or a stream last started (the idle PING counts from there).
  private var lastActivity = ContinuousClock.now
  /// The idle PING awaiting its ACK: its opaque data and when it must be answered.
  private var outstandingPing: (data: [UInt8], deadline: ContinuousClock.Instant)?
  private var pingsSent: UInt64 = 0
  /// The stream whose header block is being continued, and the fragments so far.
  private var continuing: (stream: UInt32, block: [UInt8], endStream: Bool)?
  private static let receiveWindow = 1 << 24
  private static let ourMaximumFrameSize = 16_384

  init(
    stream: any ByteStream, wake: WakePipe, authority: String,
    options: HTTP2ClientConnection.Options
  ) {
    self.stream = stream
    self.wake = wake
    self.authority = authority
    self.options = options
    decoder = HPACKDecoder(maximumHeaderListSize: options.maximumHeaderListSize)
  }

  var isAcceptingRequests: Bool { inbox.withLock { $0.accepting && !$0.finished } }
  var streamsOpened: Int { inbox.withLock { $0.streamsOpened } }
  var pingsAcknowledged: Int { inbox.withLock { $0.pingsAcknowledged } }

  func start() {
    writePreface()
    let thread = Thread { [self] in run() }
    thread.name = "ServerBeeHTTP2.connection"
    thread.start()
  }

  /// The preface, our SETTINGS (no push; a large connection window) and a WINDOW_UPDATE.
  private func writePreface() {
    output.append(contentsOf: HTTP2Frame.clientPreface)
    HTTP2Frame.settings([
      (.enablePush, 0), (.maximumConcurrentStreams, 0),
      (.maximumHeaderListSize, UInt32(options.maximumHeaderListSize)),
    ]).encode(into: &output)
    HTTP2Frame.windowUpdate(stream: 0, increment: UInt32(Self.receiveWindow - 65_535))
      .encode(into: &output)
  }

  func requestClose() {
    inbox.withLock {
      $0.closeRequested = true
      $0.accepting = false
    }
    wake.wake()
  }

  func send(
    _ request: HTTP2Request, deadline: ContinuousClock.Instant
  ) async -> Result<HTTP2Response, HTTP2Error> {
    let id = inbox.withLock { inbox -> Int in
      inbox.nextID += 1
      return inbox.nextID
    }
    let pending = Pending(id: id, request: request, deadline: deadline)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let refused = inbox.withLock { inbox -> Bool in
          guard inbox.accepting, !inbox.finished, !Task.isCancelled else { return true }
          pending.continuation = continuation
          inbox.waiting[id] = pending
          inbox.submitted.append(pending)
          return false
        }
        if refused {
          let error: HTTP2Error =
            Task.isCancelled
            ? .cancelled : .connectionLost("the connection is closing", processed: false)
          continuation.resume(returning: .failure(error))
        } else {
          wake.wake()
        }
      }
    } onCancel: {
      inbox.withLock { $0.cancelled.append(id) }
      wake.wake()
    }
  }

  // MARK: The I/O loop

  private func run() {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      if let failure = turn(buffer: &buffer) {
        shutDown(failure)
        return
      }
      waitForEvents()
    }
  }

  /// One turn of the loop without waiting: takes what callers handed in, reads what the socket
  /// has, starts streams, sends. Returns why the connection ends, or nil to go on.
  private func turn(buffer: inout [UInt8]) -> HTTP2Error? {
    let (submitted, cancelled, closeRequested) = inbox.withLock {
      inbox -> ([Pending], [Int], Bool) in
      defer {
        inbox.submitted = []
        inbox.cancelled = []
      }
      return (inbox.submitted, inbox.cancelled, inbox.closeRequested)
    }
    if closeRequested { return .connectionLost("the connection was closed", processed: false) }
    queued.append(contentsOf: submitted)
    for id in cancelled { finish(id: id, .failure(.cancelled)) }
    expireDeadlines()
    do {
      try readAvailable(into: &buffer)
      startQueuedStreams()
      try keepAlive()
      try sendBodies()
      try flushOutput()
    } catch {
      return error
    }
    if goAwayLastStream != nil, open.isEmpty, outputOffset == output.count {
      return .connectionLost("the server ended the connection (GOAWAY)", processed: false)
    }
    return nil
  }

  /// Polls the socket (for output when some is queued) and the wake pipe, until the nearest
  /// deadline.
  private func waitForEvents() {
    var events = Int16(POLLIN)
    if outputOffset < output.count || stream.hasPendingOutput { events |= Int16(POLLOUT) }
    var fds = [
      pollfd(fd: stream.descriptor, events: events, revents: 0),
      pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    var nearest: ContinuousClock.Instant?
    for pending in queued { nearest = min(nearest ?? pending.deadline, pending.deadline) }
    for entry in open.values {
      nearest = min(nearest ?? entry.pending.deadline, entry.pending.deadline)
    }
    if let ping = nextPingEvent { nearest = min(nearest ?? ping, ping) }
    var milliseconds: Int32 = 60_000
    if let nearest {
      let left = nearest - ContinuousClock.now
      let (seconds, attoseconds) = left.components
      let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
      milliseconds = Int32(clamping: max(0, min(total, 60_000)))
    }
    _ = Posix.poll(&fds, milliseconds: milliseconds)
    if fds[1].revents != 0 { wake.drain() }
  }

  /// When the idle PING is due, or when the outstanding one must be answered.
  private var nextPingEvent: ContinuousClock.Instant? {
    if let outstandingPing { return outstandingPing.deadline }
    guard let interval = options.idlePingInterval, open.isEmpty, queued.isEmpty else { return nil }
    return lastActivity + interval
  }

  /// Sends the idle PING when it is due; fails the connection when a PING went unanswered.
  private func keepAlive() throws(HTTP2Error) {
    guard let due = nextPingEvent else { return }
    let now = ContinuousClock.now
    guard due <= now else { return }
    if outstandingPing != nil {
      throw .connectionLost(
        "the server did not answer a PING within \(options.pingTimeout)", processed: true)
    }
    pingsSent += 1
    var data: [UInt8] = []
    data.reserveCapacity(8)
    for shift in stride(from: 56, through: 0, by: -8) {
      data.append(UInt8(truncatingIfNeeded: pingsSent >> UInt64(shift)))
    }
    outstandingPing = (data, now + options.pingTimeout)
    HTTP2Frame(.ping, payload: data).encode(into: &output)
  }

  private func expireDeadlines() {
    let now = ContinuousClock.now
    queued.removeAll { pending in
      guard pending.deadline <= now else { return false }
      resume(pending, .failure(.timedOut))
      return true
    }
    for (id, entry) in open where entry.pending.deadline <= now {
      reset(id, .cancel)
      resume(entry.pending, .failure(.timedOut))
    }
  }

  /// Ends the request `id`, wherever it is (queued, open, or already answered).
  private func finish(id: Int, _ result: Result<HTTP2Response, HTTP2Error>) {
    if let index = queued.firstIndex(where: { $0.id == id }) {
      resume(queued.remove(at: index), result)
      return
    }
    if let (streamID, entry) = open.first(where: { $0.value.pending.id == id }) {
      reset(streamID, .cancel)
      resume(entry.pending, result)
    }
  }

  private func reset(_ streamID: UInt32, _ code: HTTP2ErrorCode) {
    open[streamID] = nil
    HTTP2Frame.resetStream(streamID, code).encode(into: &output)
  }

  /// Resumes the caller once: whoever removes it from `waiting` resumes it.
  private func resume(_ pending: Pending, _ result: Result<HTTP2Response, HTTP2Error>) {
    let won = inbox.withLock { $0.waiting.removeValue(forKey: pending.id) != nil }
    if won { Self.deliver(result, to: pending) }
  }

  /// Hands the result to the caller's continuation (or keeps it for a replay); called once.
  private static func deliver(_ result: Result<HTTP2Response, HTTP2Error>, to pending: Pending) {
    if let continuation = pending.continuation {
      pending.continuation = nil
      continuation.resume(returning: result)
    } else {
      pending.replayed = result
    }
  }

  private func shutDown(_ failure: HTTP2Error) {
    if case .protocolViolation(let code, _) = failure {
      HTTP2Frame.goAway(lastStream: 0, code).encode(into: &output)
      try? flushOutput()
    }
    let waiting = inbox.withLock { inbox -> [Pending] in
      inbox.finished = true
      inbox.accepting = false
      defer {
        inbox.waiting = [:]
        inbox.submitted = []
      }
      return Array(inbox.waiting.values)
    }
    let started = Set(open.values.map { $0.pending.id })
    for pending in waiting {
      var error = failure
      // A request that never left this process cannot have been processed.
      if case .connectionLost(let text, _) = failure {
        error = .connectionLost(text, processed: started.contains(pending.id))
      }
      Self.deliver(.failure(error), to: pending)
    }
    open = [:]
    queued = []
    stream.close()
  }

  // MARK: Sending

  private func startQueuedStreams() {
    guard peerSettingsReceived else { return }
    let limit = min(options.maximumConcurrentStreams, peerMaximumStreams)
    while !queued.isEmpty, open.count < limit, goAwayLastStream == nil {
      guard nextStreamID <= 0x7fff_ffff else {
        inbox.withLock { $0.accepting = false }
        for pending in queued {
          resume(pending, .failure(.connectionLost("stream ids exhausted", processed: false)))
        }
        queued = []
        return
      }
      let pending = queued.removeFirst()
      let streamID = nextStreamID
      nextStreamID += 2
      inbox.withLock { $0.streamsOpened += 1 }
      lastActivity = ContinuousClock.now
      var fields = [
        HPACKField(":method", pending.request.method),
        HPACKField(":scheme", "https"),
        HPACKField(":authority", authority),
        HPACKField(":path", pending.request.path, indexing: .none),
      ]
      fields.append(contentsOf: pending.request.headers)
      if !pending.request.body.isEmpty {
        fields.append(HPACKField("content-length", String(pending.request.body.count)))
      }
      let block = encoder.encode(fields)
      let endStream = pending.request.body.isEmpty
      appendHeaderBlock(block, stream: streamID, endStream: endStream)
      open[streamID] = OpenStream(
        pending: pending, body: pending.request.body[...], sendWindow: peerInitialWindow,
        sentEnd: endStream)
    }
  }

  /// HEADERS and as many CONTINUATION frames as the peer's frame size needs.
  private func appendHeaderBlock(_ block: [UInt8], stream: UInt32, endStream: Bool) {
    var offset = 0
    var first = true
    repeat {
      let end = min(block.count, offset + peerMaximumFrameSize)
      let last = end == block.count
      var flags: UInt8 = last ? HTTP2Frame.Flag.endHeaders : 0
      if first && endStream { flags |= HTTP2Frame.Flag.endStream }
      HTTP2Frame(
        first ? .headers : .continuation, flags: flags, stream: stream,
        payload: Array(block[offset..<end])
      ).encode(into: &output)
      offset = end
      first = false
    } while offset < block.count
  }

  /// DATA for every open stream with body left, within both send windows and the frame size.
  private func sendBodies() throws(HTTP2Error) {
    for id in open.keys.sorted() {
      guard var entry = open[id], !entry.sentEnd else { continue }
      while !entry.body.isEmpty, entry.sendWindow > 0, connectionSendWindow > 0 {
        let size = min(
          entry.body.count, entry.sendWindow, connectionSendWindow, peerMaximumFrameSize)
        let chunk = entry.body.prefix(size)
        entry.body = entry.body.dropFirst(size)
        entry.sendWindow -= size
        connectionSendWindow -= size
        let flags = entry.body.isEmpty ? HTTP2Frame.Flag.endStream : 0
        HTTP2Frame(.data, flags: flags, stream: id, payload: Array(chunk)).encode(into: &output)
      }
      entry.sentEnd = entry.body.isEmpty
      open[id] = entry
    }
  }

  private func flushOutput() throws(HTTP2Error) {
    while outputOffset < output.count {
      let offset = outputOffset
      let written = output.withUnsafeBytes { bytes in
        Result { () throws(ServerBeeTransportError) in
          try stream.write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
      }
      let taken: Int
      switch written {
      case .success(let count): taken = count
      case .failure(let error): throw .connectionLost(error.message, processed: true)
      }
      if taken == 0 { break }
      outputOffset += taken
    }
    if outputOffset == output.count {
      output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
      outputOffset = 0
    }
    do {
      _ = try stream.flush()
    } catch {
      throw .connectionLost(error.message, processed: true)
    }
  }

  // MARK: Receiving

  private func readAvailable(into buffer: inout [UInt8]) throws(HTTP2Error) {
    while true {
      let read = buffer.withUnsafeMutableBytes { bytes in
        Result { () throws(ServerBeeTransportError) in try stream.read(into: bytes) }
      }
      let result: StreamRead
      switch read {
      case .success(let value): result = value
      case .failure(let error): throw .connectionLost(error.message, processed: true)
      }
      switch result {
      case .bytes(let count):
        lastActivity = ContinuousClock.now
        input.append(contentsOf: buffer[0..<count])
        var offset = 0
        while let frame = try HTTP2Frame.next(
          in: input, at: &offset, maximumSize: Self.ourMaximumFrameSize)
        {
          try handle(frame)
        }
        input.removeFirst(offset)
      case .wouldBlock:
        return
      case .endOfStream:
        throw .connectionLost("the server closed the connection", processed: true)
      }
    }
  }

  private func handle(_ frame: HTTP2Frame) throws(HTTP2Error) {
    if let continuing {
      guard frame.kind == .continuation, frame.stream == continuing.stream else {
        throw .protocolViolation(.protocolError, "a header block was interrupted")
      }
    }
    guard let kind = frame.kind else { return }  // unknown types are ignored (§5.5)
    switch kind {
    case .settings: try handleSettings(frame)
    case .ping:
      guard frame.stream == 0, frame.payload.count == 8 else {
        throw .protocolViolation(.frameSizeError, "a malformed PING")
      }
      if !frame.has(HTTP2Frame.Flag.ack) {
        HTTP2Frame(.ping, flags: HTTP2Frame.Flag.ack, payload: frame.payload).encode(into: &output)
      } else if let outstandingPing, outstandingPing.data == frame.payload {
        self.outstandingPing = nil
        inbox.withLock { $0.pingsAcknowledged += 1 }
      }
    case .goAway:
      guard frame.stream == 0, frame.payload.count >= 8 else {
        throw .protocolViolation(.frameSizeError, "a malformed GOAWAY")
      }
      let last = HTTP2Frame.readUInt32(frame.payload, at: 0) & 0x7fff_ffff
      goAwayLastStream = min(goAwayLastStream ?? last, last)
      inbox.withLock { $0.accepting = false }
      for (id, entry) in open where id > last {
        open[id] = nil
        resume(
          entry.pending,
          .failure(.connectionLost("the server ended the connection (GOAWAY)", processed: false)))
      }
      for pending in queued {
        resume(
          pending,
          .failure(.connectionLost("the server ended the connection (GOAWAY)", processed: false)))
      }
      queued = []
    case .windowUpdate:
      guard frame.payload.count == 4 else {
        throw .protocolViolation(.frameSizeError, "a malformed WINDOW_UPDATE")
      }
      let increment = Int(HTTP2Frame.readUInt32(frame.payload, at: 0) & 0x7fff_ffff)
      if frame.stream == 0 {
        guard increment > 0 else {
          throw .protocolViolation(.protocolError, "a WINDOW_UPDATE of 0")
        }
        connectionSendWindow += increment
        guard connectionSendWindow <= 0x7fff_ffff else {
          throw .protocolViolation(.flowControlError, "the connection window overflowed")
        }
      } else if var entry = open[frame.stream] {
        guard increment > 0, entry.sendWindow + increment <= 0x7fff_ffff else {
          reset(frame.stream, increment > 0 ? .flowControlError : .protocolError)
          resume(entry.pending, .failure(.streamReset(.flowControlError)))
          return
        }
        entry.sendWindow += increment
        open[frame.stream] = entry
      }
    case .resetStream:
      guard frame.payload.count == 4, frame.stream != 0 else {
        throw .protocolViolation(.frameSizeError, "a malformed RST_STREAM")
      }
      let code =
        HTTP2ErrorCode(rawValue: HTTP2Frame.readUInt32(frame.payload, at: 0)) ?? .internalError
      if let entry = open.removeValue(forKey: frame.stream) {
        resume(entry.pending, .failure(.streamReset(code)))
      }
    case .headers, .continuation: try handleHeaders(frame, kind: kind)
    case .data: try handleData(frame)
    case .pushPromise:
      throw .protocolViolation(.protocolError, "PUSH_PROMISE although push is disabled")
    case .priority: return
    }
  }

  private func handleSettings(_ frame: HTTP2Frame) throws(HTTP2Error) {
    guard frame.stream == 0 else {
      throw .protocolViolation(.protocolError, "SETTINGS on a stream")
    }
    if frame.has(HTTP2Frame.Flag.ack) {
      guard frame.payload.isEmpty else {
        throw .protocolViolation(.frameSizeError, "a SETTINGS ACK with a payload")
      }
      return
    }
    guard frame.payload.count % 6 == 0 else {
      throw .protocolViolation(.frameSizeError, "a SETTINGS payload of \(frame.payload.count)")
    }
    for offset in stride(from: 0, to: frame.payload.count, by: 6) {
      let identifier = UInt16(frame.payload[offset]) << 8 | UInt16(frame.payload[offset + 1])
      let value = HTTP2Frame.readUInt32(frame.payload, at: offset + 2)
      switch HTTP2Setting(rawValue: identifier) {
      case .headerTableSize: encoder.peerAllowsTableSize(Int(value))
      case .maximumConcurrentStreams: peerMaximumStreams = Int(value)
      case .initialWindowSize:
        guard value <= 0x7fff_ffff else {
          throw .protocolViolation(.flowControlError, "an initial window above 2^31-1")
        }
        let delta = Int(value) - peerInitialWindow
        peerInitialWindow = Int(value)
        for id in open.keys { open[id]?.sendWindow += delta }
      case .maximumFrameSize:
        guard (16_384...16_777_215).contains(value) else {
          throw .protocolViolation(.protocolError, "a maximum frame size of \(value)")
        }
        // Frames stay at 16,384 octets even when the peer allows more: always allowed, and
        // some servers (Python h2) apply a larger size only to reads that start after our
        // ACK, so a larger DATA frame right behind the ACK would be refused.
        peerMaximumFrameSize = min(Int(value), Self.ourMaximumFrameSize)
      case .enablePush, .maximumHeaderListSize, nil: break
      }
    }
    peerSettingsReceived = true
    HTTP2Frame(.settings, flags: HTTP2Frame.Flag.ack).encode(into: &output)
  }

  /// The payload without padding (and, for HEADERS, without the priority fields).
  private func fragment(of frame: HTTP2Frame, priorityBytes: Int) throws(HTTP2Error)
    -> ArraySlice<UInt8>
  {
    var start = 0
    var end = frame.payload.count
    if frame.has(HTTP2Frame.Flag.padded) {
      guard let padding = frame.payload.first, Int(padding) < frame.payload.count else {
        throw .protocolViolation(.protocolError, "padding longer than the frame")
      }
      start = 1
      end -= Int(padding)
    }
    start += priorityBytes
    guard start <= end else {
      throw .protocolViolation(.protocolError, "padding longer than the frame")
    }
    return frame.payload[start..<end]
  }

  private func handleHeaders(_ frame: HTTP2Frame, kind: HTTP2Frame.Kind) throws(HTTP2Error) {
    guard frame.stream != 0 else {
      throw .protocolViolation(.protocolError, "HEADERS on stream 0")
    }
    var block: [UInt8]
    var endStream: Bool
    if kind == .continuation {
      guard let continuing else {
        throw .protocolViolation(.protocolError, "CONTINUATION without HEADERS")
      }
      block = continuing.block + frame.payload
      endStream = continuing.endStream
    } else {
      let priority = frame.has(HTTP2Frame.Flag.priority) ? 5 : 0
      block = Array(try fragment(of: frame, priorityBytes: priority))
      endStream = frame.has(HTTP2Frame.Flag.endStream)
    }
    guard frame.has(HTTP2Frame.Flag.endHeaders) else {
      guard block.count <= options.maximumHeaderListSize * 2 else {
        throw .protocolViolation(.enhanceYourCalm, "a header block too large")
      }
      continuing = (frame.stream, block, endStream)
      return
    }
    continuing = nil
    // Decoded even for a stream we no longer track: the HPACK context must see every block.
    let fields: [HPACKField]
    do {
      fields = try decoder.decode(block)
    } catch {
      throw .protocolViolation(.compressionError, "an undecodable header block (\(error))")
    }
    guard var entry = open[frame.stream] else {
      guard frame.stream < nextStreamID, frame.stream % 2 == 1 else {
        throw .protocolViolation(.protocolError, "HEADERS on a stream never opened")
      }
      return
    }
    do {
      try absorb(fields, into: &entry, endStream: endStream)
    } catch {
      reset(frame.stream, .protocolError)
      resume(entry.pending, .failure(error))
      return
    }
    open[frame.stream] = entry
    if endStream { complete(frame.stream) }
  }

  /// Takes a response header block (or trailers) into the stream.
  private func absorb(
    _ fields: [HPACKField], into entry: inout OpenStream, endStream: Bool
  ) throws(HTTP2Error) {
    if entry.status == nil {
      guard let first = fields.first, first.name == ":status", let status = Int(first.value),
        first.value.utf8.count == 3, (100...999).contains(status)
      else { throw .malformedResponse("the response has no valid :status") }
      let regular = fields.dropFirst()
      guard regular.allSatisfy(Self.isRegularFieldName) else {
        throw .malformedResponse("a misplaced pseudo-header or an uppercase name")
      }
      if (100..<200).contains(status) {
        guard !endStream else { throw .malformedResponse("an informational response ended") }
        return  // 1xx: the final response follows
      }
      entry.status = status
      entry.headers = Array(regular)
    } else {
      guard endStream else { throw .malformedResponse("trailers that do not end the stream") }
      // The same rule as the header block (RFC 9113 §8.2.1, §8.1): trailers of pseudo-headers
      // or uppercase names are malformed.
      guard fields.allSatisfy(Self.isRegularFieldName) else {
        throw .malformedResponse("a pseudo-header or an uppercase name in the trailers")
      }
      entry.headers.append(contentsOf: fields)
    }
  }

  /// A regular field's name: no pseudo-header, no uppercase (RFC 9113 §8.2.1, §8.3).
  private static func isRegularFieldName(_ field: HPACKField) -> Bool {
    !field.name.hasPrefix(":") && field.name == field.name.lowercased()
  }

  private func handleData(_ frame: HTTP2Frame) throws(HTTP2Error) {
    guard frame.stream != 0 else {
      throw .protocolViolation(.protocolError, "DATA on stream 0")
    }
    // Flow control counts the whole payload, padding included (§6.9.1): give it all back.
    if !frame.payload.isEmpty {
      HTTP2Frame.windowUpdate(stream: 0, increment: UInt32(frame.payload.count))
        .encode(into: &output)
    }
    let data = try fragment(of: frame, priorityBytes: 0)
    guard var entry = open[frame.stream] else { return }
    guard entry.status != nil else {
      reset(frame.stream, .protocolError)
      resume(entry.pending, .failure(.malformedResponse("DATA before the response headers")))
      return
    }
    guard entry.responseBody.count + data.count <= options.maximumResponseBodySize else {
      reset(frame.stream, .cancel)
      resume(entry.pending, .failure(.malformedResponse("the response body is too large")))
      return
    }
    entry.responseBody.append(contentsOf: data)
    open[frame.stream] = entry
    if frame.has(HTTP2Frame.Flag.endStream) {
      complete(frame.stream)
    } else if !frame.payload.isEmpty {
      HTTP2Frame.windowUpdate(stream: frame.stream, increment: UInt32(frame.payload.count))
        .encode(into: &output)
    }
  }

  private func complete(_ streamID: UInt32) {
    guard let entry = open.removeValue(forKey: streamID), let status = entry.status else { return }
    if let length = entry.headers.first(where: { $0.name == "content-length" })?.value,
      Int(length) != entry.responseBody.count
    {
      resume(entry.pending, .failure(.malformedResponse("content-length does not match the body")))
      return
    }
    // The server ended its side; if ours is still open (a body not sent), close it.
    if !entry.sentEnd { HTTP2Frame.resetStream(streamID, .noError).encode(into: &output) }
    resume(
      entry.pending,
      .success(HTTP2Response(status: status, headers: entry.headers, body: entry.responseBody)))
  }
}

// MARK: Replay

extension HTTP2Engine {
  /// The client's whole receive path on bytes a server sent, without a socket or a thread: the
  /// `requests` go out on streams 1, 3, 5, … right after the preface, then `serverBytes` arrive
  /// in reads of `readSizes` (cycled; one read when empty), then the server closes. For the
  /// fuzz target `fuzz-apns-answer` and tests.
  ///
  /// ```swift
  /// let results = HTTP2Engine.replay(
  ///   requests: [HTTP2Request(method: "GET", path: "/")], serverBytes: bytes, readSizes: [])
  /// ```
  /// - Parameters:
  ///   - requests: The requests, sent before any server byte is read.
  ///   - serverBytes: Everything the server sends.
  ///   - readSizes: The sizes of the reads the bytes arrive in.
  ///   - options: The limits.
  /// - Returns: Each request's result, in order; the end of the bytes is a lost connection.
  static func replay(
    requests: [HTTP2Request], serverBytes: [UInt8], readSizes: [Int],
    options: HTTP2ClientConnection.Options = .init()
  ) -> [Result<HTTP2Response, HTTP2Error>] {
    let wake: WakePipe
    do {
      wake = try WakePipe()
    } catch {
      return requests.map { _ in .failure(.connectFailed(error.message)) }
    }
    let engine = HTTP2Engine(
      stream: ReplayStream(serverBytes, readSizes: readSizes), wake: wake, authority: "replay",
      options: options)
    engine.writePreface()
    let deadline = ContinuousClock.now + .seconds(86_400)
    let pendings = requests.enumerated().map {
      Pending(id: $0.offset + 1, request: $0.element, deadline: deadline)
    }
    engine.inbox.withLock { inbox in
      for pending in pendings { inbox.waiting[pending.id] = pending }
    }
    engine.queued = pendings
    // As a client that sends its requests before the server's SETTINGS arrive (RFC 9113 §3.4).
    engine.peerSettingsReceived = true
    engine.startQueuedStreams()
    engine.peerSettingsReceived = false
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    var failure: HTTP2Error?
    while failure == nil { failure = engine.turn(buffer: &buffer) }
    engine.shutDown(failure ?? .connectionLost("the connection ended", processed: false))
    return pendings.map {
      $0.replayed ?? .failure(.connectionLost("no result was recorded", processed: false))
    }
  }
}

/// A server's bytes in fixed reads, each followed by "would block", then the end of the stream;
/// what the client writes is dropped.
private final class ReplayStream: ByteStream {
  private let bytes: [UInt8]
  private let readSizes: [Int]
  private var offset = 0
  private var reads = 0
  private var blockNext = false

  init(_ bytes: [UInt8], readSizes: [Int]) {
    self.bytes = bytes
    self.readSizes = readSizes
  }

  var descriptor: Int32 { -1 }
  var hasPendingOutput: Bool { false }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
    if blockNext {
      blockNext = false
      return .wouldBlock
    }
    guard offset < bytes.count else { return .endOfStream }
    var size = min(buffer.count, bytes.count - offset)
    if !readSizes.isEmpty { size = min(size, max(1, readSizes[reads % readSizes.count])) }
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + size)]))
    }
    offset += size
    reads += 1
    blockNext = true
    return .bytes(size)
  }

  func write(_ bytes: UnsafeRawBufferPointer) -> Int { bytes.count }
  func flush() -> Bool { true }
  func close() {}
}
