import Foundation

/// One Keychain item query, in portable terms: what `KeychainCredentialStore` turns into a
/// `SecItem` dictionary (`kSecClassGenericPassword`, the data-protection Keychain).
///
/// The store's rules (which service and access group a slot uses, what a read, write, list or
/// rollback does with each status) live in ``KeychainItemStore`` over this shape, so they
/// build and are tested on Linux against a fake; the Apple file only translates.
struct KeychainItemQuery: Sendable, Hashable {
  /// `kSecAttrService`: `<service>.<group raw value>`.
  var service: String
  /// `kSecAttrAccessGroup`, or `nil` for the app's default group.
  var accessGroup: String?
  /// `kSecAttrAccount`: the key name; `nil` matches every item of the service.
  var account: String?
}

/// What a `SecItem` call answered, in portable terms.
enum KeychainStatus: Sendable, Hashable {
  case success
  case itemNotFound
  case duplicateItem
  /// `errSecInteractionNotAllowed` or `errSecNotAvailable`: before the first unlock.
  case unavailable
  case readOnly
  case diskFull
  /// Any other status, with the system's text for it.
  case other(Int32, String)
}

/// The four `SecItem` calls the store makes (Security's `SecItemCopyMatching`, `SecItemAdd`,
/// `SecItemUpdate`, `SecItemDelete`), shaped so a fake can stand in for the Keychain.
///
/// Every item written is accessible after the first unlock and on this device only
/// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`): that is the system adapter's part.
protocol KeychainItems: Sendable {
  /// The data of the one item that matches `query` (whose `account` is set).
  func copyData(_ query: KeychainItemQuery) -> (KeychainStatus, Data?)
  /// The accounts of every item that matches `query` (whose `account` is `nil`).
  func copyAccounts(_ query: KeychainItemQuery) -> (KeychainStatus, [String])
  /// Adds an item with `data`; `.duplicateItem` when one exists.
  func add(_ query: KeychainItemQuery, data: Data) -> KeychainStatus
  /// Replaces the data of the matching item; `.itemNotFound` when none exists.
  func update(_ query: KeychainItemQuery, data: Data) -> KeychainStatus
  /// Deletes the matching item; `.itemNotFound` when none exists.
  func delete(_ query: KeychainItemQuery) -> KeychainStatus
}
