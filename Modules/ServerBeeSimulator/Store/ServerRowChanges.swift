/// The rows of `servers` written since ``Database/takeServerChanges()`` last ran, as SQLite's
/// update hook reports them: for every statement on the connection, whatever wrote it (the
/// control API, the ticker, a migration, a test's own SQL), so no write path can be forgotten.
///
/// The hook sees writes that a transaction later rolls back too; they only cost a fragment
/// rewritten for nothing. It does not see rows deleted by SQLite's truncate optimisation
/// (`DELETE FROM servers` with no `WHERE`, possible only while no foreign key points at the
/// table and no `DELETE` trigger is on it) nor rows replaced through `ON CONFLICT REPLACE`,
/// whose insert half it does see; nothing in the simulator writes either.
struct ServerRowChanges: Sendable, Equatable {
  /// The table watched.
  static let table = "servers"

  /// Rows updated in place, by rowid.
  var updated: Set<Int64> = []
  /// Whether a row was inserted or deleted: which servers there are, and their order, must be
  /// read again.
  var membershipChanged = false

  /// Whether nothing was written.
  var isEmpty: Bool { updated.isEmpty && !membershipChanged }

  /// Notes one row written: updated in place, or inserted or deleted.
  mutating func record(inPlace: Bool, rowid: Int64) {
    if inPlace {
      updated.insert(rowid)
    } else {
      membershipChanged = true
    }
  }
}
