import ServerBeeModels

/// Values read from the database, each kept with the version of the tables it was read from
/// (``Database/accountsVersion``, ``Database/eligibilityVersion``) and used only at that
/// version.
///
/// A stale value is impossible: SQLite's update hook moves a version on every row written to
/// its tables, by any statement (a route, the control API, a test's own SQL), and its rollback
/// hook moves every version, so a value read inside a transaction that is then rolled back is
/// never used. What depends on the simulator clock must be decided again by the user of a
/// value on every use. At most ``capacity`` keys are kept; the cache is emptied when full.
///
/// ```swift
/// let cache = VersionedCache<String, Int>()
/// cache.keep(7, for: "a", at: db.accountsVersion)
/// cache.value(for: "a", at: db.accountsVersion)  // 7 until a row of those tables is written
/// ```
final class VersionedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private let entries = Locked<[Key: (version: Int64, value: Value)]>([:])
  /// The most keys kept.
  let capacity: Int

  init(capacity: Int = 4096) { self.capacity = capacity }

  /// The value kept for `key` if it was read at `version`.
  func value(for key: Key, at version: Int64) -> Value? {
    entries.withLock { entries in
      guard let entry = entries[key], entry.version == version else { return nil }
      return entry.value
    }
  }

  /// Keeps `value`, read at `version`, for `key`.
  func keep(_ value: Value, for key: Key, at version: Int64) {
    entries.withLock { entries in
      if entries.count >= capacity, entries[key] == nil { entries.removeAll() }
      entries[key] = (version, value)
    }
  }
}
