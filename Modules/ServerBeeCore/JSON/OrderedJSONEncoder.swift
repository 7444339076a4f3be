#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON encoder that writes what the ServerBee server writes (Protocol/README.md §6): keys in the
/// order the `encode(to:)` implementation encodes them (declaration order for synthesised
/// conformances), optionals that are `nil` as `null` (never left out), whole floats with a decimal
/// point (`0.0`), `/` unescaped, non-ASCII as UTF-8, no whitespace.
///
/// A type whose key must be *omitted* when absent writes `if let value { encode(value, …) }`.
package final class OrderedJSONEncoder {
  indirect enum Node {
    case null
    case bool(Bool)
    case integer(String)
    case float(Double)
    case string(String)
    case array(Box)
    case object(Box)
  }

  /// A mutable container shared by an encoding container and its parent.
  final class Box {
    var elements: [Node] = []
    var keys: [String] = []
  }

  package static func encode(_ value: some Encodable) throws -> [UInt8] {
    let encoder = NodeEncoder(codingPath: [])
    try value.encode(to: encoder)
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(encoder.root ?? .null, into: &out)
    return out
  }

  static func write(_ node: Node, into out: inout [UInt8]) {
    switch node {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .integer(let text): out.append(contentsOf: text.utf8)
    case .float(let d): out.append(contentsOf: formatFloat(d).utf8)
    case .string(let s): writeString(s, into: &out)
    case .array(let box):
      out.append(UInt8(ascii: "["))
      for (i, element) in box.elements.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        write(element, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let box):
      out.append(UInt8(ascii: "{"))
      for i in box.keys.indices {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        writeString(box.keys[i], into: &out)
        out.append(UInt8(ascii: ":"))
        write(box.elements[i], into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// serde_json style: shortest round-trip digits, whole values with `.0`, exponents as `1e20`,
  /// non-finite as `null`.
  package static func formatFloat(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e16 {
      return (d == 0 && d.sign == .minus ? "-" : "") + String(Int64(d)) + ".0"
    }
    var text = "\(d)"
    // Most numbers have no exponent: found on the UTF-8 bytes, not by Character (grapheme
    // breaking per character was about a fifth of each float in a `full_sync`).
    guard text.utf8.contains(UInt8(ascii: "e")) else { return text }
    if let e = text.firstIndex(of: "e") {
      var mantissa = String(text[..<e])
      var exponent = String(text[text.index(after: e)...])
      if exponent.hasPrefix("+") { exponent.removeFirst() }
      var negative = false
      if exponent.hasPrefix("-") {
        negative = true
        exponent.removeFirst()
      }
      while exponent.count > 1, exponent.hasPrefix("0") { exponent.removeFirst() }
      if mantissa.hasSuffix(".0") { mantissa.removeLast(2) }
      text = mantissa + "e" + (negative ? "-" : "") + exponent
    }
    return text
  }

  package static func writeString(_ s: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escape: copied whole (the byte-at-a-time loop below cost the
    // simulator's `full_sync` about 1.7 k instructions per string).
    let copied =
      s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
          return false
        }
        out.append(contentsOf: bytes)
        return true
      } ?? false
    if copied {
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
      case 0x0A: out.append(contentsOf: #"\n"#.utf8)
      case 0x0D: out.append(contentsOf: #"\r"#.utf8)
      case 0x09: out.append(contentsOf: #"\t"#.utf8)
      case 0x08: out.append(contentsOf: #"\b"#.utf8)
      case 0x0C: out.append(contentsOf: #"\f"#.utf8)
      case 0x00..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: #"\u00"#.utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

private final class NodeEncoder: Encoder {
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var root: OrderedJSONEncoder.Node?

  init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let box: OrderedJSONEncoder.Box
    if case .object(let existing) = root {
      box = existing
    } else {
      box = OrderedJSONEncoder.Box()
      root = .object(box)
    }
    return KeyedEncodingContainer(KeyedNodeContainer<Key>(box: box, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let box: OrderedJSONEncoder.Box
    if case .array(let existing) = root {
      box = existing
    } else {
      box = OrderedJSONEncoder.Box()
      root = .array(box)
    }
    return UnkeyedNodeContainer(box: box, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(encoder: self)
  }
}

/// Turns one value into a node, using the fast paths for scalars.
private func node(for value: some Encodable, path: [any CodingKey]) throws
  -> OrderedJSONEncoder.Node
{
  switch value {
  case let v as String: return .string(v)
  case let v as Bool: return .bool(v)
  case let v as Double: return .float(v)
  case let v as Float: return .float(Double(v))
  case let v as Int: return .integer(String(v))
  case let v as Int64: return .integer(String(v))
  case let v as Int32: return .integer(String(v))
  case let v as UInt64: return .integer(String(v))
  case let v as UInt32: return .integer(String(v))
  case let v as UInt: return .integer(String(v))
  case let v as Int16: return .integer(String(v))
  case let v as UInt16: return .integer(String(v))
  case let v as Int8: return .integer(String(v))
  case let v as UInt8: return .integer(String(v))
  // `Data` as standard base64, the form `JSONDecoder` reads by default.
  case let v as Data: return .string(v.base64EncodedString())
  default:
    let encoder = NodeEncoder(codingPath: path)
    try value.encode(to: encoder)
    return encoder.root ?? .object(OrderedJSONEncoder.Box())
  }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: OrderedJSONEncoder.Box
  var codingPath: [any CodingKey]

  private func set(_ node: OrderedJSONEncoder.Node, _ key: Key) {
    if let existing = box.keys.firstIndex(of: key.stringValue) {
      box.elements[existing] = node
    } else {
      box.keys.append(key.stringValue)
      box.elements.append(node)
    }
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(.float(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(String(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    set(.integer(String(value)), key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try node(for: value, path: codingPath + [key]), key)
  }

  // Optionals: `nil` is written as `null`, as serde does for `Option` fields.
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { set(.null, key) }
  }
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { set(.bool(value), key) } else { set(.null, key) }
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { set(.string(value), key) } else { set(.null, key) }
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { set(.float(value), key) } else { set(.null, key) }
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { set(.integer(String(value)), key) } else { set(.null, key) }
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { set(.integer(String(value)), key) } else { set(.null, key) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = OrderedJSONEncoder.Box()
    set(.object(nested), key)
    return KeyedEncodingContainer(
      KeyedNodeContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = OrderedJSONEncoder.Box()
    set(.array(nested), key)
    return UnkeyedNodeContainer(box: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: AnyCodingKey("super"))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key)
  }

  private func superEncoder(named key: any CodingKey) -> any Encoder {
    let nested = OrderedJSONEncoder.Box()
    box.keys.append(key.stringValue)
    box.elements.append(.object(nested))
    let encoder = NodeEncoder(codingPath: codingPath + [key])
    encoder.root = .object(nested)
    return encoder
  }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let box: OrderedJSONEncoder.Box
  var codingPath: [any CodingKey]
  var count: Int { box.elements.count }

  mutating func encodeNil() throws { box.elements.append(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    box.elements.append(try node(for: value, path: codingPath + [AnyCodingKey("[\(count)]")]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = OrderedJSONEncoder.Box()
    box.elements.append(.object(nested))
    return KeyedEncodingContainer(
      KeyedNodeContainer<NestedKey>(box: nested, codingPath: codingPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = OrderedJSONEncoder.Box()
    box.elements.append(.array(nested))
    return UnkeyedNodeContainer(box: nested, codingPath: codingPath)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = NodeEncoder(codingPath: codingPath)
    let nested = OrderedJSONEncoder.Box()
    box.elements.append(.object(nested))
    encoder.root = .object(nested)
    return encoder
  }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
  let encoder: NodeEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil() throws { encoder.root = .null }
  mutating func encode(_ value: Bool) throws { encoder.root = .bool(value) }
  mutating func encode(_ value: String) throws { encoder.root = .string(value) }
  mutating func encode(_ value: Double) throws { encoder.root = .float(value) }
  mutating func encode(_ value: Int) throws { encoder.root = .integer(String(value)) }
  mutating func encode(_ value: Int64) throws { encoder.root = .integer(String(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    encoder.root = try node(for: value, path: codingPath)
  }
}
