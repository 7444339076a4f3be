import ServerBeeModels

/// What ``SimulatorCore/caller(token:viaBearer:)`` found for a token, kept while the tables it
/// read are unchanged (``Database/accountsVersion``).
///
/// Why: every authenticated request hashed its token (SHA-256) and read the access session,
/// the user and, on the push routes, the mobile session: about 75 k instructions a request,
/// the largest single cost of a test push's admission and of its status read.
///
/// A stale answer is impossible: SQLite's update hook moves the version on every row written
/// to `users`, `mobile_sessions` or `access_sessions`, by any statement (logout, revoke, a
/// password or role change, a deleted user, the refresh rotation, a test's own SQL), and an
/// entry is used only at the version it was read at. What the clock decides is decided again
/// on every use: an access session past its `expires_at` is refused as the query refuses it,
/// and the mobile session row is handed to the caller's own checks (its expiry, the password
/// change), which run as before. Entries are made only outside a transaction, whose writes a
/// rollback could undo without the hook seeing it. The cache holds at most ``capacity``
/// tokens and is emptied when full.
final class CallerCache: Sendable {
  /// The tables whose rows an entry is read from.
  static let tables = ["users", "mobile_sessions", "access_sessions"]
  /// The most tokens kept.
  static let capacity = 4096

  /// One token's rows as read at `version`.
  struct Entry: Sendable {
    var version: Int64
    /// The token's SHA-256, as stored.
    var accessHash: String
    var user: UserRow
    var source: String
    var mobileSessionID: String?
    /// The access session's `expires_at`.
    var expiresAt: Int64
    /// The row of ``mobileSessionID``, `nil` when there is none.
    var mobileSession: MobileSessionRow?
  }

  private let entries = Locked<[String: Entry]>([:])

  /// The entry for `token` read at `version`, if kept.
  func entry(_ token: String, at version: Int64) -> Entry? {
    entries.withLock { entries in
      guard let entry = entries[token], entry.version == version else { return nil }
      return entry
    }
  }

  /// Keeps `entry` for `token`.
  func keep(_ entry: Entry, for token: String) {
    entries.withLock { entries in
      if entries.count >= Self.capacity, entries[token] == nil { entries.removeAll() }
      entries[token] = entry
    }
  }
}
