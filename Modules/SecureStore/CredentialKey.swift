internal import ServerBeeModels

/// The name of one stored value, unique within an ``AccessGroup``.
///
/// Modules declare their keys as constants, which keeps names in one place:
///
/// ```swift
/// extension CredentialKey {
///   static let refreshToken: CredentialKey = "auth.refresh-token"
/// }
/// ```
///
/// A valid name has 1 to ``maximumLength`` UTF-8 bytes and no control characters. Stores check
/// this on every call and throw ``SecureStoreError`` with code
/// `invalidKey` otherwise. Key names are not secret: they may appear in
/// error messages.
public struct CredentialKey: RawRepresentable, Hashable, Comparable, Sendable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The longest valid name, in UTF-8 bytes.
  public static let maximumLength = 256

  /// The name.
  public let rawValue: String

  /// Creates a key from its name; validity is checked when a store uses it.
  /// - Parameter rawValue: The name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Creates a key from its name; validity is checked when a store uses it.
  /// - Parameter rawValue: The name.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// Creates a key from a string literal.
  /// - Parameter value: The name.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// The name.
  public var description: String { rawValue }

  /// Orders keys by name.
  /// - Parameters:
  ///   - lhs: A key.
  ///   - rhs: Another key.
  /// - Returns: Whether `lhs` sorts before `rhs`.
  public static func < (lhs: CredentialKey, rhs: CredentialKey) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// Throws unless the name is valid.
  func validate() throws(SecureStoreError) {
    let length = rawValue.utf8.count
    guard length > 0, length <= Self.maximumLength else {
      throw SecureStoreError(
        .invalidKey, "a key name must have 1 to \(Self.maximumLength) UTF-8 bytes, not \(length)")
    }
    // Control characters (NUL in particular) are excluded so that the sealed-value AAD, which
    // joins group and name with NUL separators, is unambiguous.
    guard !rawValue.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw SecureStoreError(.invalidKey, "a key name must not contain control characters")
    }
  }
}
