import Foundation
import ServerBeeCore
import Testing

/// Base64 and base64url against Foundation, the reference they replace: same answers on valid
/// and hostile input, and the canonical checks accept exactly one spelling per byte string.
@Suite struct Base64Tests {
  /// Foundation's decoder, then a re-encoding that must give the same text.
  static func decodeCanonicalByFoundation(_ text: String) -> [UInt8]? {
    guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else {
      return nil
    }
    return Array(data)
  }

  /// The base64url alphabet mapped to standard base64, padded, and decoded by Foundation.
  static func base64URLDecodedByFoundation(_ text: String) -> [UInt8]? {
    var bytes = Array(text.utf8)
    var padding = 0
    while bytes.last == UInt8(ascii: "=") {
      bytes.removeLast()
      padding += 1
    }
    guard padding == 0 || (bytes.count + padding) % 4 == 0, padding <= 2, bytes.count % 4 != 1
    else { return nil }
    for index in bytes.indices {
      switch bytes[index] {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        continue
      case UInt8(ascii: "-"): bytes[index] = UInt8(ascii: "+")
      case UInt8(ascii: "_"): bytes[index] = UInt8(ascii: "/")
      default: return nil
      }
    }
    while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
    return Data(base64Encoded: Data(bytes)).map(Array.init)
  }

  static let base64Texts: [String] = [
    "", "AA==", "AQ==", "AB==", "AAA=", "AAE=", "AAB=", "AAAA", "/+/+", "-_-_", "A", "AA", "AAA",
    "AAAAA", "A===", "====", "=AAA", "AA=A", "AA==AAAA", "AAAA====", " AAA", "AAA\n", "AA\r=",
    "oKGio6Slpqeoqaqr", "oKGio6Slpqeoqaqs", "oKGio6SlpqeoqaqrrK2ur7CxsrO0tba3uLm6u7y9vr8=",
    "oKGio6SlpqeoqaqrrK2ur7CxsrO0tba3uLm6u7y9vr9=",
    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9=",
    "東京AA", "AA\u{0}A",
  ]

  @Test(arguments: base64Texts)
  func canonicalBase64MatchesFoundationDecodeAndReencode(_ text: String) {
    #expect(Base64.decodeCanonical(text) == Self.decodeCanonicalByFoundation(text))
  }

  @Test func canonicalBase64MatchesFoundationForEveryShortByteString() {
    for length in 0...7 {
      for seed in 0..<64 {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ seed &* 31) }
        let text = Data(bytes).base64EncodedString()
        #expect(Base64.decodeCanonical(text) == bytes)
        // Every one-character change of a valid text.
        for position in text.indices {
          for replacement in ["A", "B", "=", "+", "/", "-", "a"] {
            var changed = text
            changed.replaceSubrange(position...position, with: replacement)
            #expect(
              Base64.decodeCanonical(changed) == Self.decodeCanonicalByFoundation(changed),
              "\(changed)")
          }
        }
      }
    }
  }

  @Test func encodingMatchesFoundationForEveryLengthUpTo64() {
    for length in 0...64 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ length) }
      let standard = Data(bytes).base64EncodedString()
      #expect(Base64.encode(bytes) == standard)
      let url = standard.replacing("+", with: "-").replacing("/", with: "_")
        .replacing("=", with: "")
      #expect(Base64URL.encode(bytes) == url)
      #expect(Base64URL.decode(url) == bytes)
      #expect(Base64URL.isCanonical(url, byteCount: length))
    }
  }

  /// The contiguous fast path (arrays, `Data`, slices of both) and the generic path (a
  /// collection with no contiguous storage) give Foundation's text, for every byte value and
  /// every length remainder.
  @Test func encodingMatchesFoundationForEveryStorageKind() {
    for length in [0, 1, 2, 3, 4, 5, 6, 255, 256, 257, 1_024, 1_537] {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 197 &+ 7) }
      let standard = Data(bytes).base64EncodedString()
      #expect(Base64.encode(bytes) == standard)
      #expect(Base64.encode(Data(bytes)) == standard)
      #expect(Base64.encode(bytes.lazy.map { $0 }) == standard)
      if length > 2 {
        let tail = Array(bytes.dropFirst(2))
        #expect(Base64.encode(bytes.dropFirst(2)) == Data(tail).base64EncodedString())
        #expect(Base64.encode(Data(bytes).dropFirst(2)) == Data(tail).base64EncodedString())
      }
    }
    let every = (0...255).map { UInt8($0) }
    #expect(Base64.encode(every) == Data(every).base64EncodedString())
  }

  @Test(arguments: [
    "", "AA", "AA==", "AB", "AAA", "AAE", "AAAA", "-_-_", "+/+/", "A", "AAAAA", "A===", "====",
    "AA=A", "AA==AAAA", " AAA", "AAA\n", "東京AA", "AA\u{0}A",
    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
  ])
  func base64URLDecodingMatchesFoundation(_ text: String) {
    #expect(Base64URL.decode(text) == Self.base64URLDecodedByFoundation(text))
  }

  @Test func canonicalBase64URLRefusesSpareBitsWrongLengthsAndOtherAlphabets() {
    // 32 bytes → 43 characters; the last carries 4 spare bits, which must be zero.
    let zeros = String(repeating: "A", count: 43)
    #expect(Base64URL.isCanonical(zeros, byteCount: 32))
    #expect(!Base64URL.isCanonical(String(repeating: "A", count: 42) + "B", byteCount: 32))
    #expect(!Base64URL.isCanonical(zeros + "=", byteCount: 32))
    #expect(!Base64URL.isCanonical(String(zeros.dropLast()), byteCount: 32))
    #expect(!Base64URL.isCanonical(String(repeating: "A", count: 42) + "+", byteCount: 32))
  }

  @Test func hexIsLowercaseTwoDigitsPerByte() {
    #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    #expect(Hex.encode([UInt8]()) == "")
  }

  @Test func aVersion4UUIDHasItsBitsAndTheCanonicalForm() {
    let text = UUIDText.v4(from: [UInt8](repeating: 0xff, count: 16))
    #expect(text == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    #expect(UUIDText.isCanonical(text))
    #expect(UUID(uuidString: text) != nil)
  }

  @Test func secureRandomGivesTheCountAskedForAndDiffers() {
    #expect(SecureRandom.bytes(0).isEmpty)
    #expect(SecureRandom.bytes(13).count == 13)
    // Two equal 32-byte draws have probability 2^-256.
    #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
  }

  @Test func base64URLReaderAgreesWithFoundation() {
    var texts = [
      "", "=", "==", "===", "A", "AA", "AAA", "AAAA", "AA=", "AA==", "AAA=", "AB", "AB==", "QR",
      "QR==", "QUJ", "QUJ=", "-_", "+/", "A A", "AA\n", "AAAAA", "AAAAAA==", "AA=A", "=AA",
      "WyJydWxlLTEiLCJzZXJ2ZXItMSIsIjIwMy4wLjExMy43IiwiMjAzMy0wNS0xOFQwMzozMzoyMCswMDowMCJd",
      "東京",
    ]
    for length in 0...9 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 251) }
      let standard = Data(bytes).base64EncodedString()
      let url = standard.replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_")
      texts += [url, url.replacingOccurrences(of: "=", with: ""), url + "="]
    }
    for text in texts {
      #expect(
        Base64URL.decode(text) == Self.base64URLDecodedByFoundation(text), "\(text)")
    }
  }
}
