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
  private let overflow: Overflow

  /// What a listener out of file descriptors does (see ``init(host:port:backlog:overflowAnswer:onDescriptorsExhausted:)``).
  private final class Overflow: Sendable {
    let answer: [UInt8]
    let notify: (@Sendable () -> Void)?
    /// A descriptor kept open to be closed when the process has none left, so that one waiting
    /// connection can still be accepted, answered and closed; -1 while spent.
    let reserve = Locked<Int32>(-1)
    /// When the last report was made (at most one a minute).
    let reported = Locked<ContinuousClock.Instant?>(nil)

    init(answer: [UInt8], notify: (@Sendable () -> Void)?) {
      self.answer = answer
      self.notify = notify
      reserve.withLock { $0 = Overflow.openReserve() }
    }

    deinit {
      let spare = reserve.withLock { $0 }
      if spare >= 0 { Posix.closeDescriptor(spare) }
    }

    static func openReserve() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }
  }

  /// Binds and listens.
  /// - Parameters:
  ///   - host: An IP address to bind (IPv6 when it contains `:`); `127.0.0.1` by default.
  ///   - port: The port, or 0 for an ephemeral one.
  ///   - backlog: The queue of connections not yet accepted; 128 by default.
  ///   - overflowAnswer: The bytes written to a connection accepted when the process is out of
  ///     file descriptors (with a descriptor kept in reserve for it), before it is closed;
  ///     empty (the default) closes it without a word. Without a reserve left, ``accept()``
  ///     waits for descriptors to be freed (checking every 100 ms) instead of failing.
  ///   - onDescriptorsExhausted: Called when descriptors run out, at most once a minute.
  /// - Throws: ``ServerBeeTransportError`` with `connectionFailed`.
  package init(
    host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 128,
    overflowAnswer: [UInt8] = [], onDescriptorsExhausted: (@Sendable () -> Void)? = nil
  ) throws {
    overflow = Overflow(answer: overflowAnswer, notify: onDescriptorsExhausted)
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
    let overflow = overflow
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
        let failure = errno
        var pause: Int32 = -1
        switch failure {
        case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO:
          break
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // Out of descriptors (or kernel memory): answer one waiting connection with the
          // reserve, else wait a little for descriptors to be freed. Failing here would end
          // the server's accept loop for good.
          if failure == EMFILE || failure == ENFILE { Self.reportExhausted(overflow) }
          if Self.answerWithReserve(descriptor, overflow) { continue }
          pause = 100
        default:
          throw ServerBeeTransportError(.connectionFailed, "accept failed: \(Posix.errorText())")
        }
        var fds = [
          pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        if pause >= 0 { fds.removeFirst() }
        _ = Posix.poll(&fds, milliseconds: pause)
        if fds.last?.revents ?? 0 != 0 { wake.drain() }
        if wake.isCancelled { throw CancellationError() }
      }
    }.value
  }

  private static func reportExhausted(_ overflow: Overflow) {
    let now = ContinuousClock.now
    let report = overflow.reported.withLock { last -> Bool in
      if let last, now - last < .seconds(60) { return false }
      last = now
      return true
    }
    if report { overflow.notify?() }
  }

  /// Spends the reserve descriptor on one waiting connection: accepts it, reads what it sent
  /// already (so that closing does not reset the connection and lose the answer), writes the
  /// overflow answer and closes it, then takes the reserve back. `false` without a reserve.
  private static func answerWithReserve(_ listener: Int32, _ overflow: Overflow) -> Bool {
    let spare = overflow.reserve.withLock { reserve -> Int32 in
      defer { reserve = -1 }
      return reserve
    }
    guard spare >= 0 else { return false }
    Posix.closeDescriptor(spare)
    let fd = Posix.accept(listener)
    if fd >= 0 {
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      _ = Posix.poll(&fds, milliseconds: 100)
      var scratch = [UInt8](repeating: 0, count: 16 * 1024)
      _ = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      _ = overflow.answer.withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      }
      _ = shutdown(fd, Int32(SHUT_WR))
      Posix.closeDescriptor(fd)
    }
    overflow.reserve.withLock { $0 = Overflow.openReserve() }
    return fd >= 0
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

  /// Writes `bytes` without waiting (best effort) and closes: for a connection the server
  /// cannot take on.
  func answerAndClose(_ bytes: [UInt8]) {
    guard let fd = take() else { return }
    _ = bytes.withUnsafeBytes {
      send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
    }
    _ = shutdown(fd, Int32(SHUT_WR))
    Posix.closeDescriptor(fd)
  }

  /// Hands the descriptor to a new owner; `nil` if it was already taken.
  package func take() -> Int32? {
    owned.withLock { descriptor in
      defer { descriptor = nil }
      return descriptor
    }
  }

  deinit {
    if let descriptor = take() { Posix.closeDescriptor(descriptor) }
  }
}
