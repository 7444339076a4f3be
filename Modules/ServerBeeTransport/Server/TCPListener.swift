import Foundation
import ServerBeeModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A listening TCP socket (IPv4) for the simulator and tests; port 0 picks a free port.
///
/// ```swift
/// let listener = try TCPListener()            // 127.0.0.1, ephemeral port
/// let socket = try await listener.accept()
/// let upgrade = try await WebSocketServerUpgrade.read(from: socket)
/// let connection = try await upgrade.accept()
/// ```
package final class TCPListener: Sendable {
  /// The bound port.
  package let port: UInt16
  private let descriptor: Int32
  private let wake: WakePipe
  private let closed = Locked(false)

  /// Binds and listens.
  /// - Parameters:
  ///   - host: An IPv4 address to bind; `127.0.0.1` by default.
  ///   - port: The port, or 0 for an ephemeral one.
  /// - Throws: ``ServerBeeTransportError`` with `connectionFailed`.
  package init(host: String = "127.0.0.1", port: UInt16 = 0) throws {
    let fd = socket(AF_INET, Posix.streamSocketType, 0)
    guard fd >= 0 else {
      throw ServerBeeTransportError(.connectionFailed, "socket() failed: \(Posix.errorText())")
    }
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      Posix.closeDescriptor(fd)
      throw ServerBeeTransportError(.invalidURL, "\(host) is not an IPv4 address")
    }
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, listen(fd, 128) == 0 else {
      let text = Posix.errorText()
      Posix.closeDescriptor(fd)
      throw ServerBeeTransportError(.connectionFailed, "bind/listen failed: \(text)")
    }
    var actual = sockaddr_in()
    var actualLength = length
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
    }
    Posix.prepare(fd)
    self.port = UInt16(bigEndian: actual.sin_port)
    self.descriptor = fd
    self.wake = try WakePipe()
  }

  deinit { Posix.closeDescriptor(descriptor) }

  /// Waits for the next connection without blocking the cooperative pool.
  /// - Returns: The accepted socket.
  /// - Throws: `connectionClosed` after ``close()``; `CancellationError` when cancelled.
  package func accept() async throws -> AcceptedSocket {
    let descriptor = descriptor
    let wake = wake
    let closed = closed
    return try await BlockingIO.run(wake: wake) { () throws -> AcceptedSocket in
      while true {
        if closed.withLock({ $0 }) {
          throw ServerBeeTransportError(.connectionClosed, "the listener is closed")
        }
        let fd = Posix.accept(descriptor)
        if fd >= 0 {
          Posix.prepare(fd)
          Posix.setNoDelay(fd)
          return AcceptedSocket(descriptor: fd)
        }
        guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
          throw ServerBeeTransportError(.connectionFailed, "accept failed: \(Posix.errorText())")
        }
        var fds = [
          pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        _ = Posix.poll(&fds, milliseconds: -1)
        if fds[1].revents != 0 { wake.drain() }
        if wake.isCancelled { throw CancellationError() }
      }
    }.value
  }

  /// Stops accepting; a pending ``accept()`` throws.
  package func close() {
    closed.withLock { $0 = true }
    wake.wake()
  }
}

/// An accepted TCP connection, not yet upgraded; closed on deinit unless handed on.
package final class AcceptedSocket: @unchecked Sendable {
  // @unchecked: the descriptor moves to exactly one owner (`take()`), guarded by the lock.
  private let owned: Locked<Int32?>

  init(descriptor: Int32) { owned = Locked(descriptor) }

  /// Hands the descriptor to a new owner; `nil` if it was already taken.
  func take() -> Int32? {
    owned.withLock { descriptor in
      defer { descriptor = nil }
      return descriptor
    }
  }

  deinit {
    if let descriptor = take() { Posix.closeDescriptor(descriptor) }
  }
}
