import Foundation

// The one-pass reading of `live_json` in the exact form the simulator writes it (the
// key-by-key reading of ``LiveNumbers/init(plainJSON:)`` cost about 15 k instructions a row,
// most of a `full_sync` that missed the cache, a `String` and `strtod` per float included).

extension LiveNumbers {
  /// Reads `live_json` as `JSONEncoder` writes it: one flat object, no white space, every key
  /// once (in any order: Foundation's encoder on Linux follows its dictionary's order), plain
  /// keys, integers for the integer fields and short decimals for the floats. Anything else is
  /// `nil`, for the key-by-key reading to decide; where both read, they read the same values
  /// (`ServerRowColumnsTests`).
  init?(canonicalJSON bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, bytes.count >= 2, base[0] == UInt8(ascii: "{") else {
      return nil
    }
    self.init()
    let count = bytes.count
    var seen: UInt32 = 0
    var index = 1
    while true {
      guard index < count, base[index] == UInt8(ascii: "\"") else { return nil }
      let keyStart = index + 1
      index = keyStart
      guard let close = memchr(base + keyStart, Int32(UInt8(ascii: "\"")), count - keyStart) else {
        return nil
      }
      index = keyStart + (UnsafeRawPointer(close) - UnsafeRawPointer(base + keyStart))
      guard index + 1 < count, base[index + 1] == UInt8(ascii: ":"),
        let field = Self.field(base + keyStart, index - keyStart), seen & (1 << field) == 0
      else { return nil }
      seen |= 1 << field
      index += 2
      switch field {
      case 1, 9, 10, 11:
        guard let value = Self.shortDecimal(base, count, &index) else { return nil }
        setFloat(value, field: field)
      default:
        guard let value = Self.plainInteger(base, count, &index) else { return nil }
        setInteger(value, field: field)
      }
      // The number stopped at `,` or `}`.
      if base[index] == UInt8(ascii: "}") { break }
      index += 1
    }
    guard index == count - 1, seen == (1 << Self.keys.count) - 1 else { return nil }
  }

  /// The index in ``keys`` of the key at `key` (`count` bytes, no escape), told apart by its
  /// length and one letter, then compared whole; `nil` for any other key.
  private static func field(_ key: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    let candidate: Int
    switch count {
    case 3: candidate = 1
    case 5: candidate = key[4] == UInt8(ascii: "1") ? 9 : 10
    case 6: candidate = key[0] == UInt8(ascii: "u") ? 0 : 11
    case 7: candidate = key[0] == UInt8(ascii: "m") ? 2 : key[0] == UInt8(ascii: "t") ? 12 : 13
    case 8: candidate = key[0] == UInt8(ascii: "s") ? 3 : 4
    case 10: candidate = 5
    case 11: candidate = 6
    case 12: candidate = 14
    case 13: candidate = 7
    case 14: candidate = 8
    case 19: candidate = 15
    case 20: candidate = 16
    default: return nil
    }
    let matches = keyBytes[candidate].withUnsafeBufferPointer { known in
      guard let start = known.baseAddress, known.count == count else { return false }
      return memcmp(start, key, count) == 0
    }
    return matches ? candidate : nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  /// `-?(0|[1-9][0-9]*)` of at most 18 digits as an `Int64` (so it cannot overflow), followed
  /// by `,` or `}` (not consumed); `nil` for any other form (the key-by-key reading then
  /// decides, longer numbers included).
  private static func plainInteger(
    _ bytes: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int
  ) -> Int64? {
    var at = index
    let negative = at < count && bytes[at] == UInt8(ascii: "-")
    if negative { at += 1 }
    let first = at
    var magnitude: Int64 = 0
    while at < count, isDigit(bytes[at]) {
      magnitude = magnitude &* 10 &+ Int64(bytes[at] &- UInt8(ascii: "0"))
      at += 1
    }
    let digits = at - first
    guard digits > 0, digits <= 18, digits == 1 || bytes[first] != UInt8(ascii: "0"),
      at < count, bytes[at] == UInt8(ascii: ",") || bytes[at] == UInt8(ascii: "}")
    else { return nil }
    index = at
    return negative ? -magnitude : magnitude
  }

  /// A JSON number without exponent, of at most 15 significant digits and 22 decimals,
  /// followed by `,` or `}` (not consumed); `nil` for any other (the key-by-key reading then
  /// parses it).
  ///
  /// Exact: the digits `n < 10^15` and `10^k` are exact `Double`s, so `n / 10^k` is one correctly
  /// rounded division, the value `strtod` reads (Clinger's fast path).
  private static func shortDecimal(
    _ bytes: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int
  ) -> Double? {
    var at = index
    let negative = at < count && bytes[at] == UInt8(ascii: "-")
    if negative { at += 1 }
    guard at < count, isDigit(bytes[at]) else { return nil }
    var digits: UInt64 = 0
    var significant = 0
    var decimals = 0
    if bytes[at] == UInt8(ascii: "0") {
      at += 1
    } else {
      while at < count, isDigit(bytes[at]) {
        digits = digits &* 10 &+ UInt64(bytes[at] &- UInt8(ascii: "0"))
        significant += 1
        at += 1
      }
    }
    if at < count, bytes[at] == UInt8(ascii: ".") {
      at += 1
      let start = at
      while at < count, isDigit(bytes[at]) {
        digits = digits &* 10 &+ UInt64(bytes[at] &- UInt8(ascii: "0"))
        if digits != 0 { significant += 1 }
        decimals += 1
        at += 1
      }
      guard at > start else { return nil }
    }
    // 15 digits keep `digits` exact and far from overflow.
    guard significant <= 15, decimals < ShortFloat.powersOfTen.count, at < count,
      bytes[at] == UInt8(ascii: ",") || bytes[at] == UInt8(ascii: "}")
    else { return nil }
    let magnitude = Double(digits) / ShortFloat.powersOfTen[decimals]
    index = at
    return negative ? -magnitude : magnitude
  }
}
