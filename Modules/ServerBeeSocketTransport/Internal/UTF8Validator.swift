import ServerBeeTransport

/// An incremental UTF-8 validator, so text split across fragments (or inflate outputs) is checked
/// as it arrives and rejected at the first bad byte (RFC 6455 §8.1, RFC 3629 table 3-7).
package struct UTF8Validator: Sendable {
  private var needed = 0
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF

  /// Creates a validator at a character boundary.
  package init() {}

  /// Whether the bytes so far end on a character boundary (required at message end).
  package var isAtBoundary: Bool { needed == 0 }

  /// Checks the next bytes.
  /// - Parameter bytes: The next bytes of the text.
  /// - Returns: `false` at the first byte that cannot continue valid UTF-8.
  package mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
      // ASCII fast path: 8 bytes at a time while at a boundary.
      if needed == 0, index + 8 <= count,
        bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let byte = bytes[index]
      index += 1
      if needed == 0 {
        switch byte {
        case 0x00...0x7F: continue
        case 0xC2...0xDF: needed = 1
        case 0xE0: (needed, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
        case 0xED: (needed, upper) = (2, 0x9F)
        case 0xF0: (needed, lower) = (3, 0x90)
        case 0xF1...0xF3: needed = 3
        case 0xF4: (needed, upper) = (3, 0x8F)
        default: return false
        }
      } else {
        guard byte >= lower && byte <= upper else { return false }
        (lower, upper) = (0x80, 0xBF)
        needed -= 1
      }
    }
    return true
  }

  /// Checks the next bytes.
  /// - Parameter bytes: The next bytes of the text.
  /// - Returns: `false` at the first byte that cannot continue valid UTF-8.
  package mutating func validate(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { validate($0) }
  }

  /// Whether `bytes` is complete, valid UTF-8.
  /// - Parameter bytes: The text.
  /// - Returns: `true` when valid and complete.
  package static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    var validator = UTF8Validator()
    let array = Array(bytes)
    return validator.validate(array) && validator.isAtBoundary
  }
}
