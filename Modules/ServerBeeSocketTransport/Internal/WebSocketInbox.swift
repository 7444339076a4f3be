import ServerBeeModels
import ServerBeeTransport

/// The received messages of one ``SocketWebSocketConnection`` that its single consumer has not
/// taken yet, bounded by high- and low-water marks.
///
/// The I/O thread hands each message to ``deliver(_:closing:)``; once the messages or their
/// bytes reach a high-water mark it stops reading the socket, so TCP flow control slows the
/// peer instead of this buffer growing with whatever the peer sends. The consumer pulls with
/// ``next()`` (the `unfolding` closure of the connection's `inbound` stream, so the public
/// `AsyncThrowingStream` type stays); when a pull brings the buffer down to both low-water marks,
/// the pause ends and the I/O thread is woken. The gap between the marks keeps the thread from
/// waking per message while the consumer is the bottleneck.
///
/// Nothing here blocks: the consumer suspends on a continuation that the I/O thread resumes, and
/// the I/O thread only takes the lock.
final class WebSocketInbox: Sendable {
  /// The marks; the low ones are a quarter of the high ones.
  struct Limits: Sendable, Hashable {
    var highWaterMessages: Int
    var highWaterBytes: Int
    var lowWaterMessages: Int { highWaterMessages / 4 }
    var lowWaterBytes: Int { highWaterBytes / 4 }

    init(messages: Int, bytes: Int) {
      highWaterMessages = max(1, messages)
      highWaterBytes = max(1, bytes)
    }
  }

  private enum End {
    case finished
    case failed(any Error)
    /// The end was handed to the consumer.
    case delivered
  }

  private struct State {
    var messages: [WebSocketMessage] = []
    var head = 0
    var bytes = 0
    var end: End?
    var reader: CheckedContinuation<WebSocketMessage?, any Error>?
    var readerCancelled = false
    var paused = false
    var pauses = 0
    var peakCount = 0
    var dropped = 0
    var onCancel: (@Sendable () -> Void)?

    var count: Int { messages.count - head }

    mutating func popFirst() -> WebSocketMessage? {
      guard head < messages.count else { return nil }
      let message = messages[head]
      head += 1
      bytes -= WebSocketInbox.size(of: message)
      // Compact now and then instead of `removeFirst()` per message.
      if head == messages.count {
        messages.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 64 && head * 2 >= messages.count {
        messages.removeSubrange(0..<head)
        head = 0
      }
      return message
    }
  }

  let limits: Limits
  private let wake: WakePipe
  private let state = Locked(State())

  init(limits: Limits, wake: WakePipe) {
    self.limits = limits
    self.wake = wake
  }

  /// Called (once) when the consumer's task is cancelled while it waits; the connection closes
  /// with 1001, as its stream's `onTermination` did before.
  func setOnCancel(_ body: @escaping @Sendable () -> Void) {
    state.withLock { $0.onCancel = body }
  }

  static func size(of message: WebSocketMessage) -> Int {
    switch message {
    case .text(let text): text.utf8.count
    case .binary(let data): data.count
    }
  }

  // MARK: - I/O thread

  /// Hands one message to the consumer or buffers it.
  /// - Parameters:
  ///   - message: The message.
  ///   - closing: Our close frame is on the wire: reading never pauses then (the peer's close
  ///     must be seen within the close timeout), so a message that finds the buffer at its
  ///     high-water mark is dropped; the application asked to close.
  /// - Returns: Whether reading must pause until the consumer drains.
  func deliver(_ message: WebSocketMessage, closing: Bool) -> Bool {
    let (reader, pause) = state.withLock {
      state -> (CheckedContinuation<WebSocketMessage?, any Error>?, Bool) in
      if state.readerCancelled { return (nil, false) }  // nobody will read it
      if let reader = state.reader {
        state.reader = nil
        return (reader, false)
      }
      let full = state.count >= limits.highWaterMessages || state.bytes >= limits.highWaterBytes
      if closing && full {
        state.dropped += 1
        return (nil, false)
      }
      state.messages.append(message)
      state.bytes += Self.size(of: message)
      state.peakCount = max(state.peakCount, state.count)
      guard !closing,
        state.count >= limits.highWaterMessages || state.bytes >= limits.highWaterBytes
      else { return (nil, false) }
      state.paused = true
      state.pauses += 1
      return (nil, true)
    }
    reader?.resume(returning: message)
    return pause
  }

  /// Whether reading is still paused (the consumer has not drained to the low-water marks).
  var isPaused: Bool { state.withLock { $0.paused } }

  /// Ends the stream after what is buffered: normally, or with `error`. The first call wins.
  func finish(throwing error: (any Error)? = nil) {
    let reader = state.withLock { state -> CheckedContinuation<WebSocketMessage?, any Error>? in
      guard state.end == nil else { return nil }
      state.end = error.map { .failed($0) } ?? .finished
      state.paused = false
      // A waiting reader means the buffer is empty: hand it the end now.
      guard let reader = state.reader else { return nil }
      state.reader = nil
      state.end = .delivered
      return reader
    }
    if let error {
      reader?.resume(throwing: error)
    } else {
      reader?.resume(returning: nil)
    }
  }

  // MARK: - Keep-alive

  /// How many times reading has paused so far.
  var pauseCount: Int { state.withLock { $0.pauses } }

  /// Whether reading is paused now or has paused since `count` was read from ``pauseCount``:
  /// then a missing pong proves nothing, it may wait unread behind the messages.
  func hasPaused(since count: Int) -> Bool {
    state.withLock { $0.paused || $0.pauses != count }
  }

  // MARK: - Consumer

  /// The next message, `nil` at the end (or once the consuming task is cancelled); throws the
  /// connection's failure once, after every buffered message.
  func next() async throws -> WebSocketMessage? {
    if Task.isCancelled {
      cancelReader()
      return nil
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (reader: CheckedContinuation<WebSocketMessage?, any Error>) in
        take(reader)
      }
    } onCancel: {
      cancelReader()
    }
  }

  private enum Taken {
    case message(WebSocketMessage, resumeReading: Bool)
    case end
    case failure(any Error)
    case waiting
  }

  private func take(_ reader: CheckedContinuation<WebSocketMessage?, any Error>) {
    let taken = state.withLock { state -> Taken in
      if state.readerCancelled { return .end }
      if let message = state.popFirst() {
        let resume =
          state.paused && state.count <= limits.lowWaterMessages
          && state.bytes <= limits.lowWaterBytes
        if resume { state.paused = false }
        return .message(message, resumeReading: resume)
      }
      switch state.end {
      case .failed(let error)?:
        state.end = .delivered
        return .failure(error)
      case .finished?, .delivered?:
        state.end = .delivered
        return .end
      case nil:
        // One consumer: a second concurrent `next()` is a misuse and ends at once.
        guard state.reader == nil else { return .end }
        state.reader = reader
        return .waiting
      }
    }
    switch taken {
    case .message(let message, let resumeReading):
      if resumeReading { wake.wake() }
      reader.resume(returning: message)
    case .end: reader.resume(returning: nil)
    case .failure(let error): reader.resume(throwing: error)
    case .waiting: break
    }
  }

  private func cancelReader() {
    let (reader, onCancel, wasPaused) = state.withLock {
      state -> (CheckedContinuation<WebSocketMessage?, any Error>?, (@Sendable () -> Void)?, Bool)
      in
      guard !state.readerCancelled else { return (nil, nil, false) }
      state.readerCancelled = true
      // Nobody reads any more: free the buffer and let the I/O thread read on (and drop).
      state.messages = []
      state.head = 0
      state.bytes = 0
      let wasPaused = state.paused
      state.paused = false
      let reader = state.reader
      state.reader = nil
      return (reader, state.onCancel, wasPaused)
    }
    reader?.resume(returning: nil)
    if wasPaused { wake.wake() }
    onCancel?()
  }

  // MARK: - Tests

  /// Messages waiting for the consumer now.
  var bufferedCount: Int { state.withLock { $0.count } }
  /// The most messages that ever waited at once.
  var peakBufferedCount: Int { state.withLock { $0.peakCount } }
  /// Messages dropped because they arrived after our close with the buffer full.
  var droppedCount: Int { state.withLock { $0.dropped } }
}
