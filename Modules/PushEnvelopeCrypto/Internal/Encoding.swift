#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Byte/text conversions with the strictness the envelope format needs.
enum Encoding {
  /// Decodes canonical standard base64: correct `=` padding, zero padding bits, no whitespace or
  /// line breaks. Decoding then re-encoding must give the same text (the same check the relay
  /// and the iOS app make), so every byte string has exactly one accepted spelling.
  ///
  /// Written out rather than `Data(base64Encoded:)` plus a re-encoding and a comparison (the
  /// reference, kept as ``canonicalBase64ByFoundation(_:)`` for the tests that compare them),
  /// which cost about 20 k instructions per push: the text must be a multiple of 4 characters of
  /// the standard alphabet, `=` only as the last one or two, and the bits the padding leaves
  /// over must be zero.
  static func canonicalBase64(_ text: String) -> [UInt8]? {
    var copy = text
    return copy.withUTF8 { canonicalBase64(bytes: $0) }
  }

  static func canonicalBase64(bytes text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    let count = text.count
    guard count % 4 == 0 else { return nil }
    guard count > 0 else { return [] }
    var padding = 0
    if text[count - 1] == UInt8(ascii: "=") {
      padding = text[count - 2] == UInt8(ascii: "=") ? 2 : 1
    }
    let groups = count / 4
    let outputCount = groups * 3 - padding
    var valid = true
    let out = sextets.withUnsafeBufferPointer { sextets in
      [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
        var output = 0
        // Whole groups first (the last one only when it has no padding).
        let fullGroups = padding == 0 ? groups : groups - 1
        var union: UInt32 = 0
        for group in 0..<fullGroups {
          let index = group * 4
          let a = UInt32(sextets[Int(text[index])])
          let b = UInt32(sextets[Int(text[index + 1])])
          let c = UInt32(sextets[Int(text[index + 2])])
          let d = UInt32(sextets[Int(text[index + 3])])
          // An invalid character (`=` included, outside the padding) is 0xFF: any of them sets
          // a bit above the six in the union.
          union |= a | b | c | d
          let bits = a << 18 | b << 12 | c << 6 | d
          buffer[output] = UInt8(truncatingIfNeeded: bits >> 16)
          buffer[output + 1] = UInt8(truncatingIfNeeded: bits >> 8)
          buffer[output + 2] = UInt8(truncatingIfNeeded: bits)
          output += 3
        }
        if padding > 0 {
          let index = count - 4
          let a = UInt32(sextets[Int(text[index])])
          let b = UInt32(sextets[Int(text[index + 1])])
          let c = padding == 2 ? 0 : UInt32(sextets[Int(text[index + 2])])
          union |= a | b | c
          // The bits the padding leaves over must be zero (one spelling per byte string).
          if padding == 2 {
            if b & 0x0F != 0 { union |= 0xFF }
            buffer[output] = UInt8(truncatingIfNeeded: a << 2 | b >> 4)
            output += 1
          } else {
            if c & 0x03 != 0 { union |= 0xFF }
            buffer[output] = UInt8(truncatingIfNeeded: a << 2 | b >> 4)
            buffer[output + 1] = UInt8(truncatingIfNeeded: b << 4 | c >> 2)
            output += 2
          }
        }
        valid = union & ~0x3F == 0
        initialized = output
      }
    }
    return valid ? out : nil
  }

  /// The value of each standard base64 character; 0xFF for every other byte.
  private static let sextets: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
      .utf8.enumerated()
    {
      table[Int(character)] = UInt8(value)
    }
    return table
  }()

  /// The reference for ``canonicalBase64(_:)``: Foundation's decoder, then a re-encoding that
  /// must give the same text.
  static func canonicalBase64ByFoundation(_ text: String) -> [UInt8]? {
    guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else {
      return nil
    }
    return Array(data)
  }

  /// Whether `UUID(uuidString:)` reads `text` as a UUID. The canonical form (36 characters,
  /// hyphens at offsets 8, 13, 18 and 23, hex digits of either case elsewhere) is recognised
  /// here; anything else is left to `UUID(uuidString:)`, which parses with `sscanf` (about 3 k
  /// instructions a call) and so also takes forms such as a space or `+` before a hex pair.
  static func isUUID(_ text: String) -> Bool {
    isCanonicalUUID(text) || UUID(uuidString: text) != nil
  }

  static func isCanonicalUUID(_ text: String) -> Bool {
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

  /// Standard base64 with padding.
  static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Lowercase hex.
  static func hex(_ bytes: [UInt8]) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(hexDigits[Int(byte >> 4)])
      out.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A lowercase hyphenated UUID string built from 16 random bytes (version 4, RFC 4122 variant).
  static func uuidV4(_ random: [UInt8]) -> String {
    var bytes = Array(random.prefix(16))
    while bytes.count < 16 { bytes.append(0) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let text = hex(bytes)
    let chars = Array(text)
    return String(chars[0..<8]) + "-" + String(chars[8..<12]) + "-" + String(chars[12..<16])
      + "-" + String(chars[16..<20]) + "-" + String(chars[20..<32])
  }
}
