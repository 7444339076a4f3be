#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// One complete WebSocket data message: text or binary.
///
/// Fragmentation, compression and control frames are handled by the connection; consumers see
/// whole messages only.
///
/// ```swift
/// try await connection.send(.text(#"{"type":"docker_subscribe","server_id":"s1"}"#))
/// ```
public enum WebSocketMessage: Sendable, Hashable {
  /// A UTF-8 text message.
  case text(String)
  /// A binary message.
  case binary(Data)
}
