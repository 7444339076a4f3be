import Foundation
import ServerBeeModels
import ServerBeeSocketTransport
import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A listening TCP socket (IPv4 or IPv6) for the simulator and tests; port 0 picks a free port.
///
/// ```swift
/// let listener = try TCPListener()            // 127.0.0.1, ephemeral port
/// let socket = try await listener.accept()
/// let request = try await HTTPServerRequest.read(from: socket)
/// let connection = try await request.acceptWebSocket()
/// ```
package final class TCPListener: Sendable {
  /// The bound port.
  package let port: UInt16
  private let descriptor: Int32
  private let wake: WakePipe
  private let closed = Locked(false)
  private let onDescriptorExhaustion: (@Sendable () -> Void)?

  /// Binds and listens.
  /// - Parameters:
  ///   - host: An IP address to bind (IPv6 when it contains `:`); `127.0.0.1` by default.
  ///   - port: The port, or 0 for an ephemeral one.
  ///   - backlog: The queue of connections not yet accepted; 128 by default.
  ///   - onDescriptorExhaustion: Told each time `accept` finds no free descriptor; the
  ///     listener then retries every 100 ms (the connection waits in the queue). `nil` by
  ///     default.
  /// - Throws: ``ServerBeeTransportError`` with `connectionFailed`.
  package init(
    host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 128,
    onDescriptorExhaustion: (@Sendable () -> Void)? = nil
  ) throws {
    self.onDescriptorExhaustion = onDescriptorExhaustion
    let isIPv6 = host.contains(":")
    let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Posix.streamSocketType, 0)
    guard fd >= 0 else {
      throw ServerBeeTransportError(.connectionFailed, "socket() failed: \(Posix.errorText())")
    }
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    do {
      self.port =
        try isIPv6
        ? Self.bindIPv6(fd, host, port, backlog)
        : Self.bindIPv4(fd, host, port, backlog)
    } catch {
      Posix.closeDescriptor(fd)
      throw error
    }
    Posix.prepare(fd)
    self.descriptor = fd
    self.wake = try WakePipe()
  }

  private static func bindIPv4(
    _ fd: Int32, _ host: String, _ port: UInt16, _ backlog: Int32
  ) throws -> UInt16 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      throw ServerBeeTransportError(.invalidURL, "\(host) is not an IP address")
    }
    try bindAndListen(fd, &address, backlog)
    return UInt16(bigEndian: address.sin_port)
  }

  private static func bindIPv6(
    _ fd: Int32, _ host: String, _ port: UInt16, _ backlog: Int32
  ) throws -> UInt16 {
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = port.bigEndian
    guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
      throw ServerBeeTransportError(.invalidURL, "\(host) is not an IP address")
    }
    try bindAndListen(fd, &address, backlog)
    return UInt16(bigEndian: address.sin6_port)
  }

  /// Binds `address`, listens, and writes the bound address (with the real port) back.
  private static func bindAndListen<Address>(
    _ fd: Int32, _ address: inout Address, _ backlog: Int32
  ) throws {
    var length = socklen_t(MemoryLayout<Address>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, listen(fd, backlog) == 0 else {
      throw ServerBeeTransportError(.connectionFailed, "bind/listen failed: \(Posix.errorText())")
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
  }

  /// Call ``close()`` first when an ``accept()`` may still be pending.
  deinit { Posix.closeDescriptor(descriptor) }

  /// Waits for the next connection without blocking the cooperative pool.
  /// - Returns: The accepted socket.
  /// - Throws: `connectionClosed` after ``close()``; `CancellationError` when cancelled.
  package func accept() async throws -> AcceptedSocket {
    let descriptor = descriptor
    let wake = wake
    let closed = closed
    let exhausted = onDescriptorExhaustion
    return try await BlockingIO.run(wake: wake) { () throws -> AcceptedSocket in
      while true {
        if closed.withLock({ $0 }) {
          throw ServerBeeTransportError(.connectionClosed, "the listener is closed")
        }
        let fd = Posix.accept(descriptor)
        if fd >= 0 {
          Posix.prepare(fd)
          Posix.setNoDelay(fd)
          return AcceptedSocket(
            descriptor: fd, peerAddress: Posix.peerAddress(fd), acceptedAt: .now)
        }
        // Out of descriptors: the listener used to end here and the server stopped accepting
        // for good, without a word (issue 24). Now it waits for one to be freed.
        let outOfDescriptors = errno == EMFILE || errno == ENFILE
        guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || outOfDescriptors
        else {
          throw ServerBeeTransportError(.connectionFailed, "accept failed: \(Posix.errorText())")
        }
        if outOfDescriptors { exhausted?() }
        var fds = [
          pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        if outOfDescriptors { fds[0].events = 0 }
        _ = Posix.poll(&fds, milliseconds: outOfDescriptors ? 100 : -1)
        if fds[1].revents != 0 { wake.drain() }
        if wake.isCancelled { throw CancellationError() }
      }
    }.value
  }

  /// Stops accepting at once: new connections are refused and a pending ``accept()`` throws.
  package func close() {
    let first = closed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    // Leaving the LISTEN state now (not at deinit) refuses new connections and frees the port,
    // while the descriptor stays valid for a concurrent poll.
    if first { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    wake.wake()
  }
}

/// An accepted TCP connection, not yet upgraded; closed on deinit unless handed on.
package final class AcceptedSocket: @unchecked Sendable {
  // @unchecked: the descriptor moves to exactly one owner (`take()`), guarded by the lock.
  private let owned: Locked<Int32?>
  /// The peer's IP address (for example `127.0.0.1`), or an empty string when unknown.
  package let peerAddress: String
  /// When the connection was accepted: its age under load shedding counts from here.
  package let acceptedAt: ContinuousClock.Instant

  init(descriptor: Int32, peerAddress: String, acceptedAt: ContinuousClock.Instant) {
    owned = Locked(descriptor)
    self.peerAddress = peerAddress
    self.acceptedAt = acceptedAt
  }

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
