/// Eight-bytes-at-a-time scans over UTF-8 text, for the hot loops of the extension step (the
/// base64 ciphertext is up to 2760 bytes, and is scanned by the JSON reader and the size check).
enum ByteScan {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The index of the first byte at or after `start` that is `"`, `\` or below 0x20 (or
  /// `bytes.count`), and whether a byte of 0x80 or above came before it.
  static func plainRun(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
    end: Int, sawNonASCII: Bool
  ) {
    var index = start
    var high: UInt64 = 0
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while bytes.count - index >= 8 {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        // "Has a zero byte" tests (exact about whether one exists, not where): a quote, a
        // backslash, or a byte below 0x20 anywhere in the word stops the fast loop.
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let special =
          ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
          | ((word &- ones &* 0x20) & ~word)
        if special & highBits != 0 { break }
        high |= word
        index += 8
      }
    }
    var sawNonASCII = high & highBits != 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      if byte >= 0x80 { sawNonASCII = true }
      index += 1
    }
    return (index, sawNonASCII)
  }

  /// Whether `text` has no `"`, `\` or byte below 0x20: JSON writes it unchanged.
  static func needsNoJSONEscaping(_ text: String) -> Bool {
    var copy = text
    return copy.withUTF8 { bytes in plainRun(in: bytes, from: 0).end == bytes.count }
  }
}
