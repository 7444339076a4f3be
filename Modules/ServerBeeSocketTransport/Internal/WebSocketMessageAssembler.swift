import Foundation
package import ServerBeeTransport

/// Turns frames into messages and control events: fragmentation, interleaved control frames,
/// permessage-deflate inflation, UTF-8 validation across fragments and the message size limit.
///
/// Confined to the connection's I/O thread (it owns a zlib stream).
package struct WebSocketMessageAssembler {
  /// What a frame produced.
  package enum Event: Sendable, Hashable {
    /// A complete data message.
    case message(WebSocketMessage)
    /// A ping with its application data (answer with a pong).
    case ping([UInt8])
    /// A pong with its application data.
    case pong([UInt8])
    /// The peer's close frame.
    case close(WebSocketClose)
  }

  private let maxMessageSize: Int
  private let inflater: RawInflater?
  private let resetInflaterPerMessage: Bool
  private var messageOpcode: WebSocketOpcode?
  private var compressed = false
  /// The compressed payload bytes of the current message so far.
  private var compressedBytes = 0
  private var buffer: [UInt8] = []
  private var validator = UTF8Validator()

  /// Creates an assembler.
  /// - Parameters:
  ///   - maxMessageSize: The largest message accepted (after inflation).
  ///   - inflater: The inflater when permessage-deflate is on.
  ///   - resetInflaterPerMessage: Whether the peer uses no context takeover.
  package init(
    maxMessageSize: Int, inflater: RawInflater? = nil, resetInflaterPerMessage: Bool = false
  ) {
    self.maxMessageSize = maxMessageSize
    self.inflater = inflater
    self.resetInflaterPerMessage = resetInflaterPerMessage
  }

  /// Handles one decoded frame.
  /// - Parameter frame: The frame (frame-level rules already checked by the decoder).
  /// - Returns: The event it completes, if any.
  /// - Throws: ``WebSocketProtocolFailure`` with 1002, 1007 or 1009.
  package mutating func handle(_ frame: WebSocketFrame) throws(WebSocketProtocolFailure) -> Event? {
    switch frame.opcode {
    case .ping: return .ping(frame.payload)
    case .pong: return .pong(frame.payload)
    case .close: return .close(try Self.parseClose(frame.payload))
    case .text, .binary:
      guard messageOpcode == nil else {
        throw .protocolError("a new message started before the previous one finished")
      }
      messageOpcode = frame.opcode
      compressed = frame.rsv1
      compressedBytes = 0
      buffer.removeAll(keepingCapacity: true)
      validator = UTF8Validator()
    case .continuation:
      guard messageOpcode != nil else { throw .protocolError("continuation without a message") }
    default:
      throw .protocolError("undefined opcode \(frame.opcode.rawValue)")
    }
    try append(frame.payload)
    guard frame.fin, let opcode = messageOpcode else { return nil }
    // A compressed message with no payload at all carries no DEFLATE data (a conforming sender
    // writes at least the `00` of an empty block, RFC 7692 §7.2.3.6), but some zlib-based
    // senders do send it for an empty message. Appending the tail would leave a stored block
    // header open that swallows the next message, so the message is empty and the stream is
    // left as it was, as the sender's is.
    if compressed, let inflater, compressedBytes > 0 {
      try inflate([0, 0, 0xFF, 0xFF], with: inflater)
      if resetInflaterPerMessage { inflater.reset() }
    }
    messageOpcode = nil
    if opcode == .text {
      guard validator.isAtBoundary else { throw .invalidPayload("text ends inside a character") }
      let message = WebSocketMessage.text(String(decoding: buffer, as: UTF8.self))
      buffer = []
      return .message(message)
    }
    let message = WebSocketMessage.binary(.init(buffer))
    buffer = []
    return .message(message)
  }

  private mutating func append(_ payload: [UInt8]) throws(WebSocketProtocolFailure) {
    if compressed, let inflater {
      compressedBytes += payload.count
      try inflate(payload, with: inflater)
      return
    }
    guard buffer.count + payload.count <= maxMessageSize else {
      throw .tooBig("message exceeds \(maxMessageSize) bytes")
    }
    if messageOpcode == .text && !validator.validate(payload) {
      throw .invalidPayload("text message is not valid UTF-8")
    }
    buffer.append(contentsOf: payload)
  }

  private mutating func inflate(
    _ input: [UInt8], with inflater: RawInflater
  ) throws(WebSocketProtocolFailure) {
    let start = buffer.count
    try inflater.inflate(input, into: &buffer, limit: maxMessageSize)
    if messageOpcode == .text {
      let valid = buffer.withUnsafeBytes {
        validator.validate(UnsafeRawBufferPointer(rebasing: $0[start...]))
      }
      guard valid else { throw .invalidPayload("text message is not valid UTF-8") }
    }
  }

  /// Parses a close frame payload (RFC 6455 §5.5.1, §7.4).
  /// - Parameter payload: The close payload.
  /// - Returns: The code and reason; 1005 when the payload is empty.
  /// - Throws: 1002 for a 1-byte payload or a code not allowed on the wire; 1007 for a non-UTF-8 reason.
  package static func parseClose(_ payload: [UInt8]) throws(WebSocketProtocolFailure)
    -> WebSocketClose
  {
    if payload.isEmpty { return WebSocketClose(code: .noStatusReceived) }
    guard payload.count >= 2 else { throw .protocolError("close payload of 1 byte") }
    let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
    guard code.isAllowedInCloseFrame else {
      throw .protocolError("close code \(code.rawValue) is not allowed")
    }
    let reason = payload[2...]
    guard UTF8Validator.isValid(reason) else { throw .invalidPayload("close reason is not UTF-8") }
    return WebSocketClose(code: code, reason: String(decoding: reason, as: UTF8.self))
  }

  /// A close frame payload: the code, then the reason cut to 123 bytes on a character boundary.
  /// - Parameters:
  ///   - code: The close code.
  ///   - reason: The reason.
  /// - Returns: The payload.
  package static func closePayload(code: WebSocketCloseCode, reason: String) -> [UInt8] {
    var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
    var used = 0
    for character in reason {
      let bytes = Array(String(character).utf8)
      guard used + bytes.count <= 123 else { break }
      payload.append(contentsOf: bytes)
      used += bytes.count
    }
    return payload
  }
}
