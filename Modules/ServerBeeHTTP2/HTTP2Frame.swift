/// HTTP/2 frames (RFC 9113 §4, §6): the 9-octet header, the types and flags this client uses,
/// and a decoder that cuts frames from a byte buffer.
package struct HTTP2Frame: Hashable, Sendable {
  /// Frame types (RFC 9113 §6).
  package enum Kind: UInt8, Sendable {
    case data = 0x0
    case headers = 0x1
    case priority = 0x2
    case resetStream = 0x3
    case settings = 0x4
    case pushPromise = 0x5
    case ping = 0x6
    case goAway = 0x7
    case windowUpdate = 0x8
    case continuation = 0x9
  }

  /// Flags (RFC 9113 §6): END_STREAM 0x1 (and ACK 0x1 on SETTINGS/PING), END_HEADERS 0x4,
  /// PADDED 0x8, PRIORITY 0x20.
  package enum Flag {
    package static let endStream: UInt8 = 0x1
    package static let ack: UInt8 = 0x1
    package static let endHeaders: UInt8 = 0x4
    package static let padded: UInt8 = 0x8
    package static let priority: UInt8 = 0x20
  }

  /// The raw type (unknown types are kept, and ignored by the connection).
  package var type: UInt8
  package var flags: UInt8
  /// The stream identifier, 31 bits.
  package var stream: UInt32
  package var payload: [UInt8]

  package init(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = []) {
    self.type = type
    self.flags = flags
    self.stream = stream
    self.payload = payload
  }

  package init(_ kind: Kind, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = []) {
    self.init(type: kind.rawValue, flags: flags, stream: stream, payload: payload)
  }

  /// The type, when it is one RFC 9113 defines.
  package var kind: Kind? { Kind(rawValue: type) }

  /// Whether `flag` is set.
  package func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

  /// Appends the frame (header and payload) to `output`.
  package func encode(into output: inout [UInt8]) {
    let length = payload.count
    output.append(UInt8(truncatingIfNeeded: length >> 16))
    output.append(UInt8(truncatingIfNeeded: length >> 8))
    output.append(UInt8(truncatingIfNeeded: length))
    output.append(type)
    output.append(flags)
    Self.appendUInt32(stream & 0x7fff_ffff, to: &output)
    output.append(contentsOf: payload)
  }

  /// The connection preface a client sends first (RFC 9113 §3.4).
  package static let clientPreface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

  /// Cuts the next frame from `buffer` at `offset`, advancing `offset`; `nil` when the frame is
  /// not complete yet.
  /// - Throws: `frameSizeError` for a frame longer than `maximumSize`.
  package static func next(
    in buffer: [UInt8], at offset: inout Int, maximumSize: Int
  ) throws(HTTP2Error) -> HTTP2Frame? {
    guard buffer.count - offset >= 9 else { return nil }
    let length = Int(buffer[offset]) << 16 | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2])
    guard length <= maximumSize else {
      throw .protocolViolation(.frameSizeError, "a frame of \(length) octets")
    }
    guard buffer.count - offset >= 9 + length else { return nil }
    let type = buffer[offset + 3]
    let flags = buffer[offset + 4]
    let stream = readUInt32(buffer, at: offset + 5) & 0x7fff_ffff
    let payload = Array(buffer[offset + 9..<offset + 9 + length])
    offset += 9 + length
    return HTTP2Frame(type: type, flags: flags, stream: stream, payload: payload)
  }

  package static func appendUInt32(_ value: UInt32, to output: inout [UInt8]) {
    output.append(UInt8(truncatingIfNeeded: value >> 24))
    output.append(UInt8(truncatingIfNeeded: value >> 16))
    output.append(UInt8(truncatingIfNeeded: value >> 8))
    output.append(UInt8(truncatingIfNeeded: value))
  }

  package static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }

  // MARK: Builders

  /// A SETTINGS frame with `(identifier, value)` pairs.
  package static func settings(_ values: [(HTTP2Setting, UInt32)]) -> HTTP2Frame {
    var payload: [UInt8] = []
    for (setting, value) in values {
      payload.append(UInt8(setting.rawValue >> 8))
      payload.append(UInt8(truncatingIfNeeded: setting.rawValue))
      appendUInt32(value, to: &payload)
    }
    return HTTP2Frame(.settings, payload: payload)
  }

  /// A WINDOW_UPDATE frame.
  package static func windowUpdate(stream: UInt32, increment: UInt32) -> HTTP2Frame {
    var payload: [UInt8] = []
    appendUInt32(increment & 0x7fff_ffff, to: &payload)
    return HTTP2Frame(.windowUpdate, stream: stream, payload: payload)
  }

  /// A RST_STREAM frame.
  package static func resetStream(_ stream: UInt32, _ code: HTTP2ErrorCode) -> HTTP2Frame {
    var payload: [UInt8] = []
    appendUInt32(code.rawValue, to: &payload)
    return HTTP2Frame(.resetStream, stream: stream, payload: payload)
  }

  /// A GOAWAY frame.
  package static func goAway(lastStream: UInt32, _ code: HTTP2ErrorCode) -> HTTP2Frame {
    var payload: [UInt8] = []
    appendUInt32(lastStream, to: &payload)
    appendUInt32(code.rawValue, to: &payload)
    return HTTP2Frame(.goAway, payload: payload)
  }
}

/// SETTINGS parameters (RFC 9113 §6.5.2).
package enum HTTP2Setting: UInt16, Sendable {
  case headerTableSize = 0x1
  case enablePush = 0x2
  case maximumConcurrentStreams = 0x3
  case initialWindowSize = 0x4
  case maximumFrameSize = 0x5
  case maximumHeaderListSize = 0x6
}

/// Error codes (RFC 9113 §7).
package enum HTTP2ErrorCode: UInt32, Sendable {
  case noError = 0x0
  case protocolError = 0x1
  case internalError = 0x2
  case flowControlError = 0x3
  case settingsTimeout = 0x4
  case streamClosed = 0x5
  case frameSizeError = 0x6
  case refusedStream = 0x7
  case cancel = 0x8
  case compressionError = 0x9
  case connectError = 0xa
  case enhanceYourCalm = 0xb
  case inadequateSecurity = 0xc
  case http11Required = 0xd
}
