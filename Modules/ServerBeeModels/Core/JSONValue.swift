/// Any JSON value, for payloads the contract leaves open (error `details`, Docker stats,
/// IP-quality results) and for messages of unknown types.
///
/// Objects built in code keep their key order when encoded with ``WireJSON``. Decoding keeps the
/// order the platform's `JSONDecoder` reports, which is not always the wire order, so equality
/// compares objects by their members regardless of order.
///
/// ```swift
/// let value = try WireJSON.decode(JSONValue.self, from: Data(#"{"a":[1,true,null]}"#.utf8))
/// value["a"]?[0] // .number(1)
/// ```
public enum JSONValue: Sendable, Hashable, Codable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number. Integers up to 2^53 are exact.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, keys in wire order.
  case object([(key: String, value: JSONValue)])

  /// The member named `key`, if this is an object that has it.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The element at `index`, if this is an array long enough.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The string, if this is a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// Compares structurally; object members are compared regardless of their order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      let lookup = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
      return a.allSatisfy { lookup[$0.key] == $0.value }
    default: return false
    }
  }

  /// Hashes structurally.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .number(let n): hasher.combine(n)
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let members):
      // Order-independent, to agree with ==.
      hasher.combine(members.count)
      for key in members.map(\.key).sorted() { hasher.combine(key) }
    }
  }

  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: AnyCodingKey.self) {
      var members: [(key: String, value: JSONValue)] = []
      for key in keyed.allKeys {
        members.append((key.stringValue, try keyed.decode(JSONValue.self, forKey: key)))
      }
      self = .object(members)
    } else if var unkeyed = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(JSONValue.self)) }
      self = .array(elements)
    } else {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let b = try? single.decode(Bool.self) {
        self = .bool(b)
      } else if let n = try? single.decode(Double.self) {
        self = .number(n)
      } else {
        self = .string(try single.decode(String.self))
      }
    }
  }

  /// Encodes the value; objects keep their key order with ``WireJSON``.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var c = encoder.singleValueContainer()
      try c.encodeNil()
    case .bool(let b):
      var c = encoder.singleValueContainer()
      try c.encode(b)
    case .number(let n):
      var c = encoder.singleValueContainer()
      if n.rounded() == n, abs(n) < 9_007_199_254_740_992 {
        try c.encode(Int64(n))
      } else {
        try c.encode(n)
      }
    case .string(let s):
      var c = encoder.singleValueContainer()
      try c.encode(s)
    case .array(let elements):
      var c = encoder.unkeyedContainer()
      for element in elements { try c.encode(element) }
    case .object(let members):
      var c = encoder.container(keyedBy: AnyCodingKey.self)
      for member in members { try c.encode(member.value, forKey: AnyCodingKey(member.key)) }
    }
  }
}
