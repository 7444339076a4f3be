import ServerBeeTransport

/// The settings one socket WebSocket connection runs with, for either role.
package struct WebSocketOptions: Sendable {
  /// Our end of the connection.
  var role: WebSocketRole
  /// The largest inbound message (after inflation).
  var maxMessageSize: Int
  /// The negotiated permessage-deflate parameters, or `nil` for no compression.
  var deflate: PerMessageDeflateParameters?
  /// The keep-alive ping interval, or `nil` for no keep-alive.
  var pingInterval: Duration?
  /// How long to wait for a keep-alive pong before failing with `pingTimeout`.
  var pongTimeout: Duration
  /// How long the close handshake may take before the socket is closed anyway.
  var closeTimeout: Duration
  /// The most bytes that may wait to be written (our messages, pongs, pings, the close frame);
  /// past it the peer is not reading and the connection is failed with `sendBufferFull`.
  var maxPendingWrite: Int
  /// Backpressure: once this many received messages wait for the consumer of
  /// `inbound`, the connection stops reading the socket until the consumer has taken them down
  /// to a quarter of it (the low-water mark); TCP flow control then slows the peer. 256 by
  /// default.
  var inboundHighWaterMessages: Int
  /// The same in bytes of message payload (a message larger than the rest may exceed it by
  /// itself); 4 MiB by default, resuming at 1 MiB.
  var inboundHighWaterBytes: Int

  /// Creates the settings; ``maxPendingWrite`` defaults to 16 MiB, the inbound high-water marks
  /// to 256 messages and 4 MiB.
  package init(
    role: WebSocketRole, maxMessageSize: Int, deflate: PerMessageDeflateParameters?,
    pingInterval: Duration?, pongTimeout: Duration, closeTimeout: Duration,
    maxPendingWrite: Int = 16 << 20, inboundHighWaterMessages: Int = 256,
    inboundHighWaterBytes: Int = 4 << 20
  ) {
    self.role = role
    self.maxMessageSize = maxMessageSize
    self.deflate = deflate
    self.pingInterval = pingInterval
    self.pongTimeout = pongTimeout
    self.closeTimeout = closeTimeout
    self.maxPendingWrite = maxPendingWrite
    self.inboundHighWaterMessages = inboundHighWaterMessages
    self.inboundHighWaterBytes = inboundHighWaterBytes
  }
}
