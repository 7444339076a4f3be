/// Which of the two credential partitions a value lives in.
///
/// The groups are isolated from each other: the same ``CredentialKey`` in two groups names two
/// independent values, and ``CredentialStore/keys(in:)`` lists one group only.
///
/// - ``appPrivate`` holds everything only the app itself may read: access and refresh tokens,
///   revocation material, the offline-logout journal.
/// - ``sharedWithExtension`` holds the push content key and nothing else, because a notification
///   extension can read it. The extension never needs a bearer token.
///
/// The raw values are stored (SQLite column, Keychain service suffix) and authenticated as part of
/// each sealed value, so they never change.
public enum AccessGroup: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Readable by the app only: tokens, revocation material, the logout journal.
  case appPrivate = "app-private"
  /// Readable by the app and its notification extension: the push content key only.
  case sharedWithExtension = "shared"

  /// The raw value, for example `app-private`.
  public var description: String { rawValue }
}
