import Foundation
import ServerBeeModels
package import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A WebSocket connection over a ``ByteStream`` for either role; the engine behind
/// ``SocketWebSocketTransport`` and the simulator's server side.
///
/// Threading: socket I/O is blocking-free but waits in `poll`, so each connection owns one
/// dedicated Foundation `Thread` that runs a poll loop (socket + wake pipe). Nothing here ever
/// blocks Swift concurrency's cooperative pool; async callers only take a lock, queue bytes, wake
/// the thread and suspend on a continuation. A single thread also keeps OpenSSL happy: an `SSL`
/// object must not be read and written from two threads at once.
///
/// Backpressure: received messages wait in a bounded ``WebSocketInbox``. When the
/// consumer of `inbound` is slower than the peer and the inbox reaches its high-water mark
/// (`WebSocketOptions.inboundHighWaterMessages` / `inboundHighWaterBytes`), the I/O thread stops
/// reading the socket (and stops decoding frames already read) until the consumer has drained it
/// to the low-water mark; the kernel buffers fill and TCP flow control slows the peer.
///
/// Control frames while paused: frames behind the unread bytes are not seen, so a ping is
/// answered, a pong noticed and the peer's close seen only once the consumer drains. RFC 6455
/// §5.5.2 asks for a pong "as soon as is practical", which a reader that applies flow control
/// meets; the peer's close handshake waits the same way its data does. Two things must not
/// wait: a keep-alive pong that cannot be read is not a dead peer (the keep-alive does not judge
/// a ping during which reading paused or bytes arrived), and a close we start (`close`, or cancelling the
/// consumer) must complete within `closeTimeout`, so once our close frame is on the wire reading
/// never pauses and a message that finds the inbox full is dropped.
///
/// Safety of `@unchecked Sendable`: `stream`, `decoder`, `assembler` and the write buffer are
/// touched only by the I/O thread after `start()`; everything shared lives in `shared` (a lock)
/// or in `inbox` (its own lock).
package final class SocketWebSocketConnection: WebSocketConnection, @unchecked Sendable {
  package let inbound: AsyncThrowingStream<WebSocketMessage, any Error>
  private let inbox: WebSocketInbox
  private let options: WebSocketOptions
  private let clock: any Clock<Duration>
  private let wake: WakePipe
  private let shared: Locked<Shared>

  // I/O thread only.
  private let stream: any ByteStream
  private var decoder: WebSocketFrameDecoder
  private var assembler: WebSocketMessageAssembler
  private var writeBuffer: [UInt8] = []
  private var writeOffset = 0
  private var writeCompletions: [(end: Int, completion: CheckedContinuation<Void, any Error>)] = []
  private var sentCloseOnWire = false
  private var peerClose: WebSocketClose?
  private var finished = false
  private var outcome: (any Error)?
  private var lingerDeadline: ContinuousClock.Instant?
  /// The inbox was at its high-water mark: neither read the socket nor decode buffered frames.
  private var readPaused = false

  private struct Outbound {
    var bytes: [UInt8]
    var completion: CheckedContinuation<Void, any Error>?
    var isClose = false
  }

  private struct Shared {
    var outbound: [Outbound] = []
    var closeQueued = false
    var terminated = false
    var receivedClose: WebSocketClose?
    var externalFailure: ServerBeeTransportError?
    var nextPingID: UInt64 = 0
    var lastPongID: UInt64 = 0
    /// Socket reads that brought bytes, for the keep-alive: a peer whose data keeps arriving is
    /// alive even while its pong waits behind that data.
    var reads: UInt64 = 0
    var pingWaiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    var deflater: RawDeflater?
    var keepAlive: Task<Void, Never>?
  }

  package init(
    stream: any ByteStream, leftover: [UInt8], options: WebSocketOptions,
    clock: any Clock<Duration>
  ) throws {
    self.stream = stream
    self.options = options
    self.clock = clock
    wake = try WakePipe()
    var decoder = WebSocketFrameDecoder(
      role: options.role, maxFramePayload: options.maxMessageSize,
      allowsCompression: options.deflate != nil)
    decoder.append(leftover)
    self.decoder = decoder
    var state = Shared()
    if let deflate = options.deflate {
      let ours = options.role == .client ? deflate.clientMaxWindowBits : deflate.serverMaxWindowBits
      state.deflater = try RawDeflater(windowBits: ours ?? 15)
      let peerResets =
        options.role == .client ? deflate.serverNoContextTakeover : deflate.clientNoContextTakeover
      assembler = WebSocketMessageAssembler(
        maxMessageSize: options.maxMessageSize, inflater: try RawInflater(),
        resetInflaterPerMessage: peerResets)
    } else {
      assembler = WebSocketMessageAssembler(maxMessageSize: options.maxMessageSize)
    }
    shared = Locked(state)
    let inbox = WebSocketInbox(
      limits: .init(
        messages: options.inboundHighWaterMessages, bytes: options.inboundHighWaterBytes),
      wake: wake)
    self.inbox = inbox
    // Pulled, not pushed: each `next()` takes from the bounded inbox, and the pull that drains
    // it to the low-water mark wakes the I/O thread.
    inbound = AsyncThrowingStream(unfolding: { try await inbox.next() })
  }

  /// Starts the I/O thread and the keep-alive task.
  package func start() {
    inbox.setOnCancel { [weak self] in self?.beginClose(code: .goingAway, reason: "") }
    let thread = Thread { [self] in run() }
    thread.name = "ServerBeeTransport.WebSocket"
    thread.start()
    guard let interval = options.pingInterval else { return }
    let timeout = options.pongTimeout
    let clock = clock
    let task = Task { [weak self] in
      while !Task.isCancelled {
        do {
          try await clock.sleep(for: interval)
          guard let pauses = self?.inbox.pauseCount, let ping = self?.queuePing() else { return }
          try await clock.sleep(for: timeout)
          guard let self else { return }
          // A pong queued behind messages the slow consumer has not taken yet cannot be read
          // in time: a peer that filled our buffers (reading paused) or whose data still
          // arrives is alive. Only a ping with no pong, no read and no pause is a dead peer.
          if !self.peerAnswered(ping) && !self.inbox.hasPaused(since: pauses) {
            self.fail(ServerBeeTransportError(.pingTimeout, "no pong within \(timeout)"))
            return
          }
          if interval > timeout { try await clock.sleep(for: interval - timeout) }
        } catch {
          return
        }
      }
    }
    // The connection may already have ended (a fast peer close); then nobody would cancel it.
    let stored = shared.withLock { state -> Bool in
      guard !state.terminated else { return false }
      state.keepAlive = task
      return true
    }
    if !stored { task.cancel() }
  }

  // MARK: - WebSocketConnection

  package var receivedClose: WebSocketClose? { shared.withLock { $0.receivedClose } }

  /// Received messages waiting for the consumer of `inbound` (tests).
  package var bufferedMessageCount: Int { inbox.bufferedCount }
  /// The most received messages that ever waited at once; at most the high-water mark (tests).
  package var peakBufferedMessageCount: Int { inbox.peakBufferedCount }

  package func send(_ message: WebSocketMessage) async throws {
    let (opcode, payload): (WebSocketOpcode, [UInt8]) =
      switch message {
      case .text(let text): (.text, Array(text.utf8))
      case .binary(let data): (.binary, Array(data))
      }
    try await withCheckedThrowingContinuation {
      (completion: CheckedContinuation<Void, any Error>) in
      let refused = shared.withLock { state -> Bool in
        guard !state.terminated, !state.closeQueued else { return true }
        // Compress and queue under one lock: with context takeover the peer must inflate
        // messages in exactly the order they were compressed.
        var frame = WebSocketFrame(opcode: opcode, payload: payload)
        if let deflater = state.deflater {
          frame.payload = deflater.compress(payload)
          frame.rsv1 = true
          if resetsDeflaterPerMessage { deflater.reset() }
        }
        state.outbound.append(Outbound(bytes: encode(frame), completion: completion))
        return false
      }
      if refused {
        completion.resume(
          throwing: ServerBeeTransportError(.connectionClosed, "the connection is closed"))
      } else {
        wake.wake()
      }
    }
  }

  package func ping() async throws {
    try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
      let queued = shared.withLock { state -> Bool in
        guard !state.terminated, !state.closeQueued else { return false }
        state.nextPingID += 1
        state.pingWaiters.append((state.nextPingID, waiter))
        state.outbound.append(Outbound(bytes: pingFrame(state.nextPingID)))
        return true
      }
      if queued {
        wake.wake()
      } else {
        waiter.resume(
          throwing: ServerBeeTransportError(.connectionClosed, "the connection is closed"))
      }
    }
  }

  package func close(code: WebSocketCloseCode, reason: String?) async {
    beginClose(code: code, reason: reason ?? "")
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let done = shared.withLock { state -> Bool in
        if state.terminated { return true }
        state.closeWaiters.append(waiter)
        return false
      }
      if done { waiter.resume() }
    }
  }

  // MARK: - Commands from other threads

  private var resetsDeflaterPerMessage: Bool {
    guard let deflate = options.deflate else { return false }
    return options.role == .client
      ? deflate.clientNoContextTakeover : deflate.serverNoContextTakeover
  }

  private func encode(_ frame: WebSocketFrame) -> [UInt8] {
    guard options.role == .client else { return frame.encoded(maskKey: nil) }
    var generator = SystemRandomNumberGenerator()
    let key = generator.next() as UInt32
    let keyBytes = (
      UInt8(truncatingIfNeeded: key), UInt8(truncatingIfNeeded: key >> 8),
      UInt8(truncatingIfNeeded: key >> 16), UInt8(truncatingIfNeeded: key >> 24)
    )
    return frame.encoded(maskKey: keyBytes)
  }

  private func pingFrame(_ id: UInt64) -> [UInt8] {
    let payload = (0..<8).map { UInt8(truncatingIfNeeded: id >> (56 - 8 * UInt64($0))) }
    return encode(WebSocketFrame(opcode: .ping, payload: payload))
  }

  /// Queues a keep-alive ping; `nil` once the connection is closing. Returns its id and the
  /// read count when it was queued.
  private func queuePing() -> (id: UInt64, reads: UInt64)? {
    let ping = shared.withLock { state -> (id: UInt64, reads: UInt64)? in
      guard !state.terminated, !state.closeQueued else { return nil }
      state.nextPingID += 1
      state.outbound.append(Outbound(bytes: pingFrame(state.nextPingID)))
      return (state.nextPingID, state.reads)
    }
    if ping != nil { wake.wake() }
    return ping
  }

  /// Whether its pong, or any bytes, arrived since the ping was queued.
  private func peerAnswered(_ ping: (id: UInt64, reads: UInt64)) -> Bool {
    shared.withLock { $0.lastPongID >= ping.id || $0.reads != ping.reads }
  }

  /// Fails the connection from outside the I/O thread (dead peer).
  private func fail(_ error: ServerBeeTransportError) {
    shared.withLock { state in
      if state.externalFailure == nil { state.externalFailure = error }
    }
    wake.wake()
  }

  /// Queues our close frame once; the I/O thread completes the handshake.
  package func beginClose(code: WebSocketCloseCode, reason: String) {
    let payload =
      code.isAllowedInCloseFrame
      ? WebSocketMessageAssembler.closePayload(code: code, reason: reason) : []
    let queued = shared.withLock { state -> Bool in
      guard !state.terminated, !state.closeQueued else { return false }
      state.closeQueued = true
      state.outbound.append(
        Outbound(bytes: encode(WebSocketFrame(opcode: .close, payload: payload)), isClose: true))
      return true
    }
    if queued { wake.wake() }
  }
}

// MARK: - The I/O thread

extension SocketWebSocketConnection {
  private func run() {
    // A server's peers (the simulator's subscribers) mostly sit idle and send little, and each
    // connection keeps this buffer for its life: 16 KiB there. A client reads a
    // large `full_sync` into it, so it keeps 64 KiB (fewer reads and decoder appends).
    var readBuffer = [UInt8](repeating: 0, count: options.role == .server ? 16 * 1024 : 64 * 1024)
    // Frames may have arrived together with the handshake head.
    try? processFrames()
    while !finished {
      takeOutbound()
      if readPaused && (sentCloseOnWire || !inbox.isPaused) {
        // The consumer drained (or we are closing): first the frames already read.
        readPaused = false
        try? processFrames()
        if finished { break }
      }
      let moreInput: Bool
      do {
        try writePending()
        moreInput = try readAvailable(&readBuffer)
        try writePending()
      } catch {
        finish(with: error, lingering: false)
        break
      }
      if finished { break }
      if let deadline = lingerDeadline, ContinuousClock.now >= deadline {
        finish(with: nil, lingering: false)
        break
      }
      if !moreInput { waitForActivity() }
    }
    // Give a final close frame (or error close) a bounded chance to leave.
    let flushDeadline = lingerDeadline ?? ContinuousClock.now.advanced(by: options.closeTimeout)
    while (writeOffset < writeBuffer.count || stream.hasPendingOutput)
      && ContinuousClock.now < flushDeadline
    {
      guard (try? writePending()) != nil else { break }
      if writeOffset >= writeBuffer.count && !stream.hasPendingOutput { break }
      var fds = [pollfd(fd: stream.descriptor, events: Int16(POLLOUT), revents: 0)]
      _ = Posix.poll(&fds, milliseconds: Posix.milliseconds(until: flushDeadline))
    }
    stream.close()
    terminate()
  }

  private func takeOutbound() {
    let (items, failure) = shared.withLock { state in
      let items = state.outbound
      state.outbound.removeAll()
      return (items, state.externalFailure)
    }
    for item in items {
      if sentCloseOnWire {
        item.completion?.resume(throwing: ServerBeeTransportError(.connectionClosed, "closed"))
        continue
      }
      if writeOffset > 0 && writeOffset == writeBuffer.count {
        writeBuffer.removeAll(keepingCapacity: true)
        writeOffset = 0
      }
      writeBuffer.append(contentsOf: item.bytes)
      if let completion = item.completion {
        writeCompletions.append((writeBuffer.count, completion))
      }
      if item.isClose {
        sentCloseOnWire = true
        if lingerDeadline == nil {
          lingerDeadline = ContinuousClock.now.advanced(by: options.closeTimeout)
        }
      }
    }
    if let failure, !finished {
      finish(with: failure, lingering: false)
    }
    checkPendingWrite()
  }

  /// Fails the connection when the peer lets more than `maxPendingWrite` bytes pile up: it is
  /// not reading, and feeding it memory (pongs to a ping flood) would have no bound.
  private func checkPendingWrite() {
    guard !finished, writeBuffer.count - writeOffset > options.maxPendingWrite else { return }
    finish(
      with: ServerBeeTransportError(
        .sendBufferFull,
        "the peer does not read: more than \(options.maxPendingWrite) bytes wait to be sent"),
      lingering: false)
  }

  private func writePending() throws {
    while writeOffset < writeBuffer.count {
      let written = try writeBuffer.withUnsafeBytes {
        try stream.write(UnsafeRawBufferPointer(rebasing: $0[writeOffset...]))
      }
      if written == 0 { break }
      writeOffset += written
    }
    _ = try stream.flush()
    while let first = writeCompletions.first, first.end <= writeOffset {
      writeCompletions.removeFirst()
      first.completion.resume()
    }
    if writeOffset > 1 << 20 && writeCompletions.isEmpty {
      writeBuffer.removeSubrange(0..<writeOffset)
      writeOffset = 0
    }
  }

  /// Reads and handles what is available; returns `true` when it stopped at its per-turn cap
  /// (more input may already be buffered, for example inside OpenSSL, so do not wait in poll).
  private func readAvailable(_ buffer: inout [UInt8]) throws -> Bool {
    // At most 1 MiB per turn, so a peer that floods us cannot starve our writes (pongs,
    // keep-alive pings, the close frame).
    for _ in 0..<16 {
      // Paused: the socket is left unread, so the peer's sends back up into TCP.
      guard !finished, !readPaused else { return false }
      let result = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
      switch result {
      case .wouldBlock: return false
      case .endOfStream:
        if peerClose != nil || sentCloseOnWire {
          finish(with: nil, lingering: false)
        } else {
          finish(
            with: ServerBeeTransportError(
              .connectionLost, "the connection closed without a close frame"),
            lingering: false)
        }
        return false
      case .bytes(let count):
        shared.withLock { $0.reads &+= 1 }
        decoder.append(buffer[0..<count])
        try processFrames()
      }
    }
    return !finished
  }

  private func processFrames() throws {
    do {
      while !finished, !readPaused, let frame = try decoder.nextFrame() {
        guard peerClose == nil else { continue }  // nothing may follow a close frame
        switch try assembler.handle(frame) {
        case .message(let message)?:
          if inbox.deliver(message, closing: sentCloseOnWire) { readPaused = true }
        case .ping(let payload)?:
          if !sentCloseOnWire {
            queueDirect(encode(WebSocketFrame(opcode: .pong, payload: payload)))
          }
        case .pong(let payload)?: receivedPong(payload)
        case .close(let close)?: receivedCloseFrame(close)
        case nil: break
        }
      }
    } catch let failure {
      // RFC 6455 §7.1.7: fail the connection with the prescribed close code.
      if !sentCloseOnWire {
        let payload = WebSocketMessageAssembler.closePayload(code: failure.closeCode, reason: "")
        queueDirect(encode(WebSocketFrame(opcode: .close, payload: payload)))
        sentCloseOnWire = true
      }
      shared.withLock { $0.closeQueued = true }
      lingerDeadline = ContinuousClock.now.advanced(by: options.closeTimeout)
      finish(with: failure.transportError, lingering: true)
    }
  }

  private func queueDirect(_ bytes: [UInt8]) {
    writeBuffer.append(contentsOf: bytes)
    checkPendingWrite()
  }

  private func receivedPong(_ payload: [UInt8]) {
    guard payload.count == 8 else { return }  // unsolicited pongs are allowed and ignored
    let id = payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let ready = shared.withLock { state -> [CheckedContinuation<Void, any Error>] in
      state.lastPongID = max(state.lastPongID, id)
      let ready = state.pingWaiters.filter { $0.id <= id }.map(\.continuation)
      state.pingWaiters.removeAll { $0.id <= id }
      return ready
    }
    for waiter in ready { waiter.resume() }
  }

  private func receivedCloseFrame(_ close: WebSocketClose) {
    peerClose = close
    shared.withLock {
      $0.receivedClose = close
      $0.closeQueued = true
    }
    if !sentCloseOnWire {
      let payload =
        close.code.isAllowedInCloseFrame
        ? WebSocketMessageAssembler.closePayload(code: close.code, reason: "") : []
      queueDirect(encode(WebSocketFrame(opcode: .close, payload: payload)))
      sentCloseOnWire = true
    }
    inbox.finish()
    if lingerDeadline == nil {
      lingerDeadline = ContinuousClock.now.advanced(by: options.closeTimeout)
    }
    // The server closes TCP first (RFC 6455 §7.1.1); a client waits for it, bounded.
    if options.role == .server { finish(with: nil, lingering: true) }
  }

  private func finish(with error: (any Error)?, lingering: Bool) {
    guard !finished else { return }
    finished = true
    outcome = error
    if !lingering { lingerDeadline = ContinuousClock.now }
    inbox.finish(throwing: error)
  }

  private func waitForActivity() {
    let wantsWrite = writeOffset < writeBuffer.count || stream.hasPendingOutput
    // Paused with nothing to write: leave the socket out (a negative descriptor is ignored), or
    // a hang-up or error on it would wake this loop at once, again and again.
    let socketEvents = (readPaused ? 0 : Int16(POLLIN)) | (wantsWrite ? Int16(POLLOUT) : 0)
    var fds = [
      pollfd(fd: socketEvents == 0 ? -1 : stream.descriptor, events: socketEvents, revents: 0),
      pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    _ = Posix.poll(&fds, milliseconds: Posix.milliseconds(until: lingerDeadline))
    if fds[1].revents != 0 { wake.drain() }
  }

  private func terminate() {
    let closedError = ServerBeeTransportError(.connectionClosed, "the connection is closed")
    let state = shared.withLock { state -> Shared in
      state.terminated = true
      let copy = state
      state.pingWaiters = []
      state.closeWaiters = []
      state.outbound = []
      state.keepAlive = nil
      return copy
    }
    state.keepAlive?.cancel()
    let failure = outcome ?? closedError
    for item in state.outbound { item.completion?.resume(throwing: closedError) }
    for waiter in state.pingWaiters { waiter.continuation.resume(throwing: failure) }
    for (_, completion) in writeCompletions { completion.resume(throwing: failure) }
    writeCompletions = []
    for waiter in state.closeWaiters { waiter.resume() }
    inbox.finish()
  }
}
