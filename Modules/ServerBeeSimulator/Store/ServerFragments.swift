import Foundation
import ServerBeeModels

/// Every server's `full_sync` object (``ServerFragment``), kept in list order and rewritten
/// when its row changes, so that a `full_sync` is the kept objects joined, not the rows read
/// and written (a frame written from 1,000 rows cost about 19 M instructions, 6–9 ms
/// end to end; the budget is 5 ms). A real ServerBee server writes `full_sync` from the agents'
/// state in memory, not from its database, so this is the closer model too.
///
/// What is written to `servers` reaches these through SQLite's update hook
/// (``Database/takeServerChanges()``), not through calls at each write path: rows updated in
/// place are rewritten one by one; an insert, a delete, a moved list-order key
/// (`weight`, `created_at`), an unknown row or many changes at once (over a quarter of the
/// rows, a metrics tick) read every row again in list order, one pass like a frame from the
/// rows. Nothing is kept before the first ``current(_:needing:)``, and each object is
/// written only once something asked for it (``ServerFragment/Parts``), so a simulator nobody
/// syncs with or lists pays nothing. Memory: the frame less its commas and online `last_active`
/// values, about 0.74 MB of bytes for 1,000 servers, some 0.9 MB with the arrays and the rowid
/// index.
///
/// Once the servers are listed (`GET /api/servers`), each server's list entry is kept the same
/// way (``ServerFragment/listEntry``), written from the same row read: a list not kept as an
/// answer is then these entries joined, not 1,000 rows read and written (16 M instructions).
/// A real server keeps its agents' state in memory; the list entries are the same idea
/// applied to what the list shows. What it costs: each row rewritten writes its list entry as
/// well (about 20 k instructions more a server; a metrics tick rewrites them all), and some
/// 0.9 MB more at 1,000 servers.
///
/// Not a cache of answers: ``Simulator/Configuration/cachesAnswers`` does not switch it off.
/// Used under the database lock only (``Database/serial(_:)``); the state's own lock keeps
/// it `Sendable`.
final class ServerFragments: Sendable {
  private struct State {
    /// In list order; `nil` when every row must be read again.
    var fragments: [ServerFragment]?
    /// The index in `fragments` of each rowid.
    var positions: [Int64: Int] = [:]
    /// The objects written for every server: those asked for so far.
    var parts: ServerFragment.Parts = []
  }

  private let state = Locked(State())

  /// Every server's object, in list order, brought up to date with `db`.
  /// - Parameters:
  ///   - db: The database, its lock held by the caller.
  ///   - parts: The objects needed; from then on they are always kept.
  /// - Returns: The objects; `nil` inside a transaction, whose writes may still be rolled back
  ///   (the hook does not report a rollback), so nothing is read or kept then.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) from SQLite.
  func current(_ db: Database, needing parts: ServerFragment.Parts) throws -> [ServerFragment]? {
    guard db.serversVersion != nil else { return nil }
    return try state.withLock { state in
      if !state.parts.isSuperset(of: parts) {
        state.parts.formUnion(parts)
        state.fragments = nil
      }
      try Self.update(&state, db)
      return state.fragments
    }
  }

  /// Brings kept objects up to date with `db` now (after a metrics tick, so the next session
  /// does not pay for it); nothing when none are kept yet.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) from SQLite.
  func refreshIfKept(_ db: Database) throws {
    guard db.serversVersion != nil else { return }
    try state.withLock { state in
      guard state.fragments != nil else { return }
      try Self.update(&state, db)
    }
  }

  /// The bytes kept, for the memory figure.
  var byteCount: Int {
    state.withLock { state in
      state.fragments?.reduce(0) { $0 + $1.byteCount } ?? 0
    }
  }

  private static func update(_ state: inout State, _ db: Database) throws {
    let changes = db.takeServerChanges()
    if var fragments = state.fragments, !changes.membershipChanged,
      changes.updated.count <= max(8, fragments.count / 4)
    {
      // Dropped while changed: one owner, so no copy; and a throw leaves a full read due.
      state.fragments = nil
      if try rewrite(
        changes.updated, in: &fragments, state.positions, parts: state.parts, db
      ) {
        state.fragments = fragments
        return
      }
    }
    state.fragments = nil
    let parts = state.parts
    let all = try db.read(
      "SELECT \(ServerFragment.columns(parts)) FROM servers \(WireWriter.listOrder)"
    ) { try ServerFragment($0, parts: parts) }
    state.positions = Dictionary(
      all.enumerated().map { ($1.rowid, $0) }, uniquingKeysWith: { first, _ in first })
    state.fragments = all
  }

  /// Rewrites the objects of `rowids` in place; `false` when one is unknown, gone or may have
  /// moved in the list (then every row is read again).
  private static func rewrite(
    _ rowids: Set<Int64>, in fragments: inout [ServerFragment], _ positions: [Int64: Int],
    parts: ServerFragment.Parts, _ db: Database
  ) throws -> Bool {
    let columns = ServerFragment.columns(parts)
    for rowid in rowids {
      guard let position = positions[rowid] else { return false }
      let read = try db.read(
        "SELECT \(columns) FROM servers WHERE rowid = ?", [.int(rowid)]
      ) { try ServerFragment($0, parts: parts) }
      guard let fresh = read.first, fresh.hasSameSortKey(as: fragments[position]) else {
        return false
      }
      fragments[position] = fresh
    }
    return true
  }
}
