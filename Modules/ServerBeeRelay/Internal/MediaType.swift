import Foundation

/// The `/v1/send` media checks on `content-type` and `content-encoding`, read on the bytes when
/// the value is ASCII (Foundation's `trimmingCharacters` and `lowercased()` were
/// about 23 k instructions of each send). Any other value takes the reference path, the
/// former code, so the answer is the same for every value (`MediaTypeTests` compares both).
enum MediaType {
  /// `application/json`, any case, parameters (`; charset=utf-8`) allowed: the first
  /// non-empty `;`-separated part, without surrounding spaces and tabs.
  static func isJSON(_ contentType: String) -> Bool {
    var text = contentType
    let answer = text.withUTF8 { bytes -> Bool? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      // `split(separator:maxSplits:)` omits empty parts, so the media type is the first
      // non-empty part (`;application/json` has one).
      var start = 0
      while start < bytes.count {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
        if end > start {
          return equalsLowercased(trimmed(bytes, start..<end), in: bytes, json)
        }
        start = end + 1
      }
      return equalsLowercased(0..<0, in: bytes, json)
    }
    return answer ?? referenceIsJSON(contentType)
  }

  /// Whether a `content-encoding` is `identity`, any case, surrounded by spaces or tabs.
  static func isIdentity(_ encoding: String) -> Bool {
    var text = encoding
    let answer = text.withUTF8 { bytes -> Bool? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      return equalsLowercased(trimmed(bytes, 0..<bytes.count), in: bytes, identity)
    }
    return answer ?? referenceIsIdentity(encoding)
  }

  /// The checks as first written, for any value.
  static func referenceIsJSON(_ contentType: String) -> Bool {
    let media = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
  }

  static func referenceIsIdentity(_ encoding: String) -> Bool {
    encoding.trimmingCharacters(in: .whitespaces).lowercased() == "identity"
  }

  /// `range` without leading and trailing spaces and tabs (the ASCII part of `.whitespaces`).
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
    -> Range<Int>
  {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
    while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
    return lower..<upper
  }

  private static let json = Array("application/json".utf8)
  private static let identity = Array("identity".utf8)

  /// Whether the ASCII bytes in `range`, lowercased, are `expected` (lowercase ASCII).
  private static func equalsLowercased(
    _ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, _ expected: [UInt8]
  ) -> Bool {
    guard range.count == expected.count else { return false }
    for offset in 0..<expected.count {
      let byte = bytes[range.lowerBound + offset]
      let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
      guard lowered == expected[offset] else { return false }
    }
    return true
  }
}
