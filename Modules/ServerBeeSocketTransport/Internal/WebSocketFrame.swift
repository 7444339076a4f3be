import ServerBeeModels
package import ServerBeeTransport

/// A WebSocket frame opcode (RFC 6455 §5.2).
package struct WebSocketOpcode: RawRepresentable, Hashable, Sendable {
  /// The 4-bit opcode.
  package let rawValue: UInt8
  /// Creates an opcode.
  /// - Parameter rawValue: The 4-bit opcode.
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x0: continuation.
  package static let continuation = Self(rawValue: 0x0)
  /// 0x1: text.
  package static let text = Self(rawValue: 0x1)
  /// 0x2: binary.
  package static let binary = Self(rawValue: 0x2)
  /// 0x8: close.
  package static let close = Self(rawValue: 0x8)
  /// 0x9: ping.
  package static let ping = Self(rawValue: 0x9)
  /// 0xA: pong.
  package static let pong = Self(rawValue: 0xA)

  /// Whether this is a control opcode (close, ping, pong, or reserved 0xB–0xF).
  package var isControl: Bool { rawValue & 0x8 != 0 }
  /// Whether RFC 6455 defines this opcode.
  package var isDefined: Bool { rawValue <= 0x2 || (rawValue >= 0x8 && rawValue <= 0xA) }
}

/// Which end of a WebSocket this endpoint is; decides masking (RFC 6455 §5.1).
package enum WebSocketRole: Sendable, Hashable {
  /// The client: masks what it sends, rejects masked frames.
  case client
  /// The server: sends unmasked, rejects unmasked frames.
  case server
}

/// One WebSocket frame with its payload already unmasked.
package struct WebSocketFrame: Sendable, Hashable {
  /// Whether this is the final fragment.
  package var fin: Bool
  /// RSV1: "compressed" under permessage-deflate.
  package var rsv1: Bool
  /// The opcode.
  package var opcode: WebSocketOpcode
  /// The unmasked payload.
  package var payload: [UInt8]

  /// Creates a frame.
  /// - Parameters:
  ///   - fin: Whether this is the final fragment.
  ///   - rsv1: RSV1 (compressed).
  ///   - opcode: The opcode.
  ///   - payload: The unmasked payload.
  package init(fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: [UInt8]) {
    self.fin = fin
    self.rsv1 = rsv1
    self.opcode = opcode
    self.payload = payload
  }

  /// Appends the frame's wire form to `output`, masking it with `maskKey` when given.
  /// - Parameters:
  ///   - output: The buffer to append to.
  ///   - maskKey: The 4-byte masking key (client role), or `nil` (server role).
  package func encode(into output: inout [UInt8], maskKey: (UInt8, UInt8, UInt8, UInt8)?) {
    output.append((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode.rawValue)
    let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
    let count = payload.count
    if count < 126 {
      output.append(maskBit | UInt8(count))
    } else if count <= 0xFFFF {
      output.append(maskBit | 126)
      output.append(UInt8(count >> 8))
      output.append(UInt8(count & 0xFF))
    } else {
      output.append(maskBit | 127)
      for shift in stride(from: 56, through: 0, by: -8) {
        output.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF))
      }
    }
    guard let key = maskKey else {
      output.append(contentsOf: payload)
      return
    }
    output.append(contentsOf: [key.0, key.1, key.2, key.3])
    let start = output.count
    output.append(contentsOf: payload)
    output.withUnsafeMutableBytes { all in
      WebSocketMask.apply(UnsafeMutableRawBufferPointer(rebasing: all[start...]), key: key)
    }
  }

  /// The frame's wire form.
  /// - Parameter maskKey: The 4-byte masking key (client role), or `nil` (server role).
  /// - Returns: The encoded bytes.
  package func encoded(maskKey: (UInt8, UInt8, UInt8, UInt8)?) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(payload.count + 14)
    encode(into: &output, maskKey: maskKey)
    return output
  }
}

/// A fatal WebSocket protocol failure, with the close code RFC 6455 prescribes for it.
package struct WebSocketProtocolFailure: Error, Hashable, Sendable {
  /// The close code to send: 1002, 1007 or 1009.
  package var closeCode: WebSocketCloseCode
  /// A readable explanation (never payload content).
  package var detail: String

  /// A 1002 protocol error.
  /// - Parameter detail: The explanation.
  /// - Returns: The failure.
  package static func protocolError(_ detail: String) -> Self {
    Self(closeCode: .protocolError, detail: detail)
  }
  /// A 1007 invalid-payload error.
  /// - Parameter detail: The explanation.
  /// - Returns: The failure.
  package static func invalidPayload(_ detail: String) -> Self {
    Self(closeCode: .invalidFramePayloadData, detail: detail)
  }
  /// A 1009 message-too-big error.
  /// - Parameter detail: The explanation.
  /// - Returns: The failure.
  package static func tooBig(_ detail: String) -> Self {
    Self(closeCode: .messageTooBig, detail: detail)
  }

  /// The public error for this failure.
  package var transportError: ServerBeeTransportError {
    switch closeCode {
    case .invalidFramePayloadData: ServerBeeTransportError(.invalidPayload, detail)
    case .messageTooBig: ServerBeeTransportError(.messageTooBig, detail)
    default: ServerBeeTransportError(.protocolViolation, detail)
    }
  }
}
