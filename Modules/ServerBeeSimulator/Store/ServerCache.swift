import Foundation
import ServerBeeModels

/// The server rows, and the `GET /api/servers` body and the last `full_sync` frame written from
/// them, kept while the `servers` table is unchanged (``Database/serversVersion``).
///
/// Why: reading 1,000 rows (a dictionary per row, JSON columns decoded) and writing
/// the 0.9 MB list cost every request tens of milliseconds under the database lock. Any write
/// to a row of `servers` moves the version, so a stale answer is impossible: all three are
/// written from that table alone. Writes to other tables keep them (the version
/// used to move with every table, and each authenticated request writes its login's
/// `last_used_at`, so nearly every request missed); a metrics tick, which rewrites the rows,
/// still clears them.
///
/// A frame not kept is joined from ``fragments``, every server's object kept in memory and
/// rewritten when its row changes: a miss no longer writes 1,000 rows.
///
/// A disabled cache (``Simulator/Configuration/cachesAnswers``, a benchmark knob) keeps no
/// answer: no rows, no list body, no shared frame, so every request costs what a miss costs.
/// It keeps ``fragments``, which model the state a real server holds in memory rather than an
/// answer: every `full_sync` is then joined for its session, the cost of a miss (the cost of
/// writing one from the rows is that of a session right after a metrics tick or any other
/// write to many rows, or of a build before them).
final class ServerCache: Sendable {
  private struct Entry {
    var version: Int64
    var rows: [ServerRow]?
    var listBody: Data?
    /// The last `full_sync` frame and the whole second it was written for (its servers'
    /// `last_active`); text, as the WebSocket sends it.
    var fullSync: (seconds: Int64, frame: String)?
  }

  private let entry = Locked<Entry?>(nil)
  private let enabled: Bool
  /// Every server's `full_sync` object, kept whether or not answers are.
  let fragments = ServerFragments()

  init(enabled: Bool = true) { self.enabled = enabled }

  func rows(at version: Int64) -> [ServerRow]? {
    entry.withLock { $0?.version == version ? $0?.rows : nil }
  }

  func listBody(at version: Int64) -> Data? {
    entry.withLock { $0?.version == version ? $0?.listBody : nil }
  }

  /// The `full_sync` frame written at `seconds` from the rows at `version`, if kept.
  func fullSync(at version: Int64, seconds: Int64) -> String? {
    entry.withLock { entry in
      guard entry?.version == version, let sync = entry?.fullSync, sync.seconds == seconds else {
        return nil
      }
      return sync.frame
    }
  }

  /// Keeps the rows read at `version` (under the database lock), with what was kept for that
  /// version already; anything kept for an older one goes.
  func store(_ rows: [ServerRow], at version: Int64) {
    update(at: version) { $0.rows = rows }
  }

  /// Keeps a list body written at `version` (under the database lock, so that is the current
  /// version), like ``store(_:at:)``.
  func store(listBody body: Data, at version: Int64) {
    update(at: version) { $0.listBody = body }
  }

  /// Keeps a `full_sync` frame written at `version` (under the database lock, so that is
  /// the current version), like ``store(_:at:)``.
  func store(fullSync frame: String, seconds: Int64, at version: Int64) {
    update(at: version) { $0.fullSync = (seconds, frame) }
  }

  /// Applies `change` to the entry of `version`, made afresh when the kept one is older;
  /// nothing when caching is off or a newer version is kept (versions only grow).
  private func update(at version: Int64, _ change: (inout Entry) -> Void) {
    guard enabled else { return }
    entry.withLock { entry in
      var current = entry ?? Entry(version: version)
      if current.version < version { current = Entry(version: version) }
      guard current.version == version else { return }
      change(&current)
      entry = current
    }
  }
}
