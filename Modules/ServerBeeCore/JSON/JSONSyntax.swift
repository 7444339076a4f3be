/// Whether bytes are JSON that `JSONSerialization.jsonObject(with:options: .fragmentsAllowed)`
/// of swift-corelibs-foundation would read, without building any value.
///
/// ``WireJSON`` asks this after `JSONDecoder` failed at the root, to tell a number that does not
/// fit its field from broken JSON. It used to ask `JSONSerialization`, which is not part of
/// FoundationEssentials; this check follows the same rules, including its leniencies, so the
/// answers (and the error codes built on them) stay the same (`JSONSyntaxTests` compares the two):
///
/// - white space is space, tab, CR and LF; a UTF-8 byte order mark is skipped;
/// - a trailing comma before `]` or `}` is accepted;
/// - at most 512 nested arrays and objects;
/// - strings: no raw control characters, the JSON escapes only, a `\u` high surrogate must be
///   followed by a `\u` low surrogate, and a lone low surrogate is refused;
/// - numbers: RFC 8259 syntax (no leading zeros) whose value is a finite `Double`.
///
/// Input is well-formed UTF-8 (the caller checks). UTF-16 and UTF-32 input, which
/// `JSONSerialization` recognises by its zero bytes, is answered `false`.
package enum JSONSyntax {
  static let maximumDepth = 512

  package static func isWellFormed(_ bytes: [UInt8]) -> Bool {
    // A zero byte is never valid in UTF-8 JSON; among the first four bytes it makes
    // JSONSerialization read UTF-16 or UTF-32 instead, which this check does not do.
    guard !bytes.prefix(4).contains(0) else { return false }
    var start = 0
    if bytes.count >= 4, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    var reader = Reader(bytes: bytes, index: start)
    guard reader.value(depth: 0) else { return false }
    reader.skipWhitespace()
    return reader.index == bytes.count
  }

  private struct Reader {
    let bytes: [UInt8]
    var index: Int

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
      }
    }

    mutating func value(depth: Int) -> Bool {
      skipWhitespace()
      guard let byte = current else { return false }
      switch byte {
      case UInt8(ascii: "\""): return string()
      case UInt8(ascii: "{"): return object(depth: depth)
      case UInt8(ascii: "["): return array(depth: depth)
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
      default: return false
      }
    }

    mutating func literal(_ word: StaticString) -> Bool {
      let count = word.utf8CodeUnitCount
      guard bytes.count - index >= count else { return false }
      for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
        return false
      }
      index += count
      return true
    }

    mutating func array(depth: Int) -> Bool {
      guard depth < maximumDepth else { return false }
      index += 1
      skipWhitespace()
      if current == UInt8(ascii: "]") {
        index += 1
        return true
      }
      while true {
        guard value(depth: depth + 1) else { return false }
        skipWhitespace()
        switch current {
        case UInt8(ascii: "]"):
          index += 1
          return true
        case UInt8(ascii: ","):
          index += 1
          skipWhitespace()
          if current == UInt8(ascii: "]") {
            index += 1
            return true
          }
        default:
          return false
        }
      }
    }

    mutating func object(depth: Int) -> Bool {
      guard depth < maximumDepth else { return false }
      index += 1
      skipWhitespace()
      if current == UInt8(ascii: "}") {
        index += 1
        return true
      }
      while true {
        guard current == UInt8(ascii: "\""), string() else { return false }
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { return false }
        index += 1
        guard value(depth: depth + 1) else { return false }
        skipWhitespace()
        switch current {
        case UInt8(ascii: "}"):
          index += 1
          return true
        case UInt8(ascii: ","):
          index += 1
          skipWhitespace()
          if current == UInt8(ascii: "}") {
            index += 1
            return true
          }
        default:
          return false
        }
      }
    }

    mutating func string() -> Bool {
      index += 1
      while let byte = current {
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return true
        case 0x00..<0x20:
          return false
        case UInt8(ascii: "\\"):
          guard let escaped = current else { return false }
          index += 1
          switch escaped {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            continue
          case UInt8(ascii: "u"):
            guard let unit = hexUnit() else { return false }
            if unit & 0xFC00 == 0xD800 {
              guard current == UInt8(ascii: "\\") else { return false }
              index += 1
              guard current == UInt8(ascii: "u") else { return false }
              index += 1
              guard let low = hexUnit(), low & 0xFC00 == 0xDC00 else { return false }
            } else if unit & 0xFC00 == 0xDC00 {
              return false
            }
          default:
            return false
          }
        default:
          continue
        }
      }
      return false
    }

    /// Four hex digits.
    mutating func hexUnit() -> UInt16? {
      guard bytes.count - index >= 4 else { return nil }
      var unit: UInt16 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        unit = unit << 4 | UInt16(digit)
        index += 1
      }
      return unit
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, then a finite `Double`.
    mutating func number() -> Bool {
      let start = index
      if current == UInt8(ascii: "-") { index += 1 }
      guard let first = current, isDigit(first) else { return false }
      index += 1
      if first == UInt8(ascii: "0") {
        if let next = current, isDigit(next) { return false }
      } else {
        skipDigits()
      }
      if current == UInt8(ascii: ".") {
        index += 1
        guard let next = current, isDigit(next) else { return false }
        skipDigits()
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        index += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
        guard let next = current, isDigit(next) else { return false }
        skipDigits()
      }
      // What may follow a number; anything else (`1x`, `1-`) is an error.
      switch current {
      case nil, 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
        break
      default:
        return false
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      return Double(text)?.isFinite == true
    }

    mutating func skipDigits() {
      while let byte = current, isDigit(byte) { index += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool {
      byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
  }
}
