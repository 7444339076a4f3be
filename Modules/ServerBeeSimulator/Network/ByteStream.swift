import COpenSSL
import Foundation
import ServerBeeModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking, connected byte stream (plain TCP or TLS) used by one connection's threads.
///
/// Reads wait with `poll` and a deadline so a silent or slow client can never pin a thread
/// forever; writes are serialised by the caller (see `WebSocketSession`).
protocol ByteStream: AnyObject, Sendable {
  /// Reads up to `count` bytes; `nil` on timeout, empty on end of stream or error.
  func read(upTo count: Int, timeout: TimeInterval) -> [UInt8]?
  /// Writes every byte; false when the peer is gone.
  func write(_ bytes: [UInt8]) -> Bool
  /// Unblocks pending reads and writes from another thread.
  func shutdown()
  /// Releases the descriptor (call once, from the owning thread).
  func close()
}

enum Socket {
  static func waitReadable(_ descriptor: Int32, timeout: TimeInterval) -> Bool {
    var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
    while true {
      let result = poll(&fds, 1, milliseconds)
      if result < 0, errno == EINTR { continue }
      return result > 0
    }
  }

  static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        #if canImport(Glibc)
          return send(descriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        #else
          return send(descriptor, base + offset, bytes.count - offset, 0)
        #endif
      }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }
}

final class PlainStream: ByteStream, @unchecked Sendable {
  // Safety: `descriptor` is immutable; `shutdown` is safe from any thread by POSIX.
  let descriptor: Int32

  init(descriptor: Int32) { self.descriptor = descriptor }

  func read(upTo count: Int, timeout: TimeInterval) -> [UInt8]? {
    guard Socket.waitReadable(descriptor, timeout: timeout) else { return nil }
    var buffer = [UInt8](repeating: 0, count: count)
    while true {
      let received = recv(descriptor, &buffer, count, 0)
      if received < 0, errno == EINTR { continue }
      return received > 0 ? Array(buffer.prefix(received)) : []
    }
  }

  func write(_ bytes: [UInt8]) -> Bool { Socket.sendAll(descriptor, bytes) }

  func shutdown() {
    #if canImport(Glibc)
      _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    #else
      _ = Darwin.shutdown(descriptor, SHUT_RDWR)
    #endif
  }

  func close() {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }
}

/// A server-side TLS context loaded from PEM files.
final class TLSServerContext: @unchecked Sendable {
  // Safety: an SSL_CTX is immutable after setup and documented thread-safe for SSL_new.
  let context: OpaquePointer

  init(certificate: String, privateKey: String) throws {
    guard let context = SSL_CTX_new(TLS_server_method()) else {
      throw ServerBeeSimulatorError(.listenFailed, "SSL_CTX_new failed")
    }
    guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1,
      SSL_CTX_use_PrivateKey_file(context, privateKey, SSL_FILETYPE_PEM) == 1,
      SSL_CTX_check_private_key(context) == 1
    else {
      SSL_CTX_free(context)
      throw ServerBeeSimulatorError(.listenFailed, "cannot load the TLS certificate or key")
    }
    _ = copenssl_set_min_proto_version(context, TLS1_2_VERSION)
    self.context = context
  }

  deinit { SSL_CTX_free(context) }
}

final class TLSStream: ByteStream, @unchecked Sendable {
  // Safety: OpenSSL forbids concurrent use of one SSL*, so every SSL call holds `lock`; reads
  // poll the socket *outside* the lock first so a waiting reader never blocks a writer.
  private let plain: PlainStream
  private let ssl: OpaquePointer
  private let lock = NSLock()

  init?(descriptor: Int32, context: TLSServerContext, timeout: TimeInterval) {
    plain = PlainStream(descriptor: descriptor)
    guard let ssl = SSL_new(context.context) else { return nil }
    self.ssl = ssl
    SSL_set_fd(ssl, descriptor)
    var timeval = timeval(tv_sec: Int(timeout), tv_usec: 0)
    _ = setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
    guard SSL_accept(ssl) == 1 else {
      SSL_free(ssl)
      return nil
    }
  }

  func read(upTo count: Int, timeout: TimeInterval) -> [UInt8]? {
    let pending = lock.withLock { SSL_pending(ssl) }
    if pending == 0, !Socket.waitReadable(plain.descriptor, timeout: timeout) { return nil }
    var buffer = [UInt8](repeating: 0, count: count)
    let received = lock.withLock { SSL_read(ssl, &buffer, Int32(count)) }
    if received <= 0 {
      let error = lock.withLock { SSL_get_error(ssl, received) }
      // A TLS record that carried no application data (e.g. a session ticket): try again later.
      if error == SSL_ERROR_WANT_READ { return nil }
      return []
    }
    return Array(buffer.prefix(Int(received)))
  }

  func write(_ bytes: [UInt8]) -> Bool {
    guard !bytes.isEmpty else { return true }
    return lock.withLock { SSL_write(ssl, bytes, Int32(bytes.count)) == Int32(bytes.count) }
  }

  func shutdown() { plain.shutdown() }

  func close() {
    lock.withLock {
      _ = SSL_shutdown(ssl)
      SSL_free(ssl)
    }
    plain.close()
  }
}
