import COpenSSL
import Foundation
import ServerBeeModels
package import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TLS 1.2+ stream, client or server role: OpenSSL over memory BIOs on a non-blocking socket.
///
/// The socket I/O is ours (`recv`/`send` with `MSG_NOSIGNAL`), so OpenSSL never raises SIGPIPE
/// and never blocks; OpenSSL only encrypts into `outgoing` and decrypts from `incoming`.
package final class TLSStream: ByteStream {
  package let descriptor: Int32
  private let ssl: OpaquePointer
  private let incoming: OpaquePointer  // owned by `ssl`
  private let outgoing: OpaquePointer  // owned by `ssl`
  private var pendingCipher: [UInt8] = []
  private var receiveBuffer = [UInt8](repeating: 0, count: 32 * 1024)
  private var peerClosed = false
  private var closed = false

  /// Wraps a connected socket and performs the handshake within `deadline`.
  ///
  /// Takes ownership of `descriptor`: it is closed when the stream closes, and also when this
  /// initializer throws (so the caller must not close it again).
  /// - Parameters:
  ///   - descriptor: The connected socket.
  ///   - host: The server name (SNI and certificate check) or IP address.
  ///   - trust: The trusted CAs or pins.
  ///   - deadline: When the handshake must be done.
  ///   - wake: The wake pipe that cancels the handshake.
  ///   - applicationProtocols: The ALPN protocols to offer, most preferred first (for example
  ///     `["h2"]`); none by default. ``negotiatedProtocol`` says what the server chose.
  /// - Throws: `tlsUntrustedCertificate`, `tlsHostnameMismatch`, `tlsCertificateExpired`, `tlsPinMismatch`,
  ///   `tlsHandshakeFailed`, `timedOut`, `connectionLost`, or `CancellationError`.
  package convenience init(
    descriptor: Int32, host: String, trust: TLSTrust, deadline: ContinuousClock.Instant,
    wake: WakePipe, applicationProtocols: [String] = []
  ) throws {
    guard let context = SSL_CTX_new(TLS_client_method()) else {
      Posix.closeDescriptor(descriptor)
      throw ServerBeeTransportError(.tlsHandshakeFailed, "SSL_CTX_new failed")
    }
    defer { SSL_CTX_free(context) }
    _ = copenssl_set_min_proto_version(context, TLS1_2_VERSION)
    _ = SSL_CTX_set_default_verify_paths(context)
    if let file = trust.additionalCAFile {
      guard SSL_CTX_load_verify_locations(context, file.path, nil) == 1 else {
        Posix.closeDescriptor(descriptor)
        throw ServerBeeTransportError(
          .tlsHandshakeFailed, "could not load the CA file \(file.lastPathComponent)")
      }
    }
    // With pins, the chain result is checked after the handshake (a pinned leaf may be
    // self-signed); without pins OpenSSL aborts the handshake on any verification failure.
    SSL_CTX_set_verify(
      context, trust.certificateSHA256Pins.isEmpty ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)
    if !applicationProtocols.isEmpty {
      // The ALPN wire form: each name prefixed with its length (RFC 7301 §3.1).
      var wire: [UInt8] = []
      for name in applicationProtocols where (1...255).contains(name.utf8.count) {
        wire.append(UInt8(name.utf8.count))
        wire.append(contentsOf: name.utf8)
      }
      // Returns 0 on success (unlike most OpenSSL calls).
      guard SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count)) == 0 else {
        Posix.closeDescriptor(descriptor)
        throw ServerBeeTransportError(.tlsHandshakeFailed, "could not offer ALPN protocols")
      }
    }
    try self.init(descriptor: descriptor, context: context)
    let isIPAddress = Self.isIPAddress(host)
    if isIPAddress {
      _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
    } else {
      _ = copenssl_set_tlsext_host_name(ssl, host)  // SNI (never for IP literals, RFC 6066)
      _ = SSL_set1_host(ssl, host)
    }
    SSL_set_connect_state(ssl)
    try handshake(deadline: deadline, wake: wake)
    if !trust.certificateSHA256Pins.isEmpty {
      try checkPins(trust.certificateSHA256Pins, host: host, isIPAddress: isIPAddress)
    }
  }

  /// Wraps an accepted socket as the TLS server with `identity` and performs the handshake
  /// within `deadline` (`SSL_set_accept_state` over the same memory BIOs as the client role).
  ///
  /// Takes ownership of `descriptor`, as the client initializer does.
  /// - Throws: `tlsHandshakeFailed`, `timedOut`, `connectionLost`, or `CancellationError`.
  package convenience init(
    descriptor: Int32, identity: TLSServerIdentity, deadline: ContinuousClock.Instant,
    wake: WakePipe
  ) throws {
    try self.init(descriptor: descriptor, context: identity.context)
    SSL_set_accept_state(ssl)
    try handshake(deadline: deadline, wake: wake)
  }

  /// The part both roles share: an `SSL` from `context` over two memory BIOs.
  ///
  /// Takes ownership of `descriptor` (closed here when this throws).
  private init(descriptor: Int32, context: OpaquePointer) throws {
    self.descriptor = descriptor
    guard let ssl = SSL_new(context), let incoming = BIO_new(BIO_s_mem()),
      let outgoing = BIO_new(BIO_s_mem())
    else {
      Posix.closeDescriptor(descriptor)
      throw ServerBeeTransportError(.tlsHandshakeFailed, "SSL_new failed")
    }
    self.ssl = ssl
    self.incoming = incoming
    self.outgoing = outgoing
    SSL_set_bio(ssl, incoming, outgoing)
  }

  deinit {
    close()
    SSL_free(ssl)
  }

  /// The ALPN protocol the server selected (RFC 7301), or `nil` when it selected none.
  package var negotiatedProtocol: String? {
    var data: UnsafePointer<UInt8>?
    var length: UInt32 = 0
    SSL_get0_alpn_selected(ssl, &data, &length)
    guard let data, length > 0 else { return nil }
    return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
  }

  package var hasPendingOutput: Bool { !pendingCipher.isEmpty || BIO_ctrl_pending(outgoing) > 0 }

  private func handshake(deadline: ContinuousClock.Instant, wake: WakePipe) throws {
    while true {
      ERR_clear_error()
      let result = SSL_do_handshake(ssl)
      _ = try flushOrWait(deadline: deadline, wake: wake)
      if result == 1 { return }
      switch SSL_get_error(ssl, result) {
      case SSL_ERROR_WANT_READ:
        try waitReadable(deadline: deadline, wake: wake)
        switch try fill() {
        case .endOfStream:
          throw ServerBeeTransportError(
            .connectionLost, "the server closed during the TLS handshake")
        case .wouldBlock, .bytes: continue
        }
      case SSL_ERROR_WANT_WRITE: continue
      default:
        throw verificationError()
          ?? ServerBeeTransportError(
            .tlsHandshakeFailed, "TLS handshake failed: \(Self.openSSLErrorText())")
      }
    }
  }

  private func verificationError() -> ServerBeeTransportError? {
    let result = Int32(SSL_get_verify_result(ssl))
    guard result != X509_V_OK else { return nil }
    let text = String(cString: X509_verify_cert_error_string(Int(result)))
    switch result {
    case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
      return ServerBeeTransportError(
        .tlsHostnameMismatch, "certificate does not match the host: \(text)")
    case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
      return ServerBeeTransportError(
        .tlsCertificateExpired, "certificate outside its validity period: \(text)")
    default:
      return ServerBeeTransportError(.tlsUntrustedCertificate, "certificate not trusted: \(text)")
    }
  }

  private func checkPins(_ pins: [Data], host: String, isIPAddress: Bool) throws {
    guard let certificate = SSL_get1_peer_certificate(ssl) else {
      throw ServerBeeTransportError(.tlsPinMismatch, "the server sent no certificate")
    }
    defer { X509_free(certificate) }
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1,
      pins.contains(Data(digest[0..<Int(length)]))
    else {
      throw ServerBeeTransportError(
        .tlsPinMismatch, "the server certificate does not match the pinned SHA-256 fingerprint")
    }
    let matches =
      isIPAddress
      ? X509_check_ip_asc(certificate, host, 0) == 1
      : X509_check_host(certificate, host, host.utf8.count, 0, nil) == 1
    guard matches else {
      throw ServerBeeTransportError(.tlsHostnameMismatch, "certificate does not match the host")
    }
  }

  /// Reads ciphertext from the socket into OpenSSL.
  private func fill() throws(ServerBeeTransportError) -> StreamRead {
    // `withUnsafe…Bytes` rethrows untyped errors, so carry the typed one out in a Result.
    let result = try receiveBuffer.withUnsafeMutableBytes { buffer in
      Result { () throws(ServerBeeTransportError) in try Posix.receive(descriptor, into: buffer) }
    }.get()
    switch result {
    case .bytes(let count):
      _ = receiveBuffer.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32(count)) }
    case .endOfStream: peerClosed = true
    case .wouldBlock: break
    }
    return result
  }

  package func flush() throws(ServerBeeTransportError) -> Bool {
    let pending = Int(BIO_ctrl_pending(outgoing))
    if pending > 0 {
      let start = pendingCipher.count
      pendingCipher.append(contentsOf: repeatElement(0, count: pending))
      let read = pendingCipher.withUnsafeMutableBytes {
        BIO_read(outgoing, $0.baseAddress?.advanced(by: start), Int32(pending))
      }
      pendingCipher.removeLast(pending - Int(max(read, 0)))
    }
    while !pendingCipher.isEmpty {
      let sent = try pendingCipher.withUnsafeBytes { bytes in
        Result { () throws(ServerBeeTransportError) in try Posix.send(descriptor, bytes) }
      }.get()
      if sent == 0 { return false }
      pendingCipher.removeFirst(sent)
    }
    return true
  }

  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(ServerBeeTransportError)
    -> StreamRead
  {
    while true {
      ERR_clear_error()
      let result = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
      if result > 0 { return .bytes(Int(result)) }
      switch SSL_get_error(ssl, result) {
      case SSL_ERROR_WANT_READ:
        _ = try flush()  // TLS 1.3 may answer key updates while reading
        if peerClosed { return .endOfStream }
        switch try fill() {
        case .wouldBlock: return .wouldBlock
        case .endOfStream, .bytes: continue
        }
      case SSL_ERROR_WANT_WRITE:
        if try !flush() { return .wouldBlock }
      case SSL_ERROR_ZERO_RETURN:
        return .endOfStream
      default:
        if peerClosed { return .endOfStream }
        throw ServerBeeTransportError(
          .connectionLost, "TLS read failed: \(Self.openSSLErrorText())")
      }
    }
  }

  package func write(_ bytes: UnsafeRawBufferPointer) throws(ServerBeeTransportError) -> Int {
    // Bound the ciphertext queued in memory; the caller retries when the socket drains.
    if try !flush() && pendingCipher.count > 256 * 1024 { return 0 }
    guard !bytes.isEmpty else { return 0 }
    ERR_clear_error()
    let chunk = min(bytes.count, 64 * 1024)
    let result = SSL_write(ssl, bytes.baseAddress, Int32(chunk))
    if result > 0 {
      _ = try flush()
      return Int(result)
    }
    switch SSL_get_error(ssl, result) {
    case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return 0
    default:
      throw ServerBeeTransportError(.connectionLost, "TLS write failed: \(Self.openSSLErrorText())")
    }
  }

  package func close() {
    guard !closed else { return }
    closed = true
    ERR_clear_error()
    _ = SSL_shutdown(ssl)
    _ = try? flush()
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
    Posix.closeDescriptor(descriptor)
  }

  private func flushOrWait(deadline: ContinuousClock.Instant, wake: WakePipe) throws -> Bool {
    while try !flush() {
      try wake.wait(
        for: descriptor, events: Int16(POLLOUT), until: deadline, what: "the TLS handshake")
    }
    return true
  }

  private func waitReadable(deadline: ContinuousClock.Instant, wake: WakePipe) throws {
    try wake.wait(
      for: descriptor, events: Int16(POLLIN), until: deadline, what: "the TLS handshake")
  }

  private static func isIPAddress(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  private static func openSSLErrorText() -> String {
    let code = ERR_get_error()
    guard code != 0 else { return "unknown error" }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
