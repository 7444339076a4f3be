/// A WebSocket close status code (RFC 6455 §7.4) or an application code such as `4001`.
///
/// A struct rather than an enum, so codes a server invents still round-trip:
///
/// ```swift
/// if close.code == .tokenExpired { /* refresh, then reconnect */ }
/// ```
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The numeric code.
  public let rawValue: UInt16

  /// Creates a code from its number.
  /// - Parameter rawValue: The numeric code.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// 1000: normal closure.
  public static let normalClosure = Self(rawValue: 1000)
  /// 1001: the endpoint is going away.
  public static let goingAway = Self(rawValue: 1001)
  /// 1002: protocol error.
  public static let protocolError = Self(rawValue: 1002)
  /// 1003: a data type the endpoint cannot accept.
  public static let unsupportedData = Self(rawValue: 1003)
  /// 1005: the close frame carried no status code (never sent on the wire).
  public static let noStatusReceived = Self(rawValue: 1005)
  /// 1006: the connection dropped without a close frame (never sent on the wire).
  public static let abnormalClosure = Self(rawValue: 1006)
  /// 1007: message data inconsistent with its type, such as invalid UTF-8 in a text message.
  public static let invalidFramePayloadData = Self(rawValue: 1007)
  /// 1008: policy violation.
  public static let policyViolation = Self(rawValue: 1008)
  /// 1009: a message too big to process.
  public static let messageTooBig = Self(rawValue: 1009)
  /// 1010: the client expected an extension the server did not negotiate.
  public static let mandatoryExtension = Self(rawValue: 1010)
  /// 1011: an unexpected condition on the server.
  public static let internalServerError = Self(rawValue: 1011)
  /// 4001: ServerBee's "token expired" close on the browser/mobile socket.
  public static let tokenExpired = Self(rawValue: 4001)

  /// Whether the code may appear in a close frame on the wire (RFC 6455 §7.4).
  public var isAllowedInCloseFrame: Bool {
    switch rawValue {
    case 1000...1003, 1007...1011, 3000...4999: return true
    default: return false
    }
  }

  /// The numeric code as text.
  public var description: String { String(rawValue) }
}

/// The close frame a peer sent: its code and reason.
///
/// ```swift
/// for try await message in connection.inbound { … }
/// if let close = await connection.receivedClose, close.code == .tokenExpired { … }
/// ```
public struct WebSocketClose: Sendable, Hashable {
  /// The close code; ``WebSocketCloseCode/noStatusReceived`` when the frame had none.
  public var code: WebSocketCloseCode
  /// The UTF-8 reason, possibly empty.
  public var reason: String

  /// Creates a close description.
  /// - Parameters:
  ///   - code: The close code.
  ///   - reason: The reason text.
  public init(code: WebSocketCloseCode, reason: String = "") {
    self.code = code
    self.reason = reason
  }
}
