public import Foundation
import ServerBeeModels
public import ServerBeeTransport

/// The native `WebSocketTransport`: POSIX sockets, TLS 1.2+ through OpenSSL, RFC 6455 with
/// permessage-deflate through zlib. Works on Linux, where URLSession has no WebSocket support.
///
/// ```swift
/// let pin = TLSTrust.fingerprint(hex: "3F:…:9A")!
/// let transport = SocketWebSocketTransport(
///   configuration: .init(tls: TLSTrust(certificateSHA256Pins: [pin])))
/// let connection = try await transport.connect(
///   to: URL(string: "wss://bee.example/api/ws/servers")!,
///   headers: ["Authorization": "Bearer \(token)"])
/// try await connection.send(.text(#"{"type":"docker_subscribe","server_id":"s1"}"#))
/// for try await message in connection.inbound {
///   if case .text(let json) = message { print(json) }
/// }
/// if let close = await connection.receivedClose, close.code == .tokenExpired {
///   // refresh the token, then reconnect
/// }
/// ```
///
/// Received messages are buffered until the single consumer of
/// `WebSocketConnection/inbound` reads them, up to ``Configuration/inboundHighWaterMessages``
/// messages or ``Configuration/inboundHighWaterBytes`` bytes; past that the connection stops
/// reading the socket until the consumer catches up, so a fast server is slowed down by TCP
/// instead of filling memory. While it waits, the server's pings, pongs and close frame wait
/// too (a keep-alive pong that cannot be read then does not count as a dead server), so keep
/// reading, or close the connection.
///
/// Each connection runs its socket I/O on one dedicated thread (see the module overview), sends
/// a keep-alive ping every ``Configuration/pingInterval`` and fails with
/// `.pingTimeout` when no pong comes back within
/// ``Configuration/pongTimeout``.
public final class SocketWebSocketTransport: WebSocketTransport {
  /// Settings for ``SocketWebSocketTransport``.
  public struct Configuration: Sendable, Hashable {
    /// The limit for TCP connect, TLS handshake and WebSocket upgrade together; 10 s by default.
    public var connectTimeout: Duration
    /// The keep-alive ping interval, or `nil` for none; 25 s by default (as the iOS app).
    public var pingInterval: Duration?
    /// How long to wait for a keep-alive pong; 10 s by default.
    public var pongTimeout: Duration
    /// How long the close handshake may take; 5 s by default.
    public var closeTimeout: Duration
    /// The largest inbound message after decompression; 16 MiB by default. Larger ones close the
    /// connection with 1009.
    public var maxMessageSize: Int
    /// Whether to offer permessage-deflate; `true` by default.
    public var compression: Bool
    /// What `wss` connections trust; the system CA store by default.
    public var tls: TLSTrust
    /// The most bytes that may wait to be sent while the server does not read (our messages,
    /// pongs to its pings, keep-alive pings); 16 MiB by default. Past it the connection fails
    /// with `sendBufferFull` instead of growing without bound.
    public var maxPendingWrite: Int = 16 << 20
    /// Backpressure: once this many received messages wait for the consumer of
    /// `WebSocketConnection/inbound`, the connection stops reading from the server until the
    /// consumer has taken them down to a quarter of it; TCP flow control then slows the server
    /// instead of the buffer growing. 256 by default.
    public var inboundHighWaterMessages: Int = 256
    /// The same bound in bytes of buffered message payload; 4 MiB by default (resuming at
    /// 1 MiB). One message larger than the rest of the room is still taken whole.
    public var inboundHighWaterBytes: Int = 4 << 20

    /// Creates a configuration; every parameter has the documented default.
    /// - Parameters:
    ///   - connectTimeout: Connect + TLS + upgrade limit.
    ///   - pingInterval: Keep-alive interval, or `nil`.
    ///   - pongTimeout: Keep-alive pong limit.
    ///   - closeTimeout: Close handshake limit.
    ///   - maxMessageSize: Largest inbound message.
    ///   - compression: Whether to offer permessage-deflate.
    ///   - tls: TLS trust settings.
    public init(
      connectTimeout: Duration = .seconds(10), pingInterval: Duration? = .seconds(25),
      pongTimeout: Duration = .seconds(10), closeTimeout: Duration = .seconds(5),
      maxMessageSize: Int = 16 << 20, compression: Bool = true, tls: TLSTrust = TLSTrust()
    ) {
      self.connectTimeout = connectTimeout
      self.pingInterval = pingInterval
      self.pongTimeout = pongTimeout
      self.closeTimeout = closeTimeout
      self.maxMessageSize = maxMessageSize
      self.compression = compression
      self.tls = tls
    }
  }

  private let configuration: Configuration
  private let clock: any Clock<Duration>

  /// Creates a transport using the continuous clock for keep-alive.
  /// - Parameter configuration: The settings; defaults apply when omitted.
  public convenience init(configuration: Configuration = Configuration()) {
    self.init(configuration: configuration, clock: ContinuousClock())
  }

  /// Creates a transport with an injected keep-alive clock (tests use a manual clock).
  init(configuration: Configuration, clock: any Clock<Duration>) {
    self.configuration = configuration
    self.clock = clock
  }

  /// Connects, performs TLS (for `wss`) and the opening handshake.
  /// - Parameters:
  ///   - url: A `ws` or `wss` URL.
  ///   - headers: Extra handshake headers, such as `Authorization: Bearer …`.
  /// - Returns: The open connection.
  /// - Throws: `ServerBeeTransportError`: `invalidURL`, `nameResolutionFailed`,
  ///   `connectionRefused`, `timedOut`, `tlsUntrustedCertificate`, `tlsHostnameMismatch`,
  ///   `tlsPinMismatch`, `tlsHandshakeFailed`, `upgradeRejected` (with `httpStatus`),
  ///   `handshakeInvalid` (also for a header with a line break), `malformedHTTPHead`,
  ///   `connectionLost`; or `CancellationError`.
  public func connect(to url: URL, headers: HTTPHeaders) async throws -> any WebSocketConnection {
    let scheme = url.scheme?.lowercased()
    guard scheme == "ws" || scheme == "wss", let host = url.host, !host.isEmpty else {
      throw ServerBeeTransportError(.invalidURL, "a WebSocket URL needs ws:// or wss:// and a host")
    }
    for (name, value) in headers where !HTTPHeadCodec.isValidField(name: name, value: value) {
      throw ServerBeeTransportError(
        .handshakeInvalid, "the handshake header '\(name)' is not a valid HTTP field")
    }
    let secure = scheme == "wss"
    let port = UInt16(clamping: url.port ?? (secure ? 443 : 80))
    let configuration = configuration
    let wake = try WakePipe()
    let setup = try await BlockingIO.run(wake: wake) {
      () throws -> (any ByteStream, [UInt8], PerMessageDeflateParameters?) in
      let deadline = ContinuousClock.now.advanced(by: configuration.connectTimeout)
      let descriptor = try TCPConnector.connect(
        host: host, port: port, deadline: deadline, wake: wake)
      // Both streams own the descriptor from here on, including when TLSStream throws.
      let stream: any ByteStream =
        secure
        ? try TLSStream(
          descriptor: descriptor, host: host, trust: configuration.tls, deadline: deadline,
          wake: wake)
        : PlainStream(descriptor: descriptor)
      do {
        let key = WebSocketHandshake.randomKey()
        let offer = configuration.compression ? PerMessageDeflateParameters.clientOffer() : nil
        let request = WebSocketHandshake.clientRequest(
          url: url, key: key, headers: headers, extensions: offer)
        try BlockingIO.writeAll(request.serialized, to: stream, deadline: deadline, wake: wake)
        let (head, leftover) = try BlockingIO.readHead(from: stream, deadline: deadline, wake: wake)
        let response: HTTPResponseHead
        do {
          response = try HTTPHeadCodec.parseResponse(head)
        } catch {
          throw ServerBeeTransportError(.malformedHTTPHead, "the upgrade response is malformed")
        }
        let deflate = try WebSocketHandshake.validateResponse(
          response, key: key, offeredCompression: offer != nil)
        return (stream, leftover, deflate)
      } catch {
        stream.close()
        throw error
      }
    }
    let (stream, leftover, deflate) = setup.value
    if Task.isCancelled {
      stream.close()
      throw CancellationError()
    }
    let connection = try SocketWebSocketConnection(
      stream: stream, leftover: leftover,
      options: WebSocketOptions(
        role: .client, maxMessageSize: configuration.maxMessageSize, deflate: deflate,
        pingInterval: configuration.pingInterval, pongTimeout: configuration.pongTimeout,
        closeTimeout: configuration.closeTimeout,
        maxPendingWrite: configuration.maxPendingWrite,
        inboundHighWaterMessages: configuration.inboundHighWaterMessages,
        inboundHighWaterBytes: configuration.inboundHighWaterBytes),
      clock: clock)
    connection.start()
    return connection
  }
}
