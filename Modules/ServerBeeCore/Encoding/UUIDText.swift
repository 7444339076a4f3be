/// UUID text without Foundation's parser: the one place ServerBeeKit makes a version-4 UUID from
/// given random bytes and recognises the canonical form.
///
/// ```swift
/// UUIDText.v4(from: SecureRandom.bytes(16))   // "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f"
/// UUIDText.isCanonical("0F8E7D6C-5B4A-4938-8271-6A5B4C3D2E1F")   // true
/// ```
package enum UUIDText {
  /// A lowercase hyphenated UUID built from the first 16 of `random` (zeros if fewer), with the
  /// version-4 and RFC 4122 variant bits set.
  package static func v4(from random: [UInt8]) -> String {
    var bytes = Array(random.prefix(16))
    while bytes.count < 16 { bytes.append(0) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = Array(Hex.encode(bytes).utf8)
    var out: [UInt8] = []
    out.reserveCapacity(36)
    for (index, digit) in hex.enumerated() {
      if index == 8 || index == 12 || index == 16 || index == 20 { out.append(UInt8(ascii: "-")) }
      out.append(digit)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `text` is 36 characters with hyphens at offsets 8, 13, 18 and 23 and hex digits of
  /// either case elsewhere.
  package static func isCanonical(_ text: String) -> Bool {
    var copy = text
    return copy.withUTF8 { bytes in
      guard bytes.count == 36 else { return false }
      for (offset, byte) in bytes.enumerated() {
        switch offset {
        case 8, 13, 18, 23:
          guard byte == UInt8(ascii: "-") else { return false }
        default:
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            continue
          default:
            return false
          }
        }
      }
      return true
    }
  }
}
