/// Byte scans the relay's hot path shares, eight bytes at a time (the byte-at-a-time
/// loops were about 12 instructions a byte, and a send holds two copies of a 1.4 KiB ciphertext).
///
/// Each test says whether *some* byte of a word is in a class, with the classic bit tricks
/// (`haszero`/`hasless`): a byte can only be flagged wrongly above a byte that is really in the
/// class, so "is any byte in the class" is exact. Words are read with `loadUnaligned` only
/// where eight bytes are left; the tail goes byte by byte.
enum PlainText {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte of `word` below `limit` (at most 0x80), and maybe of bytes
  /// above such a byte: nonzero exactly when some byte is below `limit`.
  @inline(__always)
  static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highs
  }

  /// The high bit of each byte of `word` that is `byte` (and maybe of bytes above one): nonzero
  /// exactly when some byte is `byte`.
  @inline(__always)
  static func equal(_ byte: UInt8, in word: UInt64) -> UInt64 {
    let matched = word ^ (ones &* UInt64(byte))
    return (matched &- ones) & ~matched & highs
  }

  /// Whether JSON writes these bytes as they are inside a string: no control character, quote
  /// or backslash (bytes over 0x7F pass, as UTF-8 does).
  static func isPlainJSON(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      // One test for the three classes: no branch per class.
      if below(0x20, in: word) | equal(0x22, in: word) | equal(0x5C, in: word) != 0 {
        return false
      }
      offset += 8
    }
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
      offset += 1
    }
    return true
  }

  /// ``isPlainJSON(_:)`` for a string's UTF-8.
  static func isPlainJSON(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isPlainJSON(UnsafeRawBufferPointer($0)) }
  }

  /// Appends a string's UTF-8 from its contiguous storage (the `utf8` view goes element by
  /// element).
  static func append(_ text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { out.append(contentsOf: $0) }
  }

  /// How many bytes from `offset` on are printable ASCII other than `"` and `\` (what a JSON
  /// string holds up to its closing quote when it has no escape); the scan stops at the first
  /// other byte or the end.
  static func plainASCIIRun(in bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
    var index = offset
    while index + 8 <= bytes.count {
      let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      if word & highs | below(0x20, in: word) | equal(0x22, in: word) | equal(0x5C, in: word)
        != 0
      {
        break
      }
      index += 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      guard byte >= 0x20, byte < 0x80, byte != 0x22, byte != 0x5C else { break }
      index += 1
    }
    return index - offset
  }
}

extension PlainText {
  /// A remote string made safe for one log line: printable ASCII only (anything else becomes
  /// `?`), at most 128 characters.
  static func loggable(_ text: String) -> String {
    String(
      decoding: text.utf8.prefix(128).map { (0x20..<0x7f).contains($0) ? $0 : UInt8(ascii: "?") },
      as: UTF8.self)
  }
}
