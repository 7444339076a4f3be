import ServerBeeModels
import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens a TCP connection with a deadline: name resolution (IPv4 and IPv6), then a non-blocking
/// `connect` + `poll` on each address in order until one succeeds.
///
/// Runs on a setup thread (never on the cooperative pool). `getaddrinfo` itself cannot be
/// interrupted; everything after it honours the deadline and the wake pipe's cancellation.
package enum TCPConnector {
  /// Connects to `host:port`.
  /// - Returns: A connected, non-blocking socket with `TCP_NODELAY`.
  /// - Throws: `nameResolutionFailed`, `connectionRefused`, `timedOut`, `connectionFailed`, or
  ///   `CancellationError`.
  package static func connect(
    host: String, port: UInt16, deadline: ContinuousClock.Instant, wake: WakePipe
  ) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Posix.streamSocketType
    hints.ai_flags = AI_ADDRCONFIG
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw ServerBeeTransportError(
        .nameResolutionFailed, "could not resolve \(host): \(String(cString: gai_strerror(status)))"
      )
    }
    defer { freeaddrinfo(first) }
    var lastError = ServerBeeTransportError(.connectionFailed, "no address for \(host)")
    var cursor: UnsafeMutablePointer<addrinfo>? = first
    while let entry = cursor {
      cursor = entry.pointee.ai_next
      if wake.isCancelled { throw CancellationError() }
      do {
        return try attempt(entry.pointee, deadline: deadline, wake: wake)
      } catch let error as ServerBeeTransportError {
        lastError = error
        if error.code == .timedOut { throw error }
      }
    }
    throw lastError
  }

  private static func attempt(
    _ address: addrinfo, deadline: ContinuousClock.Instant, wake: WakePipe
  ) throws -> Int32 {
    let fd = socket(address.ai_family, Posix.streamSocketType, 0)
    guard fd >= 0 else {
      throw ServerBeeTransportError(.connectionFailed, "socket() failed: \(Posix.errorText())")
    }
    Posix.prepare(fd)
    var keep = false
    defer { if !keep { Posix.closeDescriptor(fd) } }
    if Posix.connect(fd, address.ai_addr, address.ai_addrlen) != 0 {
      guard errno == EINPROGRESS else { throw failure(errno) }
      try wake.wait(for: fd, events: Int16(POLLOUT), until: deadline, what: "the TCP connect")
      var socketError: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
      guard socketError == 0 else { throw failure(socketError) }
    }
    Posix.setNoDelay(fd)
    keep = true
    return fd
  }

  private static func failure(_ code: Int32) -> ServerBeeTransportError {
    switch code {
    case ECONNREFUSED:
      ServerBeeTransportError(.connectionRefused, "the server refused the connection")
    case ETIMEDOUT: ServerBeeTransportError(.timedOut, "TCP connect timed out")
    default: ServerBeeTransportError(.connectionFailed, "connect failed: \(Posix.errorText(code))")
    }
  }
}
