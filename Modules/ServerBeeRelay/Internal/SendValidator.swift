import ServerBeeModels

/// The schema of `POST /v1/send` (Protocol/Relay.md), as a pure function of the body bytes.
///
/// Strict like the upstream Worker: a UTF-8 JSON object with exactly five keys, an envelope with
/// exactly five keys, lowercase hex and UUIDs, canonical standard base64 with the byte counts
/// of Protocol/Push.md §3.5, and a positive safe integer `expires_at`. The time checks
/// (`expires_at` against now) are not here: they need the clock and come after the environment
/// check.
///
/// Hand-written for the one shape it accepts instead of decoding any JSON first (the
/// `JSONDecoder` path cost about 340 k instructions a body, this one a few thousand). It reads
/// the bytes once, never recurses beyond the envelope, and gives up at the first byte that
/// cannot be part of a valid body, so its work is bounded by the body size (at most 8 KiB by
/// the time it runs). What a valid body can contain makes it simple and still exact:
/// - every string it keeps is ASCII (hex, UUIDs, base64, `sandbox`/`production`, the ten key
///   names), so any byte over 0x7F, and any escape of a character over U+007F, makes the body
///   invalid wherever it is (invalid UTF-8 included);
/// - every value has one allowed type, so a value of any other type ends the check at once
///   without reading it (the body is refused whatever follows);
/// - numbers follow RFC 8259's grammar and are read as a `Double`, as `JSONDecoder` reads them,
///   so `1800000000.0` and `18e8` are the same `expires_at` and `1.0` is version 1;
/// - what `JSONDecoder` tolerates beyond RFC 8259 is tolerated too, so that no body the relay
///   accepted before is refused now: one leading byte order mark, and a comma before `}`.
/// It agrees with ``ReferenceSendValidator`` (the former `JSONDecoder` check) on every body
/// but one with a repeated key, which only this one refuses (see there).
enum SendValidator {
  /// 2^53 − 1, the largest safe integer (JavaScript's `Number.MAX_SAFE_INTEGER`).
  static let maximumSafeInteger: Int64 = 9_007_199_254_740_991
  static let requestKeys: Set<String> = [
    "device_token", "environment", "event_id", "expires_at", "envelope",
  ]
  static let envelopeKeys: Set<String> = ["version", "key_id", "identity", "nonce", "ciphertext"]

  /// Parses and checks a body; `nil` when it breaks any rule (→ 400 `InvalidRequest`).
  static func parse(_ body: [UInt8]) -> RelaySendRequest? {
    body.withUnsafeBufferPointer { bytes in
      var reader = SendBodyReader(bytes: bytes)
      return reader.request()
    }
  }

  /// Lowercase hex, even length, 2–1024 characters.
  static func isDeviceToken(_ text: String) -> Bool {
    let count = text.utf8.count
    return (2...1024).contains(count) && count % 2 == 0 && isLowercaseHex(text)
  }

  static func isLowercaseHex(_ text: String) -> Bool {
    isLowercaseHex(text.utf8)
  }

  static func isLowercaseHex(_ bytes: some Sequence<UInt8>) -> Bool {
    bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase hex, any version.
  static func isLowercaseUUID(_ text: String) -> Bool {
    Array(text.utf8).withUnsafeBufferPointer(isLowercaseUUID)
  }

  static func isLowercaseUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == 36 else { return false }
    for index in 0..<36 {
      let byte = bytes[index]
      if index == 8 || index == 13 || index == 18 || index == 23 {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard (48...57).contains(byte) || (97...102).contains(byte) else { return false }
      }
    }
    return true
  }

  /// The decoded length of canonical standard base64: padded to a multiple of 4, only the
  /// standard alphabet, `=` only as the last one or two characters, and zero pad bits (what
  /// decoding and encoding again gives back unchanged); `nil` otherwise.
  static func canonicalBase64Length(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer(canonicalBase64Length)
  }

  static func canonicalBase64Length(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let count = bytes.count
    guard count % 4 == 0 else { return nil }
    guard count > 0 else { return 0 }
    var padding = 0
    if bytes[count - 1] == UInt8(ascii: "=") {
      padding = bytes[count - 2] == UInt8(ascii: "=") ? 2 : 1
    }
    let data = count - padding
    let valid = base64Table.withUnsafeBufferPointer { table in
      var invalid: UInt8 = 0
      for index in 0..<data { invalid |= table[Int(bytes[index])] }
      return invalid & 0x80 == 0
    }
    guard valid else { return nil }
    // The last data character carries 2 (one `=`) or 4 (two) bits that must be zero.
    if padding > 0, let last = base64Value(bytes[data - 1]) {
      let mask: UInt8 = padding == 1 ? 0b11 : 0b1111
      guard last & mask == 0 else { return nil }
    }
    return count / 4 * 3 - padding
  }

  /// Each byte's base64 value, or 0xFF outside the standard alphabet.
  private static let base64Table: [UInt8] = (0...255).map { base64Value(UInt8($0)) ?? 0xFF }

  static func base64Value(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 65...90: return byte - 65
    case 97...122: return byte - 71
    case 48...57: return byte + 4
    case UInt8(ascii: "+"): return 62
    case UInt8(ascii: "/"): return 63
    default: return nil
    }
  }
}

/// One pass over a `/v1/send` body; each method consumes what it read, and `nil` or `false`
/// means the body is invalid (the reader is not used again).
private struct SendBodyReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// A string as read: where its bytes are in the body when it has no escape (nearly always:
  /// nothing is copied), or its bytes with the escapes decoded.
  enum Text {
    case span(Range<Int>)
    case decoded([UInt8])
  }

  // The keys, by the bit that marks them as seen.
  private static let requestKeys: [(name: [UInt8], bit: UInt8)] = [
    (Array("device_token".utf8), 1), (Array("environment".utf8), 2),
    (Array("event_id".utf8), 4), (Array("expires_at".utf8), 8), (Array("envelope".utf8), 16),
  ]
  private static let envelopeKeys: [(name: [UInt8], bit: UInt8)] = [
    (Array("version".utf8), 1), (Array("key_id".utf8), 2), (Array("identity".utf8), 4),
    (Array("nonce".utf8), 8), (Array("ciphertext".utf8), 16),
  ]

  /// The bytes of a string read before.
  func withBytes<Result>(_ text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    switch text {
    case .span(let range): return body(UnsafeBufferPointer(rebasing: bytes[range]))
    case .decoded(let value): return value.withUnsafeBufferPointer(body)
    }
  }

  func makeString(_ text: Text) -> String {
    withBytes(text) { String(decoding: $0, as: UTF8.self) }
  }

  /// Reads a string and checks its bytes; `nil` when there is no string or the check fails.
  mutating func string(where isValid: (UnsafeBufferPointer<UInt8>) -> Bool) -> Text? {
    guard let text = string(), withBytes(text, isValid) else { return nil }
    return text
  }

  mutating func request() -> RelaySendRequest? {
    // One UTF-8 byte order mark first is skipped, as `JSONDecoder` does.
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    var token = Text.span(0..<0)
    var environment: PushEnvironment?
    var eventID = Text.span(0..<0)
    var expiresAt: Int64 = 0
    var envelope: PushEnvelope?
    let complete = object(keys: Self.requestKeys) { reader, bit in
      switch bit {
      case 1:
        guard
          let value = reader.string(where: {
            (2...1024).contains($0.count) && $0.count % 2 == 0 && SendValidator.isLowercaseHex($0)
          })
        else { return false }
        token = value
      case 2:
        guard let value = reader.string() else { return false }
        if reader.withBytes(value, { $0.elementsEqual("sandbox".utf8) }) {
          environment = .sandbox
        } else if reader.withBytes(value, { $0.elementsEqual("production".utf8) }) {
          environment = .production
        } else {
          return false
        }
      case 4:
        guard let value = reader.string(where: SendValidator.isLowercaseUUID) else {
          return false
        }
        eventID = value
      case 8:
        guard let number = reader.number(), number.isFinite, number.rounded() == number,
          number >= 1, number <= Double(SendValidator.maximumSafeInteger)
        else { return false }
        expiresAt = Int64(number)
      default:
        guard let value = reader.envelope() else { return false }
        envelope = value
      }
      return true
    }
    skipWhitespace()
    guard complete, index == bytes.count, let environment, let envelope else { return nil }
    return RelaySendRequest(
      deviceToken: makeString(token), environment: environment, eventID: makeString(eventID),
      expiresAt: expiresAt, envelope: envelope)
  }

  private mutating func envelope() -> PushEnvelope? {
    var keyID = Text.span(0..<0)
    var identity = Text.span(0..<0)
    var nonce = Text.span(0..<0)
    var ciphertext = Text.span(0..<0)
    let complete = object(keys: Self.envelopeKeys) { reader, bit in
      switch bit {
      case 1:
        guard reader.number() == 1 else { return false }
      case 2:
        guard let value = reader.string(where: SendValidator.isLowercaseUUID) else {
          return false
        }
        keyID = value
      case 4:
        guard
          let value = reader.string(where: {
            $0.count == 64 && SendValidator.isLowercaseHex($0)
          })
        else { return false }
        identity = value
      case 8:
        guard
          let value = reader.string(where: { SendValidator.canonicalBase64Length($0) == 12 })
        else { return false }
        nonce = value
      default:
        guard
          let value = reader.string(where: {
            guard $0.count <= 2760, let length = SendValidator.canonicalBase64Length($0) else {
              return false
            }
            return (16...2070).contains(length)
          })
        else { return false }
        ciphertext = value
      }
      return true
    }
    guard complete else { return nil }
    return PushEnvelope(
      version: 1, keyID: makeString(keyID), identity: makeString(identity),
      nonce: makeString(nonce), ciphertext: makeString(ciphertext))
  }

  /// An object with exactly `keys`, each once, in any order; `value` reads and checks the value
  /// of the key with that bit.
  private mutating func object(
    keys: [(name: [UInt8], bit: UInt8)], value: (inout SendBodyReader, UInt8) -> Bool
  ) -> Bool {
    guard take(UInt8(ascii: "{")) else { return false }
    var seen: UInt8 = 0
    while true {
      guard let name = string(),
        let bit = withBytes(
          name, { name in keys.first(where: { $0.name.elementsEqual(name) })?.bit }),
        seen & bit == 0, take(UInt8(ascii: ":"))
      else { return false }
      seen |= bit
      skipWhitespace()
      guard value(&self, bit) else { return false }
      if take(UInt8(ascii: ",")) {
        // `JSONDecoder` takes a comma before the closing brace, so the relay always has.
        if take(UInt8(ascii: "}")) { return seen == 0b11111 }
        continue
      }
      return take(UInt8(ascii: "}")) && seen == 0b11111
    }
  }

  /// Skips JSON whitespace, then consumes `byte` if it comes next.
  private mutating func take(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// A string of ASCII characters, escapes decoded; `nil` when the next token is not a string,
  /// is malformed, or holds a character outside ASCII (no such string is valid here).
  mutating func string() -> Text? {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    index += 1
    let start = index
    // The common case: no escape, so the bytes are the string; eight at a time up to the
    // first byte that is not printable ASCII or is a quote or a backslash.
    index += PlainText.plainASCIIRun(in: UnsafeRawBufferPointer(bytes), from: index)
    guard index < bytes.count else { return nil }
    if bytes[index] == UInt8(ascii: "\"") {
      index += 1
      return .span(start..<(index - 1))
    }
    guard bytes[index] == UInt8(ascii: "\\") else { return nil }
    var value = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return .decoded(value)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { return nil }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): value.append(escape)
        case UInt8(ascii: "b"): value.append(0x08)
        case UInt8(ascii: "f"): value.append(0x0C)
        case UInt8(ascii: "n"): value.append(0x0A)
        case UInt8(ascii: "r"): value.append(0x0D)
        case UInt8(ascii: "t"): value.append(0x09)
        case UInt8(ascii: "u"):
          guard index + 4 <= bytes.count else { return nil }
          var scalar: UInt32 = 0
          for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[index]) else { return nil }
            scalar = scalar << 4 | UInt32(digit)
            index += 1
          }
          // Beyond ASCII (surrogates included): not part of any valid body.
          guard scalar < 0x80 else { return nil }
          value.append(UInt8(scalar))
        default:
          return nil
        }
      default:
        guard byte >= 0x20, byte < 0x80 else { return nil }
        value.append(byte)
      }
    }
    return nil
  }

  /// A number by RFC 8259's grammar, read as the nearest `Double`; `nil` when the next token is
  /// not one.
  private mutating func number() -> Double? {
    skipWhitespace()
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, Self.isDigit(bytes[index]) else { return nil }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, Self.isDigit(bytes[index]) else { return nil }
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, Self.isDigit(bytes[index]) else { return nil }
      skipDigits()
    }
    return Double(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private mutating func skipDigits() {
    while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: return byte - 48
    case 65...70: return byte - 55
    case 97...102: return byte - 87
    default: return nil
    }
  }
}
