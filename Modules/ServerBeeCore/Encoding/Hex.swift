/// Lowercase hexadecimal, the one implementation in ServerBeeKit (digests, tokens, key ids).
///
/// ```swift
/// Hex.encode([0x0f, 0xa0])   // "0fa0"
/// ```
package enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  /// Two lowercase hex digits per byte.
  package static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
