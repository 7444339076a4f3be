public import ServerBeeModels

/// The error domain of the ServerBeeTransport module.
public enum ServerBeeTransportDomain: ServerBeeErrorDomain {
  /// `"ServerBeeTransport"`.
  public static let name = "ServerBeeTransport"
}

/// The one public error type of ServerBeeTransport: a `ServerBeeError` (ServerBeeModels) with this module's codes.
///
/// Transports report transport failures only; what an HTTP status means is the caller's call.
///
/// ```swift
/// do {
///   _ = try await transport.connect(to: url, headers: headers)
/// } catch let error as ServerBeeTransportError where error.code == .tlsPinMismatch {
///   // the server's certificate changed
/// }
/// ```
public typealias ServerBeeTransportError = ServerBeeError<ServerBeeTransportDomain>

extension ServerBeeError.Code where Domain == ServerBeeTransportDomain {
  /// The connection could not be established or was lost for a reason not covered below.
  public static let connectionFailed = Self("connection_failed")
  /// The URL is not usable (wrong scheme, no host).
  public static let invalidURL = Self("invalid_url")
  /// The host name did not resolve.
  public static let nameResolutionFailed = Self("name_resolution_failed")
  /// The peer refused the TCP connection.
  public static let connectionRefused = Self("connection_refused")
  /// A connect, handshake, request or keep-alive deadline passed.
  public static let timedOut = Self("timed_out")
  /// The connection ended without a close handshake.
  public static let connectionLost = Self("connection_lost")
  /// The operation needs an open connection, but it is closed or closing.
  public static let connectionClosed = Self("connection_closed")
  /// The server's certificate does not chain to a trusted CA.
  public static let tlsUntrustedCertificate = Self("tls_untrusted_certificate")
  /// The server's certificate is not valid for the host name.
  public static let tlsHostnameMismatch = Self("tls_hostname_mismatch")
  /// The server's certificate (or one in its chain) has expired or is not valid yet; check the
  /// server's certificate renewal and this machine's clock.
  public static let tlsCertificateExpired = Self("tls_certificate_expired")
  /// The server's certificate does not match the configured SHA-256 pin.
  public static let tlsPinMismatch = Self("tls_pin_mismatch")
  /// The TLS handshake failed for another reason (protocol version, alert, bad CA file).
  public static let tlsHandshakeFailed = Self("tls_handshake_failed")
  /// An HTTP head was malformed or exceeded its size limits.
  public static let malformedHTTPHead = Self("malformed_http_head")
  /// The server answered the upgrade with a status other than 101; see `httpStatus`.
  public static let upgradeRejected = Self("upgrade_rejected")
  /// The upgrade response or request broke RFC 6455 (wrong accept key, missing headers,
  /// unsupported version, unrequested extension).
  public static let handshakeInvalid = Self("handshake_invalid")
  /// The peer broke RFC 6455 framing; the connection was closed with 1002.
  public static let protocolViolation = Self("protocol_violation")
  /// A text message was not valid UTF-8 (or compressed data was corrupt); closed with 1007.
  public static let invalidPayload = Self("invalid_payload")
  /// A message exceeded the maximum message size; closed with 1009.
  public static let messageTooBig = Self("message_too_big")
  /// No pong arrived within the dead-peer timeout.
  public static let pingTimeout = Self("ping_timeout")
  /// The peer stopped reading: more bytes wait to be sent than the connection allows (for
  /// example pongs to a flood of pings); the connection was closed.
  public static let sendBufferFull = Self("send_buffer_full")
  /// An HTTP response body was larger than the transport's limit; the connection was closed.
  public static let responseTooLarge = Self("response_too_large")
}
