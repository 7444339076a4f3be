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

    /// Creates a store; nothing is read until the first call.
    /// - Parameter configuration: Where the items live.
    public init(configuration: Configuration) {
      self.configuration = configuration
    }

    /// Reads the value stored under a key.
    /// - Parameters:
    ///   - key: The key.
    ///   - group: The access group.
    /// - Returns: The value, or `nil` when none is stored.
    /// - Throws: ``SecureStoreError``: `unavailable` before the first
    ///   unlock, `storageFailed` for other Keychain statuses.
    public func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data? {
      try key.validate()
      return try read(CredentialSlot(key, in: group))
    }

    /// Lists the keys that hold a value in one group.
    /// - Parameter group: The access group.
    /// - Returns: The keys, sorted by name.
    /// - Throws: ``SecureStoreError``.
    public func keys(in group: AccessGroup) throws -> [CredentialKey] {
      var query = baseQuery(group)
      query[kSecReturnAttributes as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitAll
      var result: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      if status == errSecItemNotFound { return [] }
      guard status == errSecSuccess else { throw Self.error(status, "listing group '\(group)'") }
      guard let items = result as? [[String: Any]] else {
        throw SecureStoreError(.storageFailed, "listing group '\(group)': unexpected result type")
      }
      return items.compactMap { item -> CredentialKey? in
        (item[kSecAttrAccount as String] as? String).map { CredentialKey($0) }
      }.sorted()
    }

    /// Applies every change of a batch, restoring the previous values when one fails.
    /// - Parameter batch: The changes, applied in order.
    /// - Throws: ``SecureStoreError``; the previous values are then restored (best effort, see
    ///   the type's discussion).
    public func commit(_ batch: CredentialBatch) throws {
      try batch.validate()
      var previous: [CredentialSlot: Data?] = [:]
      for change in batch.changes where previous.index(forKey: change.slot) == nil {
        previous.updateValue(try read(change.slot), forKey: change.slot)
      }
      var touched: [CredentialSlot] = []
      do {
        for change in batch.changes {
          touched.append(change.slot)
          switch change {
          case .set(let data, _, _): try write(data, to: change.slot)
          case .remove: try delete(change.slot)
          case .add(let data, _, _):
            if try read(change.slot) == nil { try write(data, to: change.slot) }
          }
        }
      } catch {
        for slot in Set(touched) {
          guard let value = previous[slot] else { continue }
          if let value { try? write(value, to: slot) } else { try? delete(slot) }
        }
        throw error
      }
    }

    // MARK: - Items

    private func baseQuery(_ group: AccessGroup) -> [String: Any] {
      var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: "\(configuration.service).\(group.rawValue)",
        kSecUseDataProtectionKeychain as String: true,
      ]
      switch group {
      case .appPrivate:
        if let appAccessGroup = configuration.appAccessGroup {
          query[kSecAttrAccessGroup as String] = appAccessGroup
        }
      case .sharedWithExtension:
        query[kSecAttrAccessGroup as String] = configuration.sharedAccessGroup
      }
      return query
    }

    private func itemQuery(_ slot: CredentialSlot) -> [String: Any] {
      var query = baseQuery(slot.group)
      query[kSecAttrAccount as String] = slot.key.rawValue
      return query
    }

    private func read(_ slot: CredentialSlot) throws(SecureStoreError) -> Data? {
      var query = itemQuery(slot)
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      if status == errSecItemNotFound { return nil }
      guard status == errSecSuccess else { throw Self.error(status, "reading '\(slot.key)'") }
      guard let data = result as? Data else {
        throw SecureStoreError(.storageFailed, "reading '\(slot.key)': unexpected result type")
      }
      return data
    }

    private func write(_ data: Data, to slot: CredentialSlot) throws(SecureStoreError) {
      let query = itemQuery(slot)
      let attributes: [String: Any] = [
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
      ]
      var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
      if status == errSecItemNotFound {
        status = SecItemAdd(query.merging(attributes) { $1 } as CFDictionary, nil)
        // Another process (the extension) added the item in between: update it instead.
        if status == errSecDuplicateItem {
          status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        }
      }
      guard status == errSecSuccess else { throw Self.error(status, "writing '\(slot.key)'") }
    }

    private func delete(_ slot: CredentialSlot) throws(SecureStoreError) {
      let status = SecItemDelete(itemQuery(slot) as CFDictionary)
      guard status == errSecSuccess || status == errSecItemNotFound else {
        throw Self.error(status, "removing '\(slot.key)'")
      }
    }

    private static func error(_ status: OSStatus, _ operation: String) -> SecureStoreError {
      let text = (SecCopyErrorMessageString(status, nil) as String?) ?? "Keychain error"
      let message = "\(operation): \(text) (OSStatus \(status))"
      switch status {
      case errSecInteractionNotAllowed, errSecNotAvailable:
        return SecureStoreError(.unavailable, message)
      case errSecReadOnly:
        return SecureStoreError(.readOnly, message)
      case errSecDiskFull:
        return SecureStoreError(.diskFull, message)
      default:
        return SecureStoreError(.storageFailed, message)
      }
    }
  }
#endif
