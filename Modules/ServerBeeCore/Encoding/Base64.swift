/// Standard base64 (RFC 4648 §4) with padding, the one implementation in ServerBeeKit. Push
/// envelopes use it; decoding is canonical only, so every byte string has exactly one accepted
/// spelling.
///
/// ```swift
/// let text = Base64.encode(key)                 // "oKGio6Slpqeoqaqr…="
/// let bytes = Base64.decodeCanonical(text)      // [UInt8]? — nil unless canonical
/// ```
package enum Base64 {
  /// The padded standard base64 text of `bytes`.
  ///
  /// Contiguous bytes (an array, `Data`, a slice of either) are encoded three at a time straight
  /// into the string's storage; the generic byte-at-a-time loop (through the collection's
  /// iterator, unspecialised across modules) cost about 120 instructions a byte, 0.15 M for a
  /// push envelope's ciphertext. Both give the same text (`Base64Tests`).
  package static func encode(_ bytes: some Collection<UInt8>) -> String {
    if let text = bytes.withContiguousStorageIfAvailable({ encode(contiguous: $0) }) {
      return text
    }
    return encode(contiguous: Array(bytes))
  }

  /// ``encode(_:)`` of contiguous bytes.
  private static func encode(contiguous bytes: [UInt8]) -> String {
    bytes.withUnsafeBufferPointer { encode(contiguous: $0) }
  }

  /// ``encode(_:)`` of contiguous bytes.
  private static func encode(contiguous bytes: UnsafeBufferPointer<UInt8>) -> String {
    let count = bytes.count
    guard count > 0 else { return "" }
    let length = (count + 2) / 3 * 4
    return alphabetBytes.withUnsafeBufferPointer { alphabet in
      String(unsafeUninitializedCapacity: length) { out in
        var input = 0
        var output = 0
        while input + 3 <= count {
          let bits =
            UInt32(bytes[input]) << 16 | UInt32(bytes[input + 1]) << 8
            | UInt32(bytes[input + 2])
          out[output] = alphabet[Int(bits >> 18 & 0x3f)]
          out[output + 1] = alphabet[Int(bits >> 12 & 0x3f)]
          out[output + 2] = alphabet[Int(bits >> 6 & 0x3f)]
          out[output + 3] = alphabet[Int(bits & 0x3f)]
          input += 3
          output += 4
        }
        switch count - input {
        case 1:
          let bits = UInt32(bytes[input])
          out[output] = alphabet[Int(bits >> 2 & 0x3f)]
          out[output + 1] = alphabet[Int(bits << 4 & 0x3f)]
          out[output + 2] = UInt8(ascii: "=")
          out[output + 3] = UInt8(ascii: "=")
          output += 4
        case 2:
          let bits = UInt32(bytes[input]) << 8 | UInt32(bytes[input + 1])
          out[output] = alphabet[Int(bits >> 10 & 0x3f)]
          out[output + 1] = alphabet[Int(bits >> 4 & 0x3f)]
          out[output + 2] = alphabet[Int(bits << 2 & 0x3f)]
          out[output + 3] = UInt8(ascii: "=")
          output += 4
        default: break
        }
        return output
      }
    }
  }

  /// The 64 characters in order, as bytes.
  private static let alphabetBytes: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Decodes canonical standard base64: correct `=` padding, zero padding bits, no whitespace or
  /// line breaks. Decoding then re-encoding must give the same text (the same check the relay
  /// and the iOS app make), so every byte string has exactly one accepted spelling.
  ///
  /// Written out rather than `Data(base64Encoded:)` plus a re-encoding and a comparison (the
  /// reference, kept as Base64Tests for the tests that compare them),
  /// which cost about 20 k instructions per push: the text must be a multiple of 4 characters of
  /// the standard alphabet, `=` only as the last one or two, and the bits the padding leaves
  /// over must be zero.
  package static func decodeCanonical(_ text: String) -> [UInt8]? {
    var copy = text
    return copy.withUTF8 { decodeCanonical(bytes: $0) }
  }

  /// ``decodeCanonical(_:)`` of UTF-8 bytes.
  package static func decodeCanonical(bytes text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
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
}
