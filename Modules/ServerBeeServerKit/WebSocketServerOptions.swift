import ServerBeeSocketTransport
import ServerBeeTransport

/// Settings for the server side of a WebSocket connection (see
/// ``HTTPServerRequest/acceptWebSocket(options:)``).
package struct WebSocketServerOptions: Sendable {
  /// The largest inbound message; 16 MiB by default.
  package var maxMessageSize: Int
  /// Whether to accept a permessage-deflate offer; `true` by default.
  package var compression: Bool
  /// Keep-alive ping interval, or `nil` (the ServerBee server sends none); `nil` by default.
  package var pingInterval: Duration?
  /// Keep-alive pong limit; 10 s by default.
  package var pongTimeout: Duration
  /// Close handshake limit (also bounds writing the `101`); 5 s by default.
  package var closeTimeout: Duration
  /// The most bytes that may wait to be sent to a peer that does not read (pongs included);
  /// 16 MiB by default, then the connection fails with `sendBufferFull`.
  package var maxPendingWrite: Int = 16 << 20
  /// Backpressure: received messages that may wait for the consumer before the connection stops
  /// reading the peer (until a quarter of it is left); 256 by default.
  package var inboundHighWaterMessages: Int = 256
  /// The same in bytes of message payload; 4 MiB by default.
  package var inboundHighWaterBytes: Int = 4 << 20

  /// Creates options with the documented defaults.
  /// - Parameters:
  ///   - maxMessageSize: The largest inbound message.
  ///   - compression: Whether to accept permessage-deflate.
  ///   - pingInterval: Keep-alive interval, or `nil`.
  ///   - pongTimeout: Keep-alive pong limit.
  ///   - closeTimeout: Close handshake limit.
  package init(
    maxMessageSize: Int = 16 << 20, compression: Bool = true, pingInterval: Duration? = nil,
    pongTimeout: Duration = .seconds(10), closeTimeout: Duration = .seconds(5)
  ) {
    self.maxMessageSize = maxMessageSize
    self.compression = compression
    self.pingInterval = pingInterval
    self.pongTimeout = pongTimeout
    self.closeTimeout = closeTimeout
  }
}
