import ServerBeeModels
package import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The result of a non-blocking read.
package enum StreamRead: Equatable {
  /// `count` bytes were read.
  case bytes(Int)
  /// Nothing to read now; poll for readability.
  case wouldBlock
  /// The peer closed its side.
  case endOfStream
}

/// A non-blocking byte stream over a connected socket: plain TCP or TLS.
///
/// Not thread-safe: exactly one thread (the connection's I/O thread, or the setup thread before
/// it) uses a stream at a time.
package protocol ByteStream: AnyObject {
  /// The socket to poll.
  var descriptor: Int32 { get }
  /// Whether bytes are queued below the caller (TLS records not yet on the socket).
  var hasPendingOutput: Bool { get }
  /// Reads what is available.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(ServerBeeTransportError)
    -> StreamRead
  /// Writes what the socket accepts now; returns how many bytes of `bytes` were taken.
  func write(_ bytes: UnsafeRawBufferPointer) throws(ServerBeeTransportError) -> Int
  /// Pushes queued output to the socket; returns `true` when nothing is left.
  func flush() throws(ServerBeeTransportError) -> Bool
  /// Closes the socket (after a best-effort TLS close_notify).
  func close()
}

/// Plain TCP on a non-blocking socket.
package final class PlainStream: ByteStream {
  package let descriptor: Int32
  private var closed = false

  package init(descriptor: Int32) { self.descriptor = descriptor }
  deinit { close() }

  package var hasPendingOutput: Bool { false }

  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(ServerBeeTransportError)
    -> StreamRead
  {
    try Posix.receive(descriptor, into: buffer)
  }

  package func write(_ bytes: UnsafeRawBufferPointer) throws(ServerBeeTransportError) -> Int {
    try Posix.send(descriptor, bytes)
  }

  package func flush() throws(ServerBeeTransportError) -> Bool { true }

  package func close() {
    guard !closed else { return }
    closed = true
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
    Posix.closeDescriptor(descriptor)
  }
}
