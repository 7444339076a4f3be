import Foundation
import ServerBeeModels

/// The JSON a real ServerBee server accepts in a request body: RFC 8259 as `serde_json` reads
/// it, stricter than Foundation's `JSONDecoder` (which the simulator used alone before and which
/// let both of these through with 200).
///
/// - A body that is not exactly one JSON text is a syntax error: a UTF-8 byte order mark in
///   front, invalid UTF-8, a raw control character or a lone surrogate escape in a string,
///   non-JSON numbers or literals, anything but whitespace after the value, or nesting deeper
///   than `serde_json`'s recursion limit (127 levels).
/// - An object with the same key twice, compared after unescaping, at any depth, is a
///   duplicate field. `serde_json` reports one for a field the target type declares (and
///   ignores repeats of keys it does not know); the simulator refuses every repeat, since no
///   client has a reason to send one.
///
/// Both are checked in one pass with explicit depth, so a hostile body cannot exhaust the
/// stack (the body is at most ``Simulator/Configuration/maximumBodySize`` bytes anyway).
struct StrictJSON {
  /// Why a body was refused.
  enum Failure: Error, Equatable {
    /// Not one well-formed JSON text (axum: 400, "Failed to parse the request body as JSON").
    case syntax
    /// `key` appears twice in the object at `path` (`""` at the top, else like
    /// `preferences` or `items[2]`); axum: 422, the deserialisation message.
    case duplicateKey(path: String, key: String)
  }

  /// `serde_json`'s default recursion limit: the 128th nested array or object is an error.
  static let maximumDepth = 127

  private let bytes: [UInt8]
  private var index = 0
  /// Whether every number read so far is exact (see ``parse(_:)``).
  private var exact = true

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Checks a whole body.
  /// - Parameter data: The request body.
  /// - Throws: ``Failure``.
  static func check(_ data: Data) throws(Failure) {
    _ = try parse(data)
  }

  /// Checks a whole body and reads its value in the same pass.
  ///
  /// The value is the one `JSONDecoder` makes of the body as a ``JSONValue`` (objects keep
  /// their members in wire order), for every body whose numbers are all integers of at most
  /// 15 digits (exact as a `Double`, whatever the parser), `-0` excepted; for any other number
  /// this returns `nil` and the caller decodes the body with `JSONDecoder`, so such numbers
  /// keep exactly the meaning they had.
  /// - Parameter data: The request body.
  /// - Returns: The value, or `nil` when a number needs `JSONDecoder`.
  /// - Throws: ``Failure``.
  static func parse(_ data: Data) throws(Failure) -> JSONValue? {
    var reader = StrictJSON(Array(data))
    reader.skipWhitespace()
    let value = try reader.value(path: "", depth: 0)
    reader.skipWhitespace()
    guard reader.index == reader.bytes.count else { throw .syntax }
    return reader.exact ? value : nil
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      index += 1
    }
  }

  private mutating func expect(_ byte: UInt8) throws(Failure) {
    guard current == byte else { throw .syntax }
    index += 1
  }

  private mutating func value(path: String, depth: Int) throws(Failure) -> JSONValue {
    guard let byte = current else { throw .syntax }  // an empty body
    switch byte {
    case UInt8(ascii: "{"): return try object(path: path, depth: depth + 1)
    case UInt8(ascii: "["): return try array(path: path, depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw .syntax  // also a byte order mark (0xEF 0xBB 0xBF)
    }
  }

  /// Whether the value at the reader is an object or an array (the only values whose path a
  /// failure can name, so the only ones a path is written for).
  private var atContainer: Bool {
    current == UInt8(ascii: "{") || current == UInt8(ascii: "[")
  }

  private mutating func object(path: String, depth: Int) throws(Failure) -> JSONValue {
    guard depth <= Self.maximumDepth else { throw .syntax }
    try expect(UInt8(ascii: "{"))
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return .object([])
    }
    var members: [(key: String, value: JSONValue)] = []
    // Past a few members, a set finds a repeat faster than the list.
    var keys: Set<String>?
    while true {
      skipWhitespace()
      let key = try string()
      if keys == nil, members.count >= 8 { keys = Set(members.map(\.key)) }
      let repeated = keys.map { $0.contains(key) } ?? members.contains { $0.key == key }
      guard !repeated else { throw .duplicateKey(path: path, key: key) }
      keys?.insert(key)
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      let child = atContainer ? (path.isEmpty ? key : path + "." + key) : ""
      members.append((key, try value(path: child, depth: depth)))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw .syntax
      }
    }
  }

  private mutating func array(path: String, depth: Int) throws(Failure) -> JSONValue {
    guard depth <= Self.maximumDepth else { throw .syntax }
    try expect(UInt8(ascii: "["))
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .array([])
    }
    var elements: [JSONValue] = []
    while true {
      skipWhitespace()
      let child = atContainer ? "\(path)[\(elements.count)]" : ""
      elements.append(try value(path: child, depth: depth))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw .syntax
      }
    }
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count - index >= expected.count,
      bytes[index..<(index + expected.count)].elementsEqual(expected)
    else { throw .syntax }
    index += expected.count
  }

  private mutating func digits() throws(Failure) {
    guard let byte = current, (0x30...0x39).contains(byte) else { throw .syntax }
    while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
  }

  /// The number; an exact one (see ``parse(_:)``) as its value, any other as `0` with
  /// ``exact`` cleared.
  private mutating func number() throws(Failure) -> JSONValue {
    let start = index
    let negative = current == UInt8(ascii: "-")
    if negative { index += 1 }
    let integerStart = index
    if current == UInt8(ascii: "0") {
      index += 1  // no leading zeros: "01" ends the number here and fails after it
    } else {
      try digits()
    }
    let integerEnd = index
    var integral = true
    if current == UInt8(ascii: ".") {
      index += 1
      try digits()
      integral = false
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      try digits()
      integral = false
    }
    let count = integerEnd - integerStart
    guard integral, count <= 15, !(negative && index - start == 2 && bytes[integerStart] == 0x30)
    else {
      exact = false
      return .number(0)
    }
    var magnitude: Int64 = 0
    for position in integerStart..<integerEnd {
      magnitude = magnitude * 10 + Int64(bytes[position] &- 0x30)
    }
    return .number(Double(negative ? -magnitude : magnitude))
  }

  /// A string, unescaped (keys are compared by their value, as serde does).
  private mutating func string() throws(Failure) -> String {
    try expect(UInt8(ascii: "\""))
    var scalars = String.UnicodeScalarView()
    let start = index
    var run = index  // start of the bytes not yet copied
    func flush(_ end: Int) throws(Failure) {
      guard run < end else { return }
      guard let text = String(validating: bytes[run..<end], as: UTF8.self) else {
        throw .syntax
      }
      scalars.append(contentsOf: text.unicodeScalars)
    }
    while true {
      guard let byte = current else { throw .syntax }
      switch byte {
      case UInt8(ascii: "\""):
        if run == start {
          // No escape: the bytes are the string (the usual case, with no copy through
          // the scalar view).
          guard let text = String(validating: bytes[start..<index], as: UTF8.self) else {
            throw .syntax
          }
          index += 1
          return text
        }
        try flush(index)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flush(index)
        index += 1
        scalars.append(try escape())
        run = index
      case 0x00..<0x20:
        throw .syntax
      default:
        index += 1
      }
    }
  }

  /// The escape after a backslash.
  private mutating func escape() throws(Failure) -> Unicode.Scalar {
    guard let byte = current else { throw .syntax }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try hex4()
      switch first {
      case 0xD800...0xDBFF:
        // A high surrogate must be followed by an escaped low one.
        guard current == UInt8(ascii: "\\") else { throw .syntax }
        index += 1
        guard current == UInt8(ascii: "u") else { throw .syntax }
        index += 1
        let second = try hex4()
        guard (0xDC00...0xDFFF).contains(second),
          let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        else { throw .syntax }
        return scalar
      case 0xDC00...0xDFFF:
        throw .syntax
      default:
        guard let scalar = Unicode.Scalar(first) else { throw .syntax }
        return scalar
      }
    default: throw .syntax
    }
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    guard bytes.count - index >= 4 else { throw .syntax }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw .syntax
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }
}
