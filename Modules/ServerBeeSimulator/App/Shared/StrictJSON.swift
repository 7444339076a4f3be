import Foundation

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

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Checks a whole body.
  /// - Parameter data: The request body.
  /// - Throws: ``Failure``.
  static func check(_ data: Data) throws(Failure) {
    var reader = StrictJSON(Array(data))
    reader.skipWhitespace()
    try reader.value(path: "", depth: 0)
    reader.skipWhitespace()
    guard reader.index == reader.bytes.count else { throw .syntax }
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

  private mutating func value(path: String, depth: Int) throws(Failure) {
    guard let byte = current else { throw .syntax }  // an empty body
    switch byte {
    case UInt8(ascii: "{"): try object(path: path, depth: depth + 1)
    case UInt8(ascii: "["): try array(path: path, depth: depth + 1)
    case UInt8(ascii: "\""): _ = try string()
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
    default: throw .syntax  // also a byte order mark (0xEF 0xBB 0xBF)
    }
  }

  private mutating func object(path: String, depth: Int) throws(Failure) {
    guard depth <= Self.maximumDepth else { throw .syntax }
    try expect(UInt8(ascii: "{"))
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return
    }
    var keys: Set<String> = []
    while true {
      skipWhitespace()
      let key = try string()
      guard keys.insert(key).inserted else { throw .duplicateKey(path: path, key: key) }
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      try value(path: path.isEmpty ? key : path + "." + key, depth: depth)
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return
      default: throw .syntax
      }
    }
  }

  private mutating func array(path: String, depth: Int) throws(Failure) {
    guard depth <= Self.maximumDepth else { throw .syntax }
    try expect(UInt8(ascii: "["))
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return
    }
    var element = 0
    while true {
      skipWhitespace()
      try value(path: "\(path)[\(element)]", depth: depth)
      element += 1
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return
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

  private mutating func number() throws(Failure) {
    if current == UInt8(ascii: "-") { index += 1 }
    if current == UInt8(ascii: "0") {
      index += 1  // no leading zeros: "01" ends the number here and fails after it
    } else {
      try digits()
    }
    if current == UInt8(ascii: ".") {
      index += 1
      try digits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      try digits()
    }
  }

  /// A string, unescaped (keys are compared by their value, as serde does).
  private mutating func string() throws(Failure) -> String {
    try expect(UInt8(ascii: "\""))
    var scalars = String.UnicodeScalarView()
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
