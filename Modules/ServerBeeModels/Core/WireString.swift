/// An enum-like string value that crosses the wire and must survive unknown values.
///
/// Servers keep adding values (new roles, new event types), so these are structs with static
/// constants rather than Swift enums: an unknown value decodes, compares and re-encodes unchanged.
///
/// ```swift
/// let role: UserRole = "auditor"   // unknown today, still decodes
/// if role == .admin { … }
/// ```
public protocol WireString: RawRepresentable, Codable, Hashable, Sendable,
  ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
  /// Creates a value from its wire text.
  init(rawValue: String)
}

extension WireString {
  /// Creates a value from a string literal.
  public init(stringLiteral value: String) { self.init(rawValue: value) }

  /// Decodes the wire string.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the wire string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The wire text.
  public var description: String { rawValue }
}
