import Foundation

/// A JSON value that keeps what a shape comparison needs and `JSONValue` does not promise:
/// object keys in wire order and numbers as written. Parsed here, not by Foundation, so the
/// key order of a fixture or an answer is the order of its bytes.
indirect enum OrderedJSON: Equatable {
  case null
  case bool(Bool)
  /// The number's literal text.
  case number(String)
  case string(String)
  case array([OrderedJSON])
  case object([(key: String, value: OrderedJSON)])

  static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
    default: return false
    }
  }

  /// The member named `key` of an object.
  subscript(key: String) -> OrderedJSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The keys of an object, in order; empty for anything else.
  var keys: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.key)
  }

  /// The elements of an array; `nil` for anything else.
  var elements: [OrderedJSON]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }

  /// The string, if this is one.
  var stringValue: String? {
    guard case .string(let text) = self else { return nil }
    return text
  }

  /// Compact JSON text, keys in order, numbers as they were written.
  var text: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .number(let literal): return literal
    case .string(let value): return Self.quoted(value)
    case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
    case .object(let members):
      return "{"
        + members.map { Self.quoted($0.key) + ":" + $0.value.text }
        .joined(separator: ",") + "}"
    }
  }

  private static func quoted(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// A syntax error, with the byte offset.
  struct SyntaxError: Error, CustomStringConvertible {
    var offset: Int
    var description: String { "invalid JSON at byte \(offset)" }
  }

  /// Parses one JSON text (trailing whitespace allowed).
  static func parse(_ data: Data) throws -> OrderedJSON {
    var parser = Parser(bytes: Array(data))
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else { throw SyntaxError(offset: parser.index) }
    return value
  }

  static func parse(_ text: String) throws -> OrderedJSON { try parse(Data(text.utf8)) }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func expect(_ literal: String) throws {
      for byte in literal.utf8 {
        guard index < bytes.count, bytes[index] == byte else { throw SyntaxError(offset: index) }
        index += 1
      }
    }

    mutating func value() throws -> OrderedJSON {
      skipWhitespace()
      guard index < bytes.count else { throw SyntaxError(offset: index) }
      switch bytes[index] {
      case UInt8(ascii: "n"):
        try expect("null")
        return .null
      case UInt8(ascii: "t"):
        try expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expect("false")
        return .bool(false)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "["):
        index += 1
        var elements: [OrderedJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(elements)
        }
        while true {
          elements.append(try value())
          skipWhitespace()
          guard index < bytes.count else { throw SyntaxError(offset: index) }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
          } else if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
          } else {
            throw SyntaxError(offset: index)
          }
        }
      case UInt8(ascii: "{"):
        index += 1
        var members: [(key: String, value: OrderedJSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        }
        while true {
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw SyntaxError(offset: index)
          }
          let key = try string()
          skipWhitespace()
          try expect(":")
          members.append((key, try value()))
          skipWhitespace()
          guard index < bytes.count else { throw SyntaxError(offset: index) }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
          } else if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
          } else {
            throw SyntaxError(offset: index)
          }
        }
      default:
        return .number(try number())
      }
    }

    mutating func number() throws -> String {
      let start = index
      let allowed = Set("+-0123456789.eE".utf8)
      while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
      let literal = String(decoding: bytes[start..<index], as: UTF8.self)
      guard !literal.isEmpty, Double(literal) != nil else { throw SyntaxError(offset: start) }
      return literal
    }

    mutating func string() throws -> String {
      index += 1
      var scalars = String.UnicodeScalarView()
      var run: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        run.removeAll()
      }
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          flush()
          return String(scalars)
        case UInt8(ascii: "\\"):
          flush()
          guard index < bytes.count else { throw SyntaxError(offset: index) }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""): scalars.append("\"")
          case UInt8(ascii: "\\"): scalars.append("\\")
          case UInt8(ascii: "/"): scalars.append("/")
          case UInt8(ascii: "b"): scalars.append("\u{08}")
          case UInt8(ascii: "f"): scalars.append("\u{0C}")
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code) {
              try expect("\\u")
              let low = try hex4()
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw SyntaxError(offset: index) }
            scalars.append(scalar)
          default: throw SyntaxError(offset: index)
          }
        default:
          guard byte >= 0x20 else { throw SyntaxError(offset: index - 1) }
          run.append(byte)
        }
      }
      throw SyntaxError(offset: index)
    }

    mutating func hex4() throws -> UInt32 {
      guard index + 4 <= bytes.count,
        let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
      else { throw SyntaxError(offset: index) }
      index += 4
      return value
    }
  }
}
