import ServerBeeCore

/// A forward-only JSON reader over UTF-8 bytes: the hot path of the live stream.
///
/// Foundation's `JSONDecoder` builds a generic tree and goes through `Codable` containers, which
/// costs ~50 ms for a 1,000-server `full_sync` (Benchmarks/payloads). This scanner reads values in
/// place: strings without escapes become `String`s straight from the bytes, integers are
/// accumulated without allocation, and decimals with at most 15 significant digits are converted
/// exactly with one multiplication or division by a power of ten (Clinger's fast path); longer
/// ones fall back to the standard library's correctly rounded parser.
///
/// It validates as it goes (structure, string control characters, number syntax, depth) and
/// reports the byte offset of the first problem. It never reads past `bytes.count`.
struct JSONScanner {
  struct Failure: Error, Equatable {
    var offset: Int
    var reason: String
  }

  /// Deeper nesting than this is refused (no stream message needs more than 6 levels).
  static let maximumDepth = 64

  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  private var depth = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  // MARK: Structure

  func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

  @inline(__always) mutating func skipWhitespace() {
    // Every JSON space is at most 0x20, and a compact frame has none: one comparison.
    while index < bytes.count, bytes[index] <= 0x20 {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  /// The next non-space byte, without consuming it; `nil` at the end.
  @inline(__always) mutating func peek() -> UInt8? {
    skipWhitespace()
    return index < bytes.count ? bytes[index] : nil
  }

  @inline(__always) mutating func expect(_ byte: UInt8) throws(Failure) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else {
      throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
    }
    index += 1
  }

  /// Requires that only whitespace remains.
  mutating func expectEnd() throws(Failure) {
    skipWhitespace()
    guard index == bytes.count else { throw fail("unexpected data after the JSON value") }
  }

  /// Reads an object, calling `member` with each key's bytes (escapes resolved) positioned at
  /// the value, which `member` must consume.
  mutating func readObject(
    _ member: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    try expect(UInt8(ascii: "{"))
    if peek() == UInt8(ascii: "}") {
      index += 1
      return
    }
    try readMembers(member)
  }

  /// After `{`: reads the first key and its `:` and says whether the key is `key`. Used to look
  /// at a frame's leading `type` before deciding how to read the rest.
  mutating func readKeyEquals(_ key: StaticString) throws(Failure) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw fail("expected a key")
    }
    let (start, end, escaped) = try scanString()
    try expect(UInt8(ascii: ":"))
    return !escaped && UnsafeBufferPointer(rebasing: bytes[start..<end]).equals(key)
  }

  /// After a member's value: reads the remaining members up to and including `}`.
  mutating func readRemainingMembers(
    _ member: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    guard try endOfMember() else { return }
    try readMembers(member)
  }

  /// Reads `"key": value` pairs up to and including `}`.
  private mutating func readMembers(
    _ member: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    try enterMembers()
    defer { leaveMembers() }
    repeat {
      skipWhitespace()
      try readKey(member)
    } while try endOfMember()
  }

  /// Consumes `{`; then, unless `}` follows at once (consumed too: returns `false`), counts one
  /// more level of nesting, which ``leaveMembers()`` gives back once the `}` is read. For a
  /// reader that walks the members itself (``readKey(_:)``, ``consumeKey(_:)``,
  /// ``endOfMember()``) with the rules of ``readObject(_:)``.
  mutating func enterObject() throws(Failure) -> Bool {
    try expect(UInt8(ascii: "{"))
    if peek() == UInt8(ascii: "}") {
      index += 1
      return false
    }
    try enterMembers()
    return true
  }

  /// Counts one more level of nesting, refusing too deep a frame.
  private mutating func enterMembers() throws(Failure) {
    depth += 1
    guard depth <= Self.maximumDepth else { throw fail("nesting is too deep") }
  }

  /// Gives back the level ``enterObject()`` counted.
  mutating func leaveMembers() { depth -= 1 }

  /// At a key (after any spaces): reads it and its `:` and passes its bytes (escapes resolved)
  /// to `body`, positioned at the value.
  mutating func readKey<Result>(
    _ body: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw fail("expected a key")
    }
    let (start, end, escaped) = try scanString()
    try expect(UInt8(ascii: ":"))
    if escaped {
      let key = Array(try unescape(start, end).utf8)
      return try key.withUnsafeBufferPointer { (key) throws(Failure) in try body(&self, key) }
    }
    return try body(&self, UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  /// At a key (after any spaces): consumes `"key":` when the next bytes are exactly `pattern`,
  /// and says whether they were. Reading the key with ``readKey(_:)`` would leave the scanner
  /// at the same place with the same key (a pattern's key is plain ASCII: no escape, no byte
  /// the string scan stops at), so a reader may try its expected key first and fall back.
  @inline(__always) mutating func consumeKey(_ pattern: KeyPattern) -> Bool {
    guard index + pattern.readLength <= bytes.count, let base = bytes.baseAddress,
      pattern.matches(UnsafeRawPointer(base + index))
    else { return false }
    index += pattern.length
    return true
  }

  /// Consumes `,` (returns `true`: another member follows) or `}` (returns `false`).
  @inline(__always) mutating func endOfMember() throws(Failure) -> Bool {
    skipWhitespace()
    guard index < bytes.count else { throw fail("unterminated object") }
    if bytes[index] == UInt8(ascii: ",") {
      index += 1
      return true
    }
    if bytes[index] == UInt8(ascii: "}") {
      index += 1
      return false
    }
    throw fail("expected ',' or '}'")
  }

  /// Reads an array, calling `element` positioned at each element, which it must consume.
  mutating func readArray(_ element: (inout JSONScanner) throws(Failure) -> Void) throws(Failure) {
    try expect(UInt8(ascii: "["))
    depth += 1
    guard depth <= Self.maximumDepth else { throw fail("nesting is too deep") }
    defer { depth -= 1 }
    if peek() == UInt8(ascii: "]") {
      index += 1
      return
    }
    while true {
      try element(&self)
      skipWhitespace()
      guard index < bytes.count else { throw fail("unterminated array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return
      } else {
        throw fail("expected ',' or ']'")
      }
    }
  }

  /// Skips any value.
  mutating func skipValue() throws(Failure) {
    switch peek() {
    case UInt8(ascii: "{"): try readObject { (s, _) throws(Failure) in try s.skipValue() }
    case UInt8(ascii: "["): try readArray { (s) throws(Failure) in try s.skipValue() }
    case UInt8(ascii: "\""): _ = try scanString()
    case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
    case UInt8(ascii: "n"): try readNull()
    case nil: throw fail("unexpected end of input")
    default: _ = try readDouble()
    }
  }

  // MARK: Scalars

  /// Consumes `null` if it is next and says whether it was.
  @inline(__always) mutating func consumeNull() throws(Failure) -> Bool {
    guard peek() == UInt8(ascii: "n") else { return false }
    try readNull()
    return true
  }

  mutating func readNull() throws(Failure) {
    try literal("null")
  }

  mutating func readBool() throws(Failure) -> Bool {
    switch peek() {
    case UInt8(ascii: "t"):
      try literal("true")
      return true
    case UInt8(ascii: "f"):
      try literal("false")
      return false
    default: throw fail("expected true or false")
    }
  }

  /// Consumes `word` (`null`, `true` or `false`: four bytes or more).
  @inline(__always) private mutating func literal(_ word: StaticString) throws(Failure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count, let base = bytes.baseAddress else {
      throw fail("truncated literal")
    }
    let start = word.utf8Start
    // The first four bytes at once, then the rest (the `e` of `false`).
    guard count >= 4,
      UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self)
        == UnsafeRawPointer(start).loadUnaligned(as: UInt32.self)
    else { throw fail("invalid literal") }
    for i in 4..<count where base[index + i] != start[i] {
      throw fail("invalid literal")
    }
    index += count
  }

  /// Reads a string value.
  mutating func readString() throws(Failure) -> String {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw fail("expected a string")
    }
    let (start, end, escaped) = try scanString()
    if escaped { return try unescape(start, end) }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// Reads a string or `null`.
  mutating func readOptionalString() throws(Failure) -> String? {
    try consumeNull() ? nil : readString()
  }

  /// Reads a string value, sharing it through `cache` with any earlier string of the same
  /// bytes in this frame.
  mutating func readString(cache: inout StringCache) throws(Failure) -> String {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw fail("expected a string")
    }
    let (start, end, escaped) = try scanString()
    if escaped { return try unescape(start, end) }
    return cache.string(in: bytes, from: start, to: end)
  }

  /// Reads a string or `null`, sharing strings through `cache`.
  mutating func readOptionalString(cache: inout StringCache) throws(Failure) -> String? {
    try consumeNull() ? nil : readString(cache: &cache)
  }

  /// Moves past a string starting at `index` (a quote); returns the content range and whether
  /// it holds escapes.
  ///
  /// Validates everything JSONDecoder could refuse: well-formed UTF-8 (no overlongs, no encoded
  /// surrogates, nothing above U+10FFFF), known escapes with four hex digits after `\u`, and
  /// surrogate escapes only in high-low pairs. ASCII costs one comparison per byte.
  private mutating func scanString() throws(Failure) -> (Int, Int, Bool) {
    index += 1
    let start = index
    var escaped = false
    let count = bytes.count
    guard let base = bytes.baseAddress else { throw fail("unterminated string") }
    while true {
      // Eight bytes at a time: strings are most of a frame's bytes, and most of them need no
      // closer look. The mask's lowest set bit is exactly the first byte that does.
      if index + 8 <= count {
        let mask = Self.attentionMask(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        if mask == 0 {
          index += 8
          continue
        }
        index += mask.trailingZeroBitCount >> 3
      } else {
        guard index < count else { throw fail("unterminated string") }
        let byte = bytes[index]
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte < 0x80 {
          index += 1
          continue
        }
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start, index - 1, escaped)
      }
      if byte == UInt8(ascii: "\\") {
        escaped = true
        try scanEscape()
        continue
      }
      if byte < 0x20 { throw fail("control character in a string") }
      try scanMultibyte()
    }
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte of `word` that is `"`, `\\`, below 0x20 or at least 0x80 — exact
  /// up to the first such byte (SWAR: `(x - 1) & ~x` sets the high bit of a zero byte; a borrow
  /// can only mark bytes above a real hit).
  @inline(__always) private static func attentionMask(_ word: UInt64) -> UInt64 {
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let zeroQuote = (quote &- ones) & ~quote
    let zeroBackslash = (backslash &- ones) & ~backslash
    let control = (word &- ones &* 0x20) & ~word
    return (zeroQuote | zeroBackslash | control | word) & highs
  }

  /// At a backslash: moves past one escape, or a surrogate pair of `\u` escapes.
  private mutating func scanEscape() throws(Failure) {
    guard index + 1 < bytes.count else { throw fail("unterminated string") }
    switch bytes[index + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      index += 2
    case UInt8(ascii: "u"):
      guard let unit = hex4(at: index + 2, end: bytes.count) else { throw fail("bad \\u escape") }
      index += 6
      if (0xDC00..<0xE000).contains(unit) { throw fail("lone low surrogate escape") }
      if (0xD800..<0xDC00).contains(unit) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u"), let low = hex4(at: index + 2, end: bytes.count),
          (0xDC00..<0xE000).contains(low)
        else { throw fail("lone high surrogate escape") }
        index += 6
      }
    default: throw fail("bad escape")
    }
  }

  /// At a byte ≥ 0x80: moves past one well-formed UTF-8 sequence (Unicode Table 3-7).
  private mutating func scanMultibyte() throws(Failure) {
    guard let length = UTF8Sequence.length(in: bytes, at: index) else {
      throw fail("invalid UTF-8")
    }
    index += length
  }

  private func hex4(at: Int, end: Int) -> UInt32? {
    guard at + 4 <= end else { return nil }
    var value: UInt32 = 0
    for j in at..<(at + 4) {
      let c = bytes[j]
      let digit: UInt8
      switch c {
      case 0x30...0x39: digit = c - 0x30
      case 0x41...0x46: digit = c - 0x37
      case 0x61...0x66: digit = c - 0x57
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Resolves the escapes of a string `scanString` has validated.
  private func unescape(_ start: Int, _ end: Int) throws(Failure) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(end - start)
    var i = start
    while i < end {
      let byte = bytes[i]
      guard byte == UInt8(ascii: "\\") else {
        out.append(byte)
        i += 1
        continue
      }
      guard i + 1 < end else { throw Failure(offset: i, reason: "bad escape") }
      switch bytes[i + 1] {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        guard var scalar = hex4(at: i + 2, end: end) else {
          throw Failure(offset: i, reason: "bad \\u escape")
        }
        i += 6
        if (0xD800..<0xDC00).contains(scalar) {
          guard i + 1 < end, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
            let low = hex4(at: i + 2, end: end), (0xDC00..<0xE000).contains(low)
          else { throw Failure(offset: i, reason: "lone surrogate escape") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          i += 6
        }
        guard let value = Unicode.Scalar(scalar) else {
          throw Failure(offset: i, reason: "lone surrogate escape")
        }
        out.append(contentsOf: Array(String(Character(value)).utf8))
        continue
      default: throw Failure(offset: i, reason: "bad escape")
      }
      i += 2
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Reads `null` as `nil`, else a Boolean.
  mutating func readOptionalBool() throws(Failure) -> Bool? {
    try consumeNull() ? nil : readBool()
  }

  /// Reads `null` as `nil`, else an integer (see ``readInt64()``).
  @inline(__always) mutating func readOptionalInt64() throws(Failure) -> Int64? {
    if let value = readPlainInteger() { return value }
    return try consumeNull() ? nil : readInt64()
  }

  /// Reads `null` as `nil`, else an integer that fits `Int`.
  mutating func readOptionalInt() throws(Failure) -> Int? {
    guard let value = try readOptionalInt64() else { return nil }
    guard let int = Int(exactly: value) else { throw fail("integer out of range") }
    return int
  }

  /// Refuses a number whose integer part has a leading zero (`073`, `-01`), as JSON does.
  @inline(__always) private func checkNoLeadingZero(at position: Int) throws(Failure) {
    if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "0"),
      bytes[position + 1] &- 0x30 < 10
    {
      throw Failure(offset: position, reason: "number with a leading zero")
    }
  }

  /// Reads an integer. A number with a fraction or exponent is accepted when it is whole
  /// (`4.0`), since some servers write integers as floats, and below 2^53 (past it, the slow
  /// path decides, as JSONDecoder does).
  mutating func readInt64() throws(Failure) -> Int64 {
    skipWhitespace()
    if let value = readPlainInteger() { return value }
    let start = index
    var negative = false
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    try checkNoLeadingZero(at: index)
    // Up to 18 digits cannot overflow a UInt64; a 19th is checked, a 20th is out of range.
    var magnitude: UInt64 = 0
    var digits = 0
    while index < bytes.count {
      let digit = bytes[index] &- 0x30
      guard digit < 10 else { break }
      if digits >= 18 {
        let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
        guard !o1, !o2 else { throw fail("integer out of range") }
        magnitude = sum
      } else {
        magnitude = magnitude &* 10 &+ UInt64(digit)
      }
      digits += 1
      index += 1
    }
    guard digits > 0 else { throw fail("expected a number") }
    if index < bytes.count,
      bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e")
    {
      index = start
      let double = try readDouble()
      // The conversion JSONDecoder makes: exact, or an error.
      guard let whole = Int64(exactly: double) else { throw fail("expected an integer") }
      // From 2^53 on, doubles are further apart than 1, so JSONDecoder does not trust the
      // double: it reads the text again as a Decimal and truncates the fraction
      // (`9007199254740991.8` is 9007199254740991, where the double says 9007199254740992).
      // Rare enough to leave to the slow path, which is JSONDecoder.
      guard double.magnitude < 0x1p53 else { throw fail("a non-integer form at or past 2^53") }
      return whole
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else { throw fail("integer out of range") }
      return Int64(truncatingIfNeeded: 0 &- magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else { throw fail("integer out of range") }
    return Int64(magnitude)
  }

  /// The common integer, eight digits at a time: an optional `-`, then 1–15 digits without a
  /// leading zero, followed by neither `.` nor an exponent; consumed and returned. `nil` (and
  /// nothing consumed) for anything else, or within 17 bytes of the end, which leaves it to
  /// the byte-at-a-time path of ``readInt64()`` (that decides, and names any problem).
  @inline(__always) private mutating func readPlainInteger() -> Int64? {
    guard index + 17 <= bytes.count, let base = bytes.baseAddress else { return nil }
    let negative = base[index] == UInt8(ascii: "-")
    let first = negative ? index + 1 : index
    let word = UnsafeRawPointer(base + first).loadUnaligned(as: UInt64.self)
    let digits = Self.leadingDigitCount(word)
    guard digits > 0, digits == 1 || base[first] != UInt8(ascii: "0") else { return nil }
    var magnitude: UInt64
    var end: Int
    if digits < 8 {
      magnitude = Self.digitValue(word, count: digits)
      end = first + digits
    } else {
      let next = UnsafeRawPointer(base + first + 8).loadUnaligned(as: UInt64.self)
      let more = Self.leadingDigitCount(next)
      guard more < 8 else { return nil }
      magnitude = Self.digitValue(word, count: 8)
      if more > 0 {
        magnitude = magnitude &* Self.integerPowerOfTen(more) &+ Self.digitValue(next, count: more)
      }
      end = first + 8 + more
    }
    // end ≤ index + 16 < bytes.count: the byte after the digits is there.
    guard base[end] != UInt8(ascii: "."), base[end] | 0x20 != UInt8(ascii: "e") else {
      return nil
    }
    index = end
    // At most 15 digits: far inside Int64.
    return negative ? 0 - Int64(magnitude) : Int64(magnitude)
  }

  /// How many of `word`'s bytes, from its first (lowest) one, are ASCII digits (0–8). SWAR: a
  /// byte is a digit when its high nibble is 3 and adding 6 leaves it so; a carry out of a
  /// byte (one ≥ 0xFA) can only disturb the bytes after it, past the first non-digit.
  @inline(__always) static func leadingDigitCount(_ word: UInt64) -> Int {
    let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let threes: UInt64 = 0x3030_3030_3030_3030
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let bad = ((word & nibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
    // The high bit of each byte of `bad` that is not zero.
    let marks = (((bad & low) &+ low) | bad) & ~low
    return marks.trailingZeroBitCount >> 3
  }

  /// The value of the first `count` (1–8) bytes of `word`, ASCII digits, the first one the most
  /// significant: three multiplications instead of eight (the bytes past `count` are shifted
  /// out, and zeros, leading digits of no weight, shifted in).
  @inline(__always) static func digitValue(_ word: UInt64, count: Int) -> UInt64 {
    var v = (word &- 0x3030_3030_3030_3030) << UInt64(64 - 8 * count)
    // Pairs: the low byte of each 16-bit lane becomes 10 × its digit + the next one (≤ 99).
    v = v &* 10 &+ (v >> 8)
    // Then 10^6 × pair 0 + 10^4 × pair 1 + 100 × pair 2 + pair 3, in the high half.
    let pairs: UInt64 = 0x0000_00FF_0000_00FF
    let outer = (v & pairs) &* (100 &+ (1_000_000 << 32))
    let inner = ((v >> 16) & pairs) &* (1 &+ (10_000 << 32))
    return (outer &+ inner) >> 32
  }

  /// 10^k for 0 ≤ k ≤ 19 (a switch the compiler makes a constant table of: no lazy global).
  @inline(__always) static func integerPowerOfTen(_ k: Int) -> UInt64 {
    switch k {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    default: 10_000_000_000_000_000_000
    }
  }

  /// The common decimal, eight digits at a time: an optional `-`, 1–7 digits without a leading
  /// zero, optionally `.` and 1–15 digits, at most 19 digits in all, and no exponent; consumed
  /// and returned, correctly rounded as ``readDouble()``'s other paths are (so the value is the
  /// same whichever path reads it). `nil` (and nothing consumed) for anything else, or within
  /// 26 bytes of the end.
  @inline(__always) private mutating func readPlainDecimal() -> Double? {
    guard index + 26 <= bytes.count, let base = bytes.baseAddress else { return nil }
    let negative = base[index] == UInt8(ascii: "-")
    let first = negative ? index + 1 : index
    let word = UnsafeRawPointer(base + first).loadUnaligned(as: UInt64.self)
    let whole = Self.leadingDigitCount(word)
    guard whole > 0, whole < 8, whole == 1 || base[first] != UInt8(ascii: "0") else { return nil }
    var mantissa = Self.digitValue(word, count: whole)
    var end = first + whole
    var fraction = 0
    if base[end] == UInt8(ascii: ".") {
      let low = UnsafeRawPointer(base + end + 1).loadUnaligned(as: UInt64.self)
      fraction = Self.leadingDigitCount(low)
      guard fraction > 0 else { return nil }
      if fraction < 8 {
        mantissa =
          mantissa &* Self.integerPowerOfTen(fraction) &+ Self.digitValue(low, count: fraction)
      } else {
        let high = UnsafeRawPointer(base + end + 9).loadUnaligned(as: UInt64.self)
        let more = Self.leadingDigitCount(high)
        guard more < 8, whole + 8 + more <= 19 else { return nil }
        mantissa = mantissa &* 100_000_000 &+ Self.digitValue(low, count: 8)
        if more > 0 {
          mantissa = mantissa &* Self.integerPowerOfTen(more) &+ Self.digitValue(high, count: more)
        }
        fraction += more
      }
      end += 1 + fraction
    }
    // end ≤ index + 24 < bytes.count: the byte after the digits is there.
    guard base[end] | 0x20 != UInt8(ascii: "e") else { return nil }
    index = end
    let value: Double
    if mantissa < 1 << 53 {
      // Clinger's fast path: both operands exact, one correctly rounded division.
      value = Double(mantissa) / Self.powerOfTen(fraction)
    } else {
      // Above 2^53 there are more than 15 digits, so a fraction of at least 9 (at most 18).
      value = Self.quotient(mantissa, dividedByPowerOfTen: fraction)
    }
    return negative ? -value : value
  }

  /// Reads a number as a `Double`.
  mutating func readDouble() throws(Failure) -> Double {
    skipWhitespace()
    if let value = readPlainDecimal() { return value }
    let start = index
    var negative = false
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    try checkNoLeadingZero(at: index)
    var mantissa: UInt64 = 0
    var significant = 0
    var exponent = 0
    var sawDigit = false
    var leadingZeroRun = true
    while index < bytes.count, bytes[index] &- 0x30 < 10 {
      let digit = UInt64(bytes[index] &- 0x30)
      sawDigit = true
      if leadingZeroRun && digit == 0 {
      } else {
        leadingZeroRun = false
        if significant < 19 {
          mantissa = mantissa * 10 + digit
          significant += 1
        } else {
          exponent += 1
          significant += 1
        }
      }
      index += 1
    }
    guard sawDigit else { throw fail("expected a number") }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      var fractionDigits = 0
      while index < bytes.count, bytes[index] &- 0x30 < 10 {
        let digit = UInt64(bytes[index] &- 0x30)
        fractionDigits += 1
        if leadingZeroRun && digit == 0 {
          exponent -= 1
        } else {
          leadingZeroRun = false
          if significant < 19 {
            mantissa = mantissa * 10 + digit
            significant += 1
            exponent -= 1
          } else {
            significant += 1
          }
        }
        index += 1
      }
      guard fractionDigits > 0 else { throw fail("expected digits after '.'") }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      var exponentNegative = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        exponentNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      var explicit = 0
      var exponentDigits = 0
      while index < bytes.count, bytes[index] &- 0x30 < 10 {
        if explicit < 100_000 { explicit = explicit * 10 + Int(bytes[index] &- 0x30) }
        exponentDigits += 1
        index += 1
      }
      guard exponentDigits > 0 else { throw fail("expected exponent digits") }
      exponent += exponentNegative ? -explicit : explicit
    }
    // Clinger's fast path: both the mantissa and 10^|exponent| are exact doubles, so one
    // correctly rounded operation gives the correctly rounded result.
    if significant <= 15, exponent >= -22, exponent <= 22 {
      var value = Double(mantissa)
      if exponent < 0 {
        value /= Self.powerOfTen(-exponent)
      } else {
        value *= Self.powerOfTen(exponent)
      }
      return negative ? -value : value
    }
    // Up to 19 digits and a negative exponent down to -19 (the agent's f32-widened CPU
    // percentages have 17): an exact integer division, no string.
    if significant <= 19, exponent < 0, exponent >= -19, mantissa != 0 {
      let value = Self.quotient(mantissa, dividedByPowerOfTen: -exponent)
      return negative ? -value : value
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    // JSONDecoder refuses what overflows to infinity or underflows to zero (subnormals pass).
    guard let value = Double(text), value.isFinite, value != 0 || mantissa == 0 else {
      throw Failure(offset: start, reason: "number out of range")
    }
    return value
  }

  /// `numerator / 10^k`, correctly rounded (to nearest, ties to even), for `numerator > 0` and
  /// `1 ≤ k ≤ 19`: a 128-by-64-bit division that leaves a 64-bit quotient, whose top 53 bits are
  /// rounded using the dropped bits and whether the division was exact.
  static func quotient(_ numerator: UInt64, dividedByPowerOfTen k: Int) -> Double {
    let divisor = integerPowerOfTen(k)
    // Shift the numerator so the quotient has exactly 64 significant bits.
    var shift = 64 + (64 - divisor.leadingZeroBitCount) - (64 - numerator.leadingZeroBitCount) - 1
    var (q, r) = divide(numerator, shiftedBy: shift, by: divisor)
    if q < 1 << 63 {
      shift += 1
      (q, r) = divide(numerator, shiftedBy: shift, by: divisor)
    }
    var significand = q >> 11
    let dropped = q & 0x7FF
    if dropped > 0x400 || (dropped == 0x400 && (r != 0 || significand & 1 == 1)) {
      significand += 1
    }
    // significand < 2^54, so converting it is exact; scaling by a power of two is exact too.
    return Double(sign: .plus, exponent: 11 - shift, significand: Double(significand))
  }

  @inline(__always)
  private static func divide(_ value: UInt64, shiftedBy shift: Int, by divisor: UInt64)
    -> (UInt64, UInt64)
  {
    let high = shift == 0 ? 0 : (shift >= 64 ? value << (shift - 64) : value >> (64 - shift))
    let low = shift >= 64 ? 0 : value << shift
    return divisor.dividingFullWidth((high, low))
  }

  /// Reads a number, or `null` as NaN (serde writes non-finite floats as `null`).
  @inline(__always) mutating func readLenientDouble() throws(Failure) -> Double {
    if let value = readPlainDecimal() { return value }
    return try consumeNull() ? .nan : readDouble()
  }

  /// 10^k for 0 ≤ k ≤ 22, exact (below 2^53 · 2^22).
  @inline(__always) private static func powerOfTen(_ k: Int) -> Double {
    switch k {
    case 0: 1e0
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether these bytes spell `key` (a key literal of a stream message).
  @inline(__always) func equals(_ key: StaticString) -> Bool {
    let length = key.utf8CodeUnitCount
    guard count == length else { return false }
    guard let base = baseAddress else { return length == 0 }
    let other = key.utf8Start
    // Eight bytes at a time: keys are 2–24 bytes and compared once or twice each.
    var i = 0
    while i + 8 <= length {
      if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        != UnsafeRawPointer(other + i).loadUnaligned(as: UInt64.self)
      {
        return false
      }
      i += 8
    }
    while i < length {
      if base[i] != other[i] { return false }
      i += 1
    }
    return true
  }
}
