import ServerBeeTransport

/// An incremental RFC 6455 frame parser for either role.
///
/// Feed bytes with ``append(_:)`` and take frames with ``nextFrame()`` until it returns `nil`.
/// Frame-level rules are checked here: reserved bits (RSV1 only when permessage-deflate is on,
/// and never on control or continuation frames), undefined opcodes, control frames that are
/// fragmented or longer than 125 bytes, masking by role, 64-bit lengths with the top bit set, and
/// a payload limit. Message-level rules live in ``WebSocketMessageAssembler``.
package struct WebSocketFrameDecoder: Sendable {
  /// Which end we are: a server requires masked frames, a client requires unmasked ones.
  package let role: WebSocketRole
  /// The largest frame payload accepted (1009 beyond it).
  package var maxFramePayload: Int
  /// Whether RSV1 may be set (permessage-deflate negotiated).
  package var allowsCompression: Bool

  private var buffer: [UInt8] = []
  private var readIndex = 0

  /// Creates a decoder.
  /// - Parameters:
  ///   - role: Our role.
  ///   - maxFramePayload: The largest frame payload accepted.
  ///   - allowsCompression: Whether RSV1 may be set.
  package init(role: WebSocketRole, maxFramePayload: Int, allowsCompression: Bool = false) {
    self.role = role
    self.maxFramePayload = maxFramePayload
    self.allowsCompression = allowsCompression
  }

  /// The number of buffered bytes not yet consumed as frames.
  package var bufferedByteCount: Int { buffer.count - readIndex }

  /// Adds received bytes.
  /// - Parameter bytes: The bytes, in order.
  package mutating func append(_ bytes: some Collection<UInt8>) {
    if readIndex > 0 && readIndex >= buffer.count / 2 {
      buffer.removeSubrange(0..<readIndex)
      readIndex = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Adds received bytes from a raw buffer.
  /// - Parameter bytes: The bytes, in order.
  package mutating func append(_ bytes: UnsafeRawBufferPointer) {
    append(bytes.bindMemory(to: UInt8.self))
  }

  /// The next complete frame, or `nil` when more bytes are needed.
  /// - Returns: The frame with its payload unmasked.
  /// - Throws: ``WebSocketProtocolFailure`` (1002 or 1009); the connection must then fail.
  package mutating func nextFrame() throws(WebSocketProtocolFailure) -> WebSocketFrame? {
    let available = buffer.count - readIndex
    guard available >= 2 else { return nil }
    let first = buffer[readIndex]
    let second = buffer[readIndex + 1]
    let fin = first & 0x80 != 0
    let rsv1 = first & 0x40 != 0
    let opcode = WebSocketOpcode(rawValue: first & 0x0F)
    guard first & 0x30 == 0 else { throw .protocolError("reserved bits RSV2/RSV3 set") }
    guard opcode.isDefined else { throw .protocolError("undefined opcode \(opcode.rawValue)") }
    if rsv1 && (!allowsCompression || opcode.isControl || opcode == .continuation) {
      throw .protocolError("RSV1 set without permessage-deflate or on a control/continuation")
    }
    let masked = second & 0x80 != 0
    switch role {
    case .server where !masked: throw .protocolError("client frame is not masked")
    case .client where masked: throw .protocolError("server frame is masked")
    default: break
    }
    var headerLength = 2
    var length = UInt64(second & 0x7F)
    if opcode.isControl && (!fin || length > 125) {
      throw .protocolError("control frame fragmented or longer than 125 bytes")
    }
    if length == 126 {
      guard available >= 4 else { return nil }
      length = UInt64(buffer[readIndex + 2]) << 8 | UInt64(buffer[readIndex + 3])
      // RFC 6455 §5.2: "the minimal number of bytes MUST be used to encode the length".
      guard length >= 126 else { throw .protocolError("16-bit length \(length) is not minimal") }
      headerLength = 4
    } else if length == 127 {
      guard available >= 10 else { return nil }
      length = 0
      for index in 2..<10 { length = length << 8 | UInt64(buffer[readIndex + index]) }
      guard length & (1 << 63) == 0 else {
        throw .protocolError("64-bit length has its top bit set")
      }
      guard length > 0xFFFF else { throw .protocolError("64-bit length \(length) is not minimal") }
      headerLength = 10
    }
    guard length <= UInt64(maxFramePayload) else {
      throw .tooBig("frame payload of \(length) bytes exceeds \(maxFramePayload)")
    }
    let payloadLength = Int(length)
    let maskOffset = readIndex + headerLength
    if masked { headerLength += 4 }
    guard available >= headerLength + payloadLength else { return nil }
    let payloadStart = readIndex + headerLength
    var payload = Array(buffer[payloadStart..<(payloadStart + payloadLength)])
    if masked {
      let key = (
        buffer[maskOffset], buffer[maskOffset + 1], buffer[maskOffset + 2], buffer[maskOffset + 3]
      )
      WebSocketMask.apply(&payload, key: key)
    }
    readIndex = payloadStart + payloadLength
    if readIndex == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      readIndex = 0
    }
    return WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload)
  }
}
