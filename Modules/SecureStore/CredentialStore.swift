public import Foundation
internal import ServerBeeModels

/// Stores credentials at rest: values by key, in two isolated ``AccessGroup``s.
///
/// Implementations:
/// - ``InMemoryCredentialStore``: tests and previews.
/// - ``EncryptedSQLiteCredentialStore``: Linux, command-line tools and servers; every value is
///   sealed with AES-256-GCM under a master key.
/// - `KeychainCredentialStore`: Apple platforms (only compiled where `Security` exists).
///
/// ```swift
/// let store = try EncryptedSQLiteCredentialStore(directory: home)
/// try store.setValue(login, forKey: "auth.login", in: .appPrivate)
/// let restored = try store.value(LoginRecord.self, forKey: "auth.login", in: .appPrivate)
/// ```
///
/// ### Synchronous on purpose
///
/// The methods are synchronous `throws` functions, not `async`. Callers are actors (the auth
/// client, the preferences client), and a synchronous call keeps the actor's state and the stored
/// state in step: there is no suspension point between "write the rotated refresh token" and "hand
/// out the new access token", so actor reentrancy cannot interleave another refresh there. Every
/// call is short (one SQLite statement or transaction, or one Keychain call). The longest wait is
/// the SQLite busy timeout when another process holds the write lock, bounded by
/// ``EncryptedSQLiteCredentialStore/Configuration/busyTimeout``.
///
/// Short still blocks: call the store from a thread you own, or from an actor whose executor is
/// the store's ``callerExecutor``, never from a thread of Swift's cooperative pool (see the
/// SecureStore article).
///
/// ### Failures
///
/// Every method throws ``SecureStoreError``. No failure destroys data: a value that fails to
/// decrypt is reported and left in place, and a failed write leaves the previous value readable.
///
/// ### Conforming
///
/// Conforming types implement ``data(forKey:in:)``, ``keys(in:)`` and ``commit(_:)``, which must be
/// all-or-nothing, and check their input with ``CredentialKey/validate()`` and
/// ``CredentialBatch/validate()`` like the built-in stores. ``setData(_:forKey:in:)`` and
/// ``removeValue(forKey:in:)`` default to a one-change batch.
public protocol CredentialStore: Sendable {
  /// Reads the raw bytes stored under a key.
  /// - Parameters:
  ///   - key: The key.
  ///   - group: The access group.
  /// - Returns: The value, or `nil` when none is stored.
  /// - Throws: ``SecureStoreError``, for example `tamperedValue`.
  func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data?

  /// Stores raw bytes under a key, replacing any previous value.
  /// - Parameters:
  ///   - data: The value, at most ``CredentialBatch/maximumValueSize`` bytes.
  ///   - key: The key.
  ///   - group: The access group.
  /// - Throws: ``SecureStoreError``; the previous value is then unchanged.
  func setData(_ data: Data, forKey key: CredentialKey, in group: AccessGroup) throws

  /// Removes the value under a key; removing a missing value is not an error.
  /// - Parameters:
  ///   - key: The key.
  ///   - group: The access group.
  /// - Throws: ``SecureStoreError``; the value is then unchanged.
  func removeValue(forKey key: CredentialKey, in group: AccessGroup) throws

  /// Lists the keys that hold a value in one group.
  /// - Parameter group: The access group.
  /// - Returns: The keys, sorted by name.
  /// - Throws: ``SecureStoreError``.
  func keys(in group: AccessGroup) throws -> [CredentialKey]

  /// Applies every change of a batch, or none of them.
  /// - Parameter batch: The changes, applied in order.
  /// - Throws: ``SecureStoreError``; no change of the batch is then visible.
  func commit(_ batch: CredentialBatch) throws

  /// Where callers of this store run: the serial executor whose thread the SDK's actors that
  /// call the store (`AuthClient`, `NotificationPreferencesClient`, `TestPushTracker`,
  /// `TapRouter`) adopt, so their synchronous store calls block that thread, never the
  /// cooperative pool. Actors sharing a store share it, so nothing of one runs between two
  /// synchronous store calls of another. The default is ``CredentialStoreExecutor/shared``.
  var callerExecutor: CredentialStoreExecutor { get }
}

extension CredentialStore {
  /// ``CredentialStoreExecutor/shared``: one long-lived thread for every store of the process.
  public var callerExecutor: CredentialStoreExecutor { .shared }

  /// Stores raw bytes under a key by committing a one-change batch.
  /// - Parameters:
  ///   - data: The value, at most ``CredentialBatch/maximumValueSize`` bytes.
  ///   - key: The key.
  ///   - group: The access group.
  /// - Throws: ``SecureStoreError``; the previous value is then unchanged.
  public func setData(_ data: Data, forKey key: CredentialKey, in group: AccessGroup) throws {
    try commit(CredentialBatch([.set(data, key: key, group: group)]))
  }

  /// Removes the value under a key by committing a one-change batch.
  /// - Parameters:
  ///   - key: The key.
  ///   - group: The access group.
  /// - Throws: ``SecureStoreError``; the value is then unchanged.
  public func removeValue(forKey key: CredentialKey, in group: AccessGroup) throws {
    try commit(CredentialBatch([.remove(key: key, group: group)]))
  }

  /// Reads a value stored with ``setValue(_:forKey:in:)``.
  ///
  /// Values are JSON written by Foundation's `JSONEncoder` with sorted keys and the default
  /// strategies (`Data` as base64, `Date` as seconds since 2001-01-01), and read back with
  /// `JSONDecoder` using the same defaults.
  ///
  /// ```swift
  /// let record = try store.value(LoginRecord.self, forKey: "auth.login", in: .appPrivate)
  /// ```
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - key: The key.
  ///   - group: The access group.
  /// - Returns: The value, or `nil` when none is stored.
  /// - Throws: ``SecureStoreError``; `decodingFailed` when the stored bytes
  ///   are not a `type` (the message names the field path, never the content).
  public func value<Value: Decodable>(
    _ type: Value.Type, forKey key: CredentialKey, in group: AccessGroup
  ) throws -> Value? {
    guard let data = try data(forKey: key, in: group) else { return nil }
    return try CredentialCoding.decode(type, from: data, key: key)
  }

  /// Stores a value as JSON, replacing any previous value.
  ///
  /// See ``value(_:forKey:in:)`` for the encoding.
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  ///   - group: The access group.
  /// - Throws: ``SecureStoreError``; `encodingFailed` when `value` cannot
  ///   be encoded. The previous value is then unchanged.
  public func setValue(_ value: some Encodable, forKey key: CredentialKey, in group: AccessGroup)
    throws
  {
    try setData(try CredentialCoding.encode(value, key: key), forKey: key, in: group)
  }

  /// The value stored under a key, or `make()`'s value stored first when there is none, in a
  /// way that any number of callers (threads or processes sharing the store) end with one value:
  /// the one committed first (a ``CredentialBatch/Change/add(_:key:group:)`` change).
  ///
  /// ```swift
  /// let token = try store.valueAddingIfAbsent(forKey: "push.device-token", in: .appPrivate) {
  ///   makeToken()
  /// }
  /// ```
  /// - Parameters:
  ///   - key: The key.
  ///   - group: The access group.
  ///   - make: Makes the value when none is stored; not called when one is.
  /// - Returns: The stored value (which may be another caller's).
  /// - Throws: ``SecureStoreError``, or what `make` throws.
  public func valueAddingIfAbsent<Value: Codable>(
    forKey key: CredentialKey, in group: AccessGroup, _ make: () throws -> Value
  ) throws -> Value {
    // Twice at most: a value removed between the add and the read is added again once.
    for _ in 0..<2 {
      if let stored = try value(Value.self, forKey: key, in: group) { return stored }
      let made = try make()
      try commit(
        CredentialBatch([.add(try CredentialCoding.encode(made, key: key), key: key, group: group)])
      )
      if let stored = try value(Value.self, forKey: key, in: group) { return stored }
    }
    throw SecureStoreError(.storageFailed, "the value for '\(key)' did not stay stored")
  }
}
