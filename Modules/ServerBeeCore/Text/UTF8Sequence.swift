/// Well-formed UTF-8 (Unicode §3.9, table 3-7) one sequence at a time: no overlong forms, no
/// surrogates, nothing above U+10FFFF. The one copy of the table for the JSON readers
/// (RealtimeStream's scanner, the push envelope reader); `String(validating:)` would do, but
/// needs iOS 18 / macOS 15. (The WebSocket's validator checks across fragments, so it keeps
/// its own incremental state.)
///
/// ```swift
/// let bytes: [UInt8] = [0xE4, 0xBD, 0xA0]  // 你
/// bytes.withUnsafeBufferPointer { UTF8Sequence.length(in: $0, at: 0) }  // 3
/// ```
package enum UTF8Sequence {
  /// The length of the well-formed sequence that starts at `index` with a lead byte ≥ 0x80.
  /// - Parameters:
  ///   - bytes: The text.
  ///   - index: Where the sequence starts; `bytes[index]` must be ≥ 0x80.
  /// - Returns: 2, 3 or 4, or `nil` for an ill-formed or cut-off sequence.
  package static func length(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch bytes[index] {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return nil
    }
    guard bytes.count - index >= length else { return nil }
    let second = bytes[index + 1]
    guard second >= low, second <= high else { return nil }
    var offset = 2
    while offset < length {
      guard bytes[index + offset] & 0xC0 == 0x80 else { return nil }
      offset += 1
    }
    return length
  }

  /// Whether all of `bytes` is well-formed UTF-8.
  /// - Parameter bytes: The text.
  /// - Returns: `true` when every sequence is well formed.
  package static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count {
      if bytes[index] < 0x80 {
        index += 1
        continue
      }
      guard let length = length(in: bytes, at: index) else { return false }
      index += length
    }
    return true
  }
}
