/// One key of a partial-update body that tells "leave it", "clear it" and "set it" apart:
/// the key left out, the key with `null`, the key with a value (Protocol/Servers.md §4.1).
///
/// A plain optional cannot say all three: `nil` is either "absent" or "null", never both. Encode
/// it with this module's `KeyedEncodingContainer.encode(_:forKey:)` for updates, which leaves
/// the key out for ``unchanged``.
///
/// ```swift
/// var edit = ServerUpdateRequest()
/// edit.price = .set(4.5)     // "price":4.5
/// edit.groupID = .clear      // "group_id":null
/// edit.currency = .unchanged // no "currency" key at all
/// ```
public enum FieldUpdate<Value: Sendable>: Sendable {
  /// Leave the field as it is: the key is left out.
  case unchanged
  /// Clear the field: the key is written with `null`.
  case clear
  /// Set the field: the key is written with the value.
  case set(Value)

  /// The update from an optional: `nil` clears, a value sets (never ``unchanged``).
  ///
  /// ```swift
  /// edit.currency = FieldUpdate(clearingWhenNil: typedCurrency)
  /// ```
  /// - Parameter value: The new value, or `nil` to clear.
  public init(clearingWhenNil value: Value?) {
    self = value.map(Self.set) ?? .clear
  }

  /// Whether the key is written at all (anything but ``unchanged``).
  public var isWritten: Bool {
    if case .unchanged = self { return false }
    return true
  }
}

extension FieldUpdate: Equatable where Value: Equatable {}
extension FieldUpdate: Hashable where Value: Hashable {}

extension KeyedEncodingContainer {
  /// Writes one ``FieldUpdate``: nothing for ``FieldUpdate/unchanged``, `null` for
  /// ``FieldUpdate/clear``, the value for ``FieldUpdate/set(_:)``.
  ///
  /// ```swift
  /// var c = encoder.container(keyedBy: AnyCodingKey.self)
  /// try c.encode(price, forKey: AnyCodingKey("price"))
  /// ```
  /// - Parameters:
  ///   - update: The update.
  ///   - key: The key.
  /// - Throws: Whatever the container throws.
  public mutating func encode<Value: Encodable & Sendable>(
    _ update: FieldUpdate<Value>, forKey key: Key
  ) throws {
    switch update {
    case .unchanged: return
    case .clear: try encodeNil(forKey: key)
    case .set(let value): try encode(value, forKey: key)
    }
  }
}
