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
  static func canonicalBase64(_ text: String) -> [UInt8]? {
    guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else {
      return nil
    }
    return Array(data)
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
