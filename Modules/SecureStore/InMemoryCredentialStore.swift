public import Foundation
public import ServerBeeModels

/// A ``CredentialStore`` that keeps values in memory, for tests and previews.
///
/// It checks keys, sizes and batches exactly like the persistent stores, is safe to share between
/// tasks, and can be told to fail writes so that callers' failure paths can be tested:
///
/// ```swift
/// let store = InMemoryCredentialStore()
/// store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
/// // A login must now keep the previous credentials and report the failure.
/// ```
///
/// Create one per test; nothing is shared between instances.
public final class InMemoryCredentialStore: CredentialStore {
  private struct State {
    var values: [AccessGroup: [CredentialKey: Data]]
    var writeFailure: SecureStoreError?
  }

  private let state: Locked<State>

  /// Creates a store.
  /// - Parameter values: Initial values per group.
  public init(values: [AccessGroup: [CredentialKey: Data]] = [:]) {
    state = Locked(State(values: values, writeFailure: nil))
  }

  /// Makes every following ``commit(_:)`` (and so every set and removal) throw `error` without
  /// changing anything, until called again with `nil`.
  /// - Parameter error: The error to throw, or `nil` to let writes succeed again.
  public func failWrites(with error: SecureStoreError?) {
    state.withLock { $0.writeFailure = error }
  }

  /// Every stored value, per group: a snapshot for assertions.
  public var allValues: [AccessGroup: [CredentialKey: Data]] {
    state.withLock { $0.values.filter { !$0.value.isEmpty } }
  }

  /// Reads the raw bytes stored under a key.
  /// - Parameters:
  ///   - key: The key.
  ///   - group: The access group.
  /// - Returns: The value, or `nil` when none is stored.
  /// - Throws: ``SecureStoreError`` with code `invalidKey`.
  public func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data? {
    try key.validate()
    return state.withLock { $0.values[group]?[key] }
  }

  /// Lists the keys that hold a value in one group.
  /// - Parameter group: The access group.
  /// - Returns: The keys, sorted by name.
  /// - Throws: Never; the signature is the protocol's.
  public func keys(in group: AccessGroup) throws -> [CredentialKey] {
    state.withLock { $0.values[group].map { $0.keys.sorted() } ?? [] }
  }

  /// Applies every change of a batch, or none of them.
  /// - Parameter batch: The changes, applied in order.
  /// - Throws: ``SecureStoreError``: a validation error, or the error set with
  ///   ``failWrites(with:)``. Nothing changes then.
  public func commit(_ batch: CredentialBatch) throws {
    try batch.validate()
    try state.withLock { (state: inout State) throws(SecureStoreError) in
      if let failure = state.writeFailure { throw failure }
      for change in batch.changes {
        switch change {
        case .set(let data, let key, let group): state.values[group, default: [:]][key] = data
        case .remove(let key, let group): state.values[group]?[key] = nil
        case .add(let data, let key, let group):
          if state.values[group]?[key] == nil { state.values[group, default: [:]][key] = data }
        }
      }
    }
  }
}
