/// A coding key made from any string, for open-ended objects.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
  /// The key text.
  public let stringValue: String
  /// Always `nil`: wire objects are keyed by strings.
  public var intValue: Int? { nil }
  /// Creates a key.
  public init(_ string: String) { self.stringValue = string }
  /// Creates a key.
  public init?(stringValue: String) { self.stringValue = stringValue }
  /// Array positions become `"[n]"`-less string keys.
  public init?(intValue: Int) { self.stringValue = String(intValue) }
}
