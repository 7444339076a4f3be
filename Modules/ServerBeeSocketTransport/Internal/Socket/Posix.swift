import ServerBeeModels
import ServerBeeTransport

#if canImport(Glibc)
  package import Glibc
#elseif canImport(Darwin)
  package import Darwin
#endif

/// Small POSIX helpers shared by the socket code (errno text, non-blocking mode, poll).
package enum Posix {
  #if canImport(Glibc)
    package static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    static let streamSocketType = SOCK_STREAM
    static let sendFlags: Int32 = 0
  #endif

  /// The current `errno` as readable text.
  package static func errorText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
  }

  /// Makes `fd` non-blocking and close-on-exec; on Apple also turns off SIGPIPE for the socket.
  package static func prepare(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// One non-blocking `recv`, retried on EINTR; a reset counts as the end of the stream.
  static func receive(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer
  ) throws(ServerBeeTransportError) -> StreamRead {
    while true {
      let count = recv(fd, buffer.baseAddress, buffer.count, 0)
      if count > 0 { return .bytes(count) }
      if count == 0 { return .endOfStream }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case ECONNRESET: return .endOfStream
      default: throw ServerBeeTransportError(.connectionLost, "recv failed: \(errorText())")
      }
    }
  }

  /// One non-blocking `send` without SIGPIPE, retried on EINTR; 0 when the socket is full.
  static func send(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer
  ) throws(ServerBeeTransportError) -> Int {
    while true {
      #if canImport(Glibc)
        let count = Glibc.send(fd, bytes.baseAddress, bytes.count, sendFlags)
      #else
        let count = Darwin.send(fd, bytes.baseAddress, bytes.count, sendFlags)
      #endif
      if count >= 0 { return count }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return 0
      default: throw ServerBeeTransportError(.connectionLost, "send failed: \(errorText())")
      }
    }
  }

  /// Starts a connect on a socket.
  static func connect(
    _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t
  ) -> Int32 {
    #if canImport(Glibc)
      Glibc.connect(fd, address, length)
    #else
      Darwin.connect(fd, address, length)
    #endif
  }

  /// Accepts a pending connection on a listening socket.
  package static func accept(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.accept(fd, nil, nil)
    #else
      Darwin.accept(fd, nil, nil)
    #endif
  }

  /// The numeric IP address of a connected socket's peer; empty when it cannot be read.
  package static func peerAddress(_ fd: Int32) -> String {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let ok = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
    }
    guard ok else { return "" }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let family = Int32(storage.ss_family)
    let converted = withUnsafePointer(to: &storage) { pointer -> Bool in
      if family == AF_INET {
        return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
          var raw = address.pointee.sin_addr
          return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
        }
      }
      guard family == AF_INET6 else { return false }
      return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
        var raw = address.pointee.sin6_addr
        return inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil
      }
    }
    guard converted else { return "" }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Closes a descriptor.
  package static func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  /// Disables Nagle's algorithm: WebSocket frames are small and latency matters.
  package static func setNoDelay(_ fd: Int32) {
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Polls `fds` for up to `milliseconds` (-1: forever), retrying on EINTR.
  /// - Returns: The number of ready descriptors (0 on timeout), or -1 on failure.
  package static func poll(_ fds: inout [pollfd], milliseconds: Int32) -> Int32 {
    while true {
      let result = fds.withUnsafeMutableBufferPointer {
        #if canImport(Glibc)
          Glibc.poll($0.baseAddress, nfds_t($0.count), milliseconds)
        #else
          Darwin.poll($0.baseAddress, nfds_t($0.count), milliseconds)
        #endif
      }
      if result >= 0 || errno != EINTR { return result }
    }
  }

  /// Milliseconds left until `deadline`, clamped to poll's range; 0 once it has passed.
  static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
    guard let deadline else { return -1 }
    let left = ContinuousClock.now.duration(to: deadline)
    if left <= .zero { return 0 }
    let (seconds, attoseconds) = left.components
    let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
    return Int32(clamping: total)
  }
}
