public import Foundation
internal import ServerBeeModels

/// A list of sets and removals that a ``CredentialStore`` applies all-or-nothing.
///
/// Use a batch whenever two changes must not be seen apart, for example saving a new login
/// record while clearing the journal entry of the logout it replaces:
///
/// ```swift
/// var batch = CredentialBatch()
/// try batch.setValue(record, forKey: "auth.login", in: .appPrivate)
/// batch.removeValue(forKey: "auth.logout-journal", in: .appPrivate)
/// try store.commit(batch)
/// ```
///
/// Changes apply in order, so when one key appears twice the later change wins. If
/// ``CredentialStore/commit(_:)`` throws, no change of the batch is visible.
public struct CredentialBatch: Sendable, Hashable {
  /// The largest value a store accepts, in bytes: 1 MiB.
  ///
  /// Credentials are small; the limit bounds memory and keeps a corrupt caller from filling
  /// the disk.
  public static let maximumValueSize = 1 << 20

  /// One change in a batch.
  public enum Change: Sendable, Hashable {
    /// Stores `data` under `key` in `group`, replacing any previous value.
    case set(Data, key: CredentialKey, group: AccessGroup)
    /// Removes the value under `key` in `group`; removing a missing value is not an error.
    case remove(key: CredentialKey, group: AccessGroup)
    /// Stores the bytes only when the key holds no value yet; a stored value stays as it is (not
    /// an error). Two processes adding at once end with one value: the first one committed.
    case add(Data, key: CredentialKey, group: AccessGroup)
  }

  /// The changes, in the order they apply.
  public private(set) var changes: [Change]

  /// Creates a batch.
  /// - Parameter changes: The changes, in the order they apply.
  public init(_ changes: [Change] = []) { self.changes = changes }

  /// Whether the batch has no change.
  public var isEmpty: Bool { changes.isEmpty }

  /// Adds a change that stores raw bytes.
  /// - Parameters:
  ///   - data: The value.
  ///   - key: The key.
  ///   - group: The access group.
  public mutating func setData(_ data: Data, forKey key: CredentialKey, in group: AccessGroup) {
    changes.append(.set(data, key: key, group: group))
  }

  /// Adds a change that stores a value encoded as JSON (see ``CredentialStore/setValue(_:forKey:in:)``
  /// for the encoding).
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  ///   - group: The access group.
  /// - Throws: ``SecureStoreError`` with code `encodingFailed`.
  public mutating func setValue(
    _ value: some Encodable, forKey key: CredentialKey, in group: AccessGroup
  ) throws {
    changes.append(.set(try CredentialCoding.encode(value, key: key), key: key, group: group))
  }

  /// Adds a change that removes a value.
  /// - Parameters:
  ///   - key: The key.
  ///   - group: The access group.
  public mutating func removeValue(forKey key: CredentialKey, in group: AccessGroup) {
    changes.append(.remove(key: key, group: group))
  }

  /// Checks every key and value against the limits every store enforces.
  ///
  /// Stores call this before applying anything; a custom ``CredentialStore`` should too.
  /// - Throws: ``SecureStoreError`` with code `invalidKey` or `valueTooLarge`.
  public func validate() throws {
    try checkLimits()
  }

  func checkLimits() throws(SecureStoreError) {
    for change in changes {
      switch change {
      case .set(let data, let key, _), .add(let data, let key, _):
        try key.checkName()
        guard data.count <= Self.maximumValueSize else {
          throw SecureStoreError(
            .valueTooLarge,
            "the value for '\(key)' has \(data.count) bytes; the limit is \(Self.maximumValueSize)")
        }
      case .remove(let key, _):
        try key.checkName()
      }
    }
  }
}

/// One place a value can live: a key in a group.
/// Where one value lives: a key in an access group.
///
/// `AuthClient.Configuration.loginScopedValues` lists the slots that belong to one login and
/// go with it:
///
/// ```swift
/// let testInFlight = CredentialSlot("serverbee_pending_test_push", in: .appPrivate)
/// ```
public struct CredentialSlot: Sendable, Hashable {
  /// The key.
  public var key: CredentialKey
  /// The access group.
  public var group: AccessGroup

  /// Names a slot.
  /// - Parameters:
  ///   - key: The key.
  ///   - group: The access group.
  public init(_ key: CredentialKey, in group: AccessGroup) {
    self.key = key
    self.group = group
  }
}

extension CredentialBatch.Change {
  /// The place this change touches.
  var slot: CredentialSlot {
    switch self {
    case .set(_, let key, let group), .remove(let key, let group), .add(_, let key, let group):
      return CredentialSlot(key, in: group)
    }
  }
}
