/// Base64url (RFC 4648 §5), the one implementation in ServerBeeKit: alert keys, revocation
/// proofs, simulator tokens and key checks all use it.
///
/// ```swift
/// let text = Base64URL.encode(bytes)                 // unpadded: 32 bytes → 43 characters
/// let back = Base64URL.decode(text)                  // [UInt8]? (padding optional)
/// Base64URL.isCanonical(text, byteCount: 32)         // the exact unpadded form only
/// ```
package enum Base64URL {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// The unpadded base64url text of `bytes`.
  package static func encode(_ bytes: some Collection<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count * 4 + 2) / 3)
    var bits: UInt32 = 0
    var held = 0
    for byte in bytes {
      bits = bits << 8 | UInt32(byte)
      held += 8
      while held >= 6 {
        held -= 6
        out.append(alphabet[Int((bits >> UInt32(held)) & 0x3f)])
      }
    }
    if held > 0 { out.append(alphabet[Int((bits << UInt32(6 - held)) & 0x3f)]) }
    return String(decoding: out, as: UTF8.self)
  }

  /// The 6-bit value of a base64url character, or `nil` for anything else (including the
  /// standard alphabet's `+` and `/`, `=` and white space).
  package static func value(of byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
    case UInt8(ascii: "-"): 62
    case UInt8(ascii: "_"): 63
    default: nil
    }
  }

  /// Decodes base64url with optional (but then correct) `=` padding; any other character is
  /// refused. Like Foundation's decoder, the bits a short last group leaves over are ignored
  /// (use ``isCanonical(_:byteCount:)`` where only the exact form may pass).
  package static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { decode(bytes: $0) }
  }

  /// ``decode(_:)`` of a substring (an alert key after its `v1.` prefix, say).
  package static func decode(_ text: Substring) -> [UInt8]? {
    var text = text
    return text.withUTF8 { decode(bytes: $0) }
  }

  /// ``decode(_:)`` of UTF-8 bytes.
  package static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var count = bytes.count
    var padding = 0
    while count > 0, bytes[count - 1] == UInt8(ascii: "=") {
      count -= 1
      padding += 1
    }
    guard padding == 0 || (count + padding) % 4 == 0, padding <= 2, count % 4 != 1 else {
      return nil
    }
    var out: [UInt8] = []
    out.reserveCapacity(count / 4 * 3 + 2)
    var bits: UInt32 = 0
    var held = 0
    for index in 0..<count {
      guard let value = value(of: bytes[index]) else { return nil }
      bits = bits << 6 | UInt32(value)
      held += 6
      if held >= 8 {
        held -= 8
        out.append(UInt8(truncatingIfNeeded: bits >> UInt32(held)))
      }
    }
    return out
  }

  /// Whether `text` is the canonical unpadded base64url form of exactly `byteCount` bytes: the
  /// right length, the alphabet only, and zero bits where the last character has spare ones.
  package static func isCanonical(_ text: String, byteCount: Int) -> Bool {
    let characters = Array(text.utf8)
    guard byteCount >= 0, characters.count == (byteCount * 8 + 5) / 6 else { return false }
    var last: UInt8 = 0
    for character in characters {
      guard let value = value(of: character) else { return false }
      last = value
    }
    let unusedBits = characters.count * 6 - byteCount * 8
    return last & UInt8((1 << unusedBits) - 1) == 0
  }
}
