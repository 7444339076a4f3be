/// An open WebSocket: one inbound message stream, plus send, ping and close.
///
/// ```swift
/// let connection = try await transport.connect(to: url, headers: ["Authorization": "Bearer …"])
/// try await connection.send(.text("hello"))
/// for try await message in connection.inbound {
///   print(message)
/// }
/// // The stream finished: the peer closed (see `receivedClose`) or we did.
/// ```
///
/// ## Topics
///
/// ### Receiving
/// - ``inbound``
/// - ``receivedClose``
///
/// ### Sending
/// - ``send(_:)``
/// - ``ping()``
/// - ``close(code:reason:)``
public protocol WebSocketConnection: Sendable {
  /// The messages received, for a single consumer.
  ///
  /// It finishes normally after the close handshake (initiated by either side) and throws a
  /// ``ServerBeeTransportError`` on abnormal termination: connection lost, protocol error,
  /// dead peer. Control frames never appear here.
  var inbound: AsyncThrowingStream<WebSocketMessage, any Error> { get }

  /// The close frame the peer sent, once one has arrived; `nil` before that or if none came.
  var receivedClose: WebSocketClose? { get async }

  /// Sends one message.
  /// - Parameter message: The message.
  /// - Throws: ``ServerBeeTransportError`` when the connection is closed or fails.
  func send(_ message: WebSocketMessage) async throws

  /// Sends a ping and waits for the matching pong.
  /// - Throws: ``ServerBeeTransportError`` when the connection closes or fails first.
  func ping() async throws

  /// Starts the close handshake and waits (bounded) for the peer's close; idempotent.
  /// - Parameters:
  ///   - code: The close code to send.
  ///   - reason: A short UTF-8 reason (at most 123 bytes are sent), or `nil`.
  func close(code: WebSocketCloseCode, reason: String?) async
}
