#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Opens WebSocket connections; the seam the realtime stream talks through.
///
/// ```swift
/// let transport: any WebSocketTransport = SocketWebSocketTransport()
/// let connection = try await transport.connect(
///   to: URL(string: "wss://bee.example/api/ws/servers")!,
///   headers: ["Authorization": "Bearer \(token)"])
/// ```
public protocol WebSocketTransport: Sendable {
  /// Connects and completes the opening handshake.
  /// - Parameters:
  ///   - url: A `ws` or `wss` URL.
  ///   - headers: Extra handshake headers, such as `Authorization`.
  /// - Returns: The open connection.
  /// - Throws: ``ServerBeeTransportError``; a refused upgrade (for example HTTP 401) has code
  ///   `.upgradeRejected` and the status in `httpStatus`.
  func connect(to url: URL, headers: HTTPHeaders) async throws -> any WebSocketConnection
}
