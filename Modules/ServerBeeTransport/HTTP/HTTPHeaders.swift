/// HTTP header fields keyed by lowercased name.
///
/// Names are lowercased on the way in, so lookups are case-insensitive and two requests that
/// differ only in header-name case compare equal:
///
/// ```swift
/// var headers = HTTPHeaders(["Authorization": "Bearer abc"])
/// headers["content-type"] = "application/json"
/// headers["AUTHORIZATION"]  // "Bearer abc"
/// ```
///
/// A name that appears more than once in a response is joined with `", "` (RFC 9110 §5.3).
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// The fields, keyed by lowercased name.
  public private(set) var fields: [String: String]

  /// Creates headers from a dictionary; names are lowercased.
  /// - Parameter fields: Header names and values.
  public init(_ fields: [String: String] = [:]) {
    self.fields = [:]
    for (name, value) in fields { self[name] = value }
  }

  /// Creates headers from a dictionary literal; names are lowercased.
  /// - Parameter elements: Header names and values.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.fields = [:]
    for (name, value) in elements { self[name] = value }
  }

  /// The value for a name (any case), or `nil`; setting `nil` removes the field.
  /// - Parameter name: The header name, in any case.
  public subscript(name: String) -> String? {
    get { fields[Self.key(name)] }
    set { fields[Self.key(name)] = newValue }
  }

  /// `name.lowercased()`, without making a new string for a name that is lowercase ASCII
  /// already (the names a program looks up, written in lowercase, and those parsed ones).
  private static func key(_ name: String) -> String {
    name.utf8.contains { $0 >= 0x80 || ($0 >= 0x41 && $0 <= 0x5A) } ? name.lowercased() : name
  }

  /// Makes room for `count` fields (a parser that knows how many lines it has).
  /// - Parameter count: The number of fields.
  package mutating func reserveCapacity(_ count: Int) {
    fields.reserveCapacity(count)
  }

  /// Adds a value, joining it with an existing one by `", "` (by `","` alone when `value` is
  /// empty, so that a joined value never ends in whitespace a parser would trim away).
  /// - Parameters:
  ///   - value: The value to add.
  ///   - name: The header name, in any case.
  public mutating func append(_ value: String, for name: String) {
    append(value, forLowercased: Self.key(name))
  }

  /// ``append(_:for:)`` for a name already lowercased (a parser that lowercases ASCII as it
  /// reads the name), without lowercasing it again.
  /// - Parameters:
  ///   - value: The value to add.
  ///   - key: The header name, lowercase.
  package mutating func append(_ value: String, forLowercased key: String) {
    if let existing = fields[key] {
      // `"a" + ", " + ""` would read back as `"a,"` (found by fuzz-http-request).
      fields[key] = value.isEmpty ? existing + "," : existing + ", " + value
    } else {
      fields[key] = value
    }
  }

  /// Iterates the fields as (lowercased name, value) pairs, in no particular order.
  /// - Returns: An iterator over the fields.
  public func makeIterator() -> Dictionary<String, String>.Iterator { fields.makeIterator() }
}
