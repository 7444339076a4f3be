#if canImport(Security)
  public import Foundation
  internal import ServerBeeModels
  @preconcurrency internal import Security

  /// A ``CredentialStore`` in the Keychain of Apple platforms.
  ///
  /// Each value is a generic-password item (`kSecClassGenericPassword`) in the data-protection
  /// Keychain, accessible after the first unlock and only on this device
  /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`), so it is never part of a backup that
  /// can be restored elsewhere. The item's service is `<service>.<group raw value>` and its
  /// account is the key name.
  ///
  /// - ``AccessGroup/appPrivate`` items use the app's default Keychain access group, or
  ///   ``Configuration/appAccessGroup`` when set.
  /// - ``AccessGroup/sharedWithExtension`` items use ``Configuration/sharedAccessGroup`` as
  ///   `kSecAttrAccessGroup`, which the app and its notification extension both list in their
  ///   `keychain-access-groups` entitlement.
  ///
  /// This type and `SystemKeychainItems` are the only Apple-only code of the store, and have
  /// never been compiled in this repository's CI (Linux): they translate. The rules (services,
  /// access groups, statuses, rollback) are `KeychainItemStore`, tested on Linux.
  ///
  /// ```swift
  /// let store = KeychainCredentialStore(
  ///   configuration: .init(service: "dev.serverbee.app", sharedAccessGroup: "ABCDE12345.dev.serverbee.shared"))
  /// try store.setData(contentKey, forKey: "push.content-key", in: .sharedWithExtension)
  /// ```
  ///
  /// The Keychain has no transactions: ``commit(_:)`` reads the previous values first, applies
  /// the changes, and restores the previous values if a change fails. That restores the state
  /// after an error, but a process killed in the middle of a batch can leave it half applied.
  public struct KeychainCredentialStore: CredentialStore {
    /// Where the items live.
    public struct Configuration: Sendable, Hashable {
      /// The prefix of every item's `kSecAttrService`, for example the app's bundle identifier.
      public var service: String
      /// The Keychain access group shared with the notification extension, including the team
      /// prefix, for example `ABCDE12345.dev.serverbee.shared`.
      public var sharedAccessGroup: String
      /// The access group of app-private items; `nil` uses the app's default group.
      public var appAccessGroup: String?

      /// Creates a configuration.
      /// - Parameters:
      ///   - service: The prefix of every item's service attribute.
      ///   - sharedAccessGroup: The access group shared with the notification extension.
      ///   - appAccessGroup: The access group of app-private items, or `nil` for the default.
      public init(service: String, sharedAccessGroup: String, appAccessGroup: String? = nil) {
        self.service = service
        self.sharedAccessGroup = sharedAccessGroup
        self.appAccessGroup = appAccessGroup
      }
    }

    /// Where the items live.
    public let configuration: Configuration
    private let logic: KeychainItemStore

    /// Creates a store; nothing is read until the first call.
    /// - Parameter configuration: Where the items live.
    public init(configuration: Configuration) {
      self.configuration = configuration
      logic = KeychainItemStore(
        service: configuration.service, sharedAccessGroup: configuration.sharedAccessGroup,
        appAccessGroup: configuration.appAccessGroup, items: SystemKeychainItems())
    }

    /// Reads the value stored under a key.
    /// - Parameters:
    ///   - key: The key.
    ///   - group: The access group.
    /// - Returns: The value, or `nil` when none is stored.
    /// - Throws: ``SecureStoreError``: `unavailable` before the first
    ///   unlock, `storageFailed` for other Keychain statuses.
    public func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data? {
      try logic.data(forKey: key, in: group)
    }

    /// Lists the keys that hold a value in one group.
    /// - Parameter group: The access group.
    /// - Returns: The keys, sorted by name.
    /// - Throws: ``SecureStoreError``.
    public func keys(in group: AccessGroup) throws -> [CredentialKey] {
      try logic.keys(in: group)
    }

    /// Applies every change of a batch, restoring the previous values when one fails.
    /// - Parameter batch: The changes, applied in order.
    /// - Throws: ``SecureStoreError``; the previous values are then restored (best effort, see
    ///   the type's discussion).
    public func commit(_ batch: CredentialBatch) throws {
      try logic.commit(batch)
    }
  }

  /// ``KeychainItems`` on Security's `SecItem` functions: the dictionaries and the statuses.
  struct SystemKeychainItems: KeychainItems {
    func copyData(_ query: KeychainItemQuery) -> (KeychainStatus, Data?) {
      var dictionary = Self.dictionary(query)
      dictionary[kSecReturnData as String] = true
      dictionary[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(dictionary as CFDictionary, &result)
      return (Self.status(status), result as? Data)
    }

    func copyAccounts(_ query: KeychainItemQuery) -> (KeychainStatus, [String]) {
      var dictionary = Self.dictionary(query)
      dictionary[kSecReturnAttributes as String] = true
      dictionary[kSecMatchLimit as String] = kSecMatchLimitAll
      var result: CFTypeRef?
      let status = SecItemCopyMatching(dictionary as CFDictionary, &result)
      let items = result as? [[String: Any]] ?? []
      return (Self.status(status), items.compactMap { $0[kSecAttrAccount as String] as? String })
    }

    func add(_ query: KeychainItemQuery, data: Data) -> KeychainStatus {
      let dictionary = Self.dictionary(query).merging(Self.attributes(data)) { $1 }
      return Self.status(SecItemAdd(dictionary as CFDictionary, nil))
    }

    func update(_ query: KeychainItemQuery, data: Data) -> KeychainStatus {
      Self.status(
        SecItemUpdate(Self.dictionary(query) as CFDictionary, Self.attributes(data) as CFDictionary)
      )
    }

    func delete(_ query: KeychainItemQuery) -> KeychainStatus {
      Self.status(SecItemDelete(Self.dictionary(query) as CFDictionary))
    }

    private static func dictionary(_ query: KeychainItemQuery) -> [String: Any] {
      var dictionary: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: query.service,
        kSecUseDataProtectionKeychain as String: true,
      ]
      if let group = query.accessGroup { dictionary[kSecAttrAccessGroup as String] = group }
      if let account = query.account { dictionary[kSecAttrAccount as String] = account }
      return dictionary
    }

    private static func attributes(_ data: Data) -> [String: Any] {
      [
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
      ]
    }

    private static func status(_ status: OSStatus) -> KeychainStatus {
      switch status {
      case errSecSuccess: .success
      case errSecItemNotFound: .itemNotFound
      case errSecDuplicateItem: .duplicateItem
      case errSecInteractionNotAllowed, errSecNotAvailable: .unavailable
      case errSecReadOnly: .readOnly
      case errSecDiskFull: .diskFull
      default:
        .other(status, (SecCopyErrorMessageString(status, nil) as String?) ?? "Keychain error")
      }
    }
  }
#endif
