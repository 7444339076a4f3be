import ServerBeeModels
package import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A self-pipe that wakes a thread blocked in `poll`: for queued frames, close, or cancellation.
///
/// Writes and reads are non-blocking, and a full pipe already means "wake up", so ``wake()`` never
/// blocks. ``isCancelled`` is a sticky flag for blocking setup steps (connect, TLS, handshake).
package final class WakePipe: @unchecked Sendable {
  // @unchecked: the descriptors are immutable after init; the flag is behind a lock.
  package let readDescriptor: Int32
  private let writeDescriptor: Int32
  private let cancelled = Locked(false)

  package init() throws(ServerBeeTransportError) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else {
      throw ServerBeeTransportError(.connectionFailed, "pipe() failed: \(Posix.errorText())")
    }
    readDescriptor = fds[0]
    writeDescriptor = fds[1]
    Posix.prepare(readDescriptor)
    Posix.prepare(writeDescriptor)
  }

  deinit {
    close(readDescriptor)
    close(writeDescriptor)
  }

  /// Wakes the polling thread.
  package func wake() {
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Marks the pending setup as cancelled and wakes the thread.
  package func cancel() {
    cancelled.withLock { $0 = true }
    wake()
  }

  /// Whether ``cancel()`` was called.
  package var isCancelled: Bool { cancelled.withLock { $0 } }

  /// Waits until `descriptor` is ready for `events`, this pipe is woken, or `deadline` passes;
  /// the one poll used by every blocking setup step.
  /// - Throws: `CancellationError` after ``cancel()``; `timedOut` (with `what` in the message)
  ///   when the deadline passes.
  package func wait(
    for descriptor: Int32, events: Int16, until deadline: ContinuousClock.Instant, what: String
  ) throws {
    var fds = [
      pollfd(fd: descriptor, events: events, revents: 0),
      pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    let ready = Posix.poll(&fds, milliseconds: Posix.milliseconds(until: deadline))
    if fds[1].revents != 0 { drain() }
    if isCancelled { throw CancellationError() }
    if ready == 0 { throw ServerBeeTransportError(.timedOut, "\(what) timed out") }
  }

  /// Empties the pipe after a wake-up.
  package func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readDescriptor, &buffer, buffer.count) > 0 {}
  }
}
