import ServerBeeModels

/// One step of the schema: the statements that take a database from `version - 1` to
/// `version`, applied in one transaction.
struct Migration: Sendable, Equatable {
  /// The `PRAGMA user_version` the database has after this step (1 for the first).
  let version: Int
  /// The SQL, in order.
  let statements: [String]

  init(version: Int, _ statements: [String]) {
    self.version = version
    self.statements = statements
  }
}

/// Why a list of migrations cannot be applied in order.
enum MigrationOrderError: Error, Equatable, CustomStringConvertible {
  /// Two migrations claim the same version.
  case duplicateVersion(Int)
  /// No migration has this version, although a later one does.
  case missingVersion(Int)
  /// A version below 1 (version 0 is an empty database).
  case invalidVersion(Int)

  var description: String {
    switch self {
    case .duplicateVersion(let version):
      return "Two migrations claim schema version \(version)."
    case .missingVersion(let version):
      return "No migration has schema version \(version), although a later version exists."
    case .invalidVersion(let version):
      return "Schema version \(version) is not a migration version; versions start at 1."
    }
  }
}

/// Versioned schema migrations, applied in order and recorded in `PRAGMA user_version`.
///
/// Times are stored as INTEGER nanoseconds since 1970 (UTC) so the RFC 3339 output keeps every
/// digit. Migrations come from two places: ``baseMigrations`` (versions 1–7, history from before
/// the simulator was organised by area) and each area's ``SimulatorArea/migrations``
/// (from version 8: 8 and 9 are the account area's). Each ``Migration`` carries its version, and
/// ``migrate(_:_:)`` sorts them and refuses a version claimed twice or a gap
/// (``MigrationOrderError``) before it touches the database, so two areas that claim the same
/// version fail at start, never halfway through a data directory. An existing migration is
/// never edited: a change is a new version, in the area that owns the table.
///
/// Migration 2 adds `push_legacy_tokens` (Protocol/Push.md §1): one legacy APNs device token per
/// installation, linked to the login that registered it. It has **no** foreign key on purpose,
/// like the real server's `device_tokens`: Protocol/Auth.md §8 counts a leftover legacy token as
/// dangling state, so `SimulatorCore.deleteMobileSession` deletes it explicitly.
///
/// Migration 3 adds encrypted push (Protocol/Push.md §2, §5): `push_registrations` (one row per
/// installation, owned by one user and one login; deleted with that login by `deleteMobileSession`,
/// like the legacy tokens, so no foreign key), `push_migrations` (the permanent "migrated" marker
/// per installation and user, Protocol/Push.md §2.8) and `push_outbox` (one row per event and
/// installation; test pushes are outbox rows of kind `test`). Outbox times
/// `created_at`/`expires_at` are Unix seconds (the content's own values); the scheduling columns
/// are nanoseconds like the rest.
///
/// Migration 4 adds what the push events need (Protocol/Push.md §4): the rule parameters of
/// `alert_rules` (covered servers, security exclusions, thresholds and the dedupe window) and
/// `maintenance_windows` (Unix seconds, like the control API that writes them).
///
/// Migration 5 adds `simulator_state`, the simulator's own key-value settings that survive a
/// restart: `clock_offset`, the seconds the clock was advanced (``SimulatorClock/advance(by:)``).
///
/// Migration 6 adds `servers_list_order`, an index in the order every server list is read
/// (`weight DESC, created_at DESC`): a `full_sync` that missed the cache spent about 14 M
/// instructions sorting 1,000 rows. It changes no row, so a data directory written
/// before it serves the same lists after it.
///
/// Migration 7 adds `servers.live_numbers`, the live numbers in a fixed binary form beside
/// `live_json` (`LiveNumbers.packed`), read by a `full_sync` without parsing, and a
/// trigger that clears them when `live_json` changes without them. Rows written before it
/// have none and are read from `live_json`, as before.
enum Schema {
  /// The statements of versions 1–7, in order: entry `n - 1` is version `n`. History: never
  /// edited, never appended to (a new version belongs to the area that owns its tables).
  private static let history: [[String]] = [
    [
      """
      CREATE TABLE users (
        id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, role TEXT NOT NULL,
        password_salt TEXT NOT NULL, password_hash TEXT NOT NULL, totp_secret TEXT,
        must_change_password INTEGER NOT NULL DEFAULT 0, password_changed_at INTEGER,
        created_at INTEGER NOT NULL)
      """,
      // `verified_at` is the instant the session's credentials were last confirmed against the
      // account (login, or a password change made from this very session). A session whose
      // verified_at precedes the user's password_changed_at is dead ("token versioning").
      """
      CREATE TABLE mobile_sessions (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        refresh_hash TEXT NOT NULL, revocation_hash TEXT, installation_id TEXT NOT NULL,
        device_name TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL, verified_at INTEGER NOT NULL)
      """,
      "CREATE INDEX mobile_sessions_installation ON mobile_sessions(installation_id)",
      "CREATE INDEX mobile_sessions_refresh ON mobile_sessions(refresh_hash)",
      // Deletion-only proofs: accepted `sb-revoke-v1.` proposals and consumed refresh tokens.
      // No foreign key to mobile_sessions on purpose: the revoke table distinguishes "gone and
      // unreferenced" from "gone but dangling state remains", so deletes are explicit.
      """
      CREATE TABLE session_proofs (
        hash TEXT PRIMARY KEY, session_id TEXT NOT NULL, kind TEXT NOT NULL,
        created_at INTEGER NOT NULL)
      """,
      "CREATE INDEX session_proofs_session ON session_proofs(session_id)",
      // Access sessions: mobile access tokens (source 'mobile') and web cookies (source 'web').
      """
      CREATE TABLE access_sessions (
        token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, source TEXT NOT NULL,
        mobile_session_id TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)
      """,
      "CREATE INDEX access_sessions_mobile ON access_sessions(mobile_session_id)",
      """
      CREATE TABLE recovery_grants (
        token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, installation_id TEXT NOT NULL,
        binding TEXT NOT NULL, candidates_json TEXT NOT NULL, pinned_session_id TEXT,
        final_state TEXT, final_session_id TEXT, created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL)
      """,
      """
      CREATE TABLE server_groups (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, weight INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL)
      """,
      """
      CREATE TABLE servers (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, cpu_name TEXT, cpu_cores INTEGER, cpu_arch TEXT,
        os TEXT, kernel_version TEXT, mem_total INTEGER, swap_total INTEGER, disk_total INTEGER,
        ipv4 TEXT, ipv6 TEXT, region TEXT, country_code TEXT, virtualization TEXT,
        agent_version TEXT, group_id TEXT, weight INTEGER NOT NULL DEFAULT 0,
        hidden INTEGER NOT NULL DEFAULT 0, remark TEXT, public_remark TEXT,
        capabilities INTEGER NOT NULL DEFAULT 1852, protocol_version INTEGER NOT NULL DEFAULT 3,
        features_json TEXT NOT NULL DEFAULT '[]', tags_json TEXT NOT NULL DEFAULT '[]',
        online INTEGER NOT NULL DEFAULT 0, live_json TEXT, created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)
      """,
      """
      CREATE TABLE records (
        id INTEGER PRIMARY KEY AUTOINCREMENT, server_id TEXT NOT NULL, time INTEGER NOT NULL,
        cpu REAL NOT NULL, mem_used INTEGER NOT NULL, swap_used INTEGER NOT NULL,
        disk_used INTEGER NOT NULL, net_in_speed INTEGER NOT NULL, net_out_speed INTEGER NOT NULL,
        net_in_transfer INTEGER NOT NULL, net_out_transfer INTEGER NOT NULL, load1 REAL NOT NULL,
        load5 REAL NOT NULL, load15 REAL NOT NULL, tcp_conn INTEGER NOT NULL,
        udp_conn INTEGER NOT NULL, process_count INTEGER NOT NULL, temperature REAL,
        gpu_usage REAL, disk_io_json TEXT)
      """,
      "CREATE INDEX records_server_time ON records(server_id, time)",
      """
      CREATE TABLE alert_rules (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, rule_type TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1, trigger_mode TEXT NOT NULL DEFAULT 'always',
        created_at INTEGER NOT NULL)
      """,
      """
      CREATE TABLE alert_states (
        rule_id TEXT NOT NULL, server_id TEXT NOT NULL, event_key TEXT NOT NULL,
        first_triggered_at INTEGER NOT NULL, last_notified_at INTEGER, count INTEGER NOT NULL,
        resolved INTEGER NOT NULL DEFAULT 0, resolved_at INTEGER, updated_at INTEGER NOT NULL,
        PRIMARY KEY (rule_id, server_id, event_key))
      """,
      """
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY, command TEXT NOT NULL, server_ids_json TEXT NOT NULL,
        created_at INTEGER NOT NULL, task_type TEXT NOT NULL, name TEXT, cron_expression TEXT,
        enabled INTEGER NOT NULL DEFAULT 1, timeout INTEGER, retry_count INTEGER NOT NULL DEFAULT 0,
        retry_interval INTEGER NOT NULL DEFAULT 60, last_run_at INTEGER, next_run_at INTEGER,
        created_by TEXT)
      """,
      """
      CREATE TABLE task_results (
        id INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL, server_id TEXT NOT NULL,
        output TEXT NOT NULL, exit_code INTEGER NOT NULL, run_id TEXT, attempt INTEGER NOT NULL,
        started_at INTEGER, finished_at INTEGER NOT NULL)
      """,
      "CREATE INDEX task_results_task ON task_results(task_id, finished_at)",
      """
      CREATE TABLE security_events (
        id TEXT PRIMARY KEY, server_id TEXT NOT NULL, event_type TEXT NOT NULL,
        severity TEXT NOT NULL, source_ip TEXT NOT NULL, source_port INTEGER, username TEXT,
        started_at INTEGER NOT NULL, ended_at INTEGER NOT NULL, first_seen INTEGER NOT NULL,
        detector_source TEXT NOT NULL, evidence_json TEXT, created_at INTEGER NOT NULL)
      """,
      "CREATE INDEX security_events_order ON security_events(created_at, id)",
    ],
    [
      """
      CREATE TABLE push_legacy_tokens (
        installation_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, mobile_session_id TEXT NOT NULL,
        device_token TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)
      """,
      "CREATE INDEX push_legacy_tokens_session ON push_legacy_tokens(mobile_session_id)",
      "CREATE INDEX push_legacy_tokens_user ON push_legacy_tokens(user_id)",
    ],
    [
      """
      CREATE TABLE push_registrations (
        installation_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, mobile_session_id TEXT NOT NULL,
        revision INTEGER NOT NULL, enabled INTEGER NOT NULL, alerts INTEGER NOT NULL,
        security INTEGER NOT NULL, task_failure INTEGER NOT NULL, task_success INTEGER NOT NULL,
        device_token TEXT, environment TEXT, content_key_id TEXT, content_key TEXT,
        deployment_id TEXT, updated_at INTEGER NOT NULL)
      """,
      "CREATE INDEX push_registrations_session ON push_registrations(mobile_session_id)",
      """
      CREATE TABLE push_migrations (
        installation_id TEXT NOT NULL, user_id TEXT NOT NULL, created_at INTEGER NOT NULL,
        PRIMARY KEY (installation_id, user_id))
      """,
      // `content_key_digest` (SHA-256 of the key text) lets a 410 compare the key used for the
      // send without a second copy of the key; `envelope_json` is erased at a terminal outcome.
      """
      CREATE TABLE push_outbox (
        event_id TEXT NOT NULL, installation_id TEXT NOT NULL, kind TEXT NOT NULL,
        category TEXT NOT NULL, user_id TEXT NOT NULL, mobile_session_id TEXT NOT NULL,
        role TEXT NOT NULL, revision INTEGER NOT NULL, device_token TEXT NOT NULL,
        environment TEXT NOT NULL, content_key_id TEXT NOT NULL, content_key_digest TEXT NOT NULL,
        deployment_id TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        envelope_json TEXT, outcome TEXT NOT NULL, reason TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL,
        lease_id TEXT, lease_until INTEGER, admitted_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL, PRIMARY KEY (event_id, installation_id))
      """,
      "CREATE INDEX push_outbox_due ON push_outbox(outcome, next_attempt_at)",
    ],
    [
      // Rule parameters the push events read (Protocol/Alerts.md §6.1, Protocol/Security.md §5):
      // the covered servers (empty = every server), the security rules' exclusions and thresholds,
      // and their dedupe window.
      "ALTER TABLE alert_rules ADD COLUMN server_ids_json TEXT NOT NULL DEFAULT '[]'",
      "ALTER TABLE alert_rules ADD COLUMN exclude_users_json TEXT NOT NULL DEFAULT '[]'",
      "ALTER TABLE alert_rules ADD COLUMN exclude_cidrs_json TEXT NOT NULL DEFAULT '[]'",
      "ALTER TABLE alert_rules ADD COLUMN min_failed_count INTEGER",
      "ALTER TABLE alert_rules ADD COLUMN min_distinct_ports INTEGER",
      "ALTER TABLE alert_rules ADD COLUMN dedupe_window_seconds INTEGER NOT NULL DEFAULT 600",
      // `server_id` NULL covers every server; `[starts_at, ends_at)` in Unix seconds.
      """
      CREATE TABLE maintenance_windows (
        id TEXT PRIMARY KEY, server_id TEXT, starts_at INTEGER NOT NULL,
        ends_at INTEGER NOT NULL, created_at INTEGER NOT NULL)
      """,
    ],
    [
      // Simulator-only settings that outlive a restart (not part of any server's schema).
      "CREATE TABLE simulator_state (key TEXT PRIMARY KEY, value REAL NOT NULL)"
    ],
    [
      // The server list's order, so reading it walks this index instead of sorting every
      // row. Ties come out in rowid order either way (`SchemaTests`).
      "CREATE INDEX servers_list_order ON servers(weight DESC, created_at DESC)"
    ],
    [
      // The live numbers packed beside `live_json` (`LiveNumbers.packed`), so a `full_sync`
      // reads them without parsing. `live_json` stays the truth: any change to it
      // that does not also change `live_numbers` clears them, so they are never stale.
      "ALTER TABLE servers ADD COLUMN live_numbers BLOB",
      """
      CREATE TRIGGER servers_live_numbers_follow AFTER UPDATE OF live_json ON servers
      WHEN NEW.live_numbers IS OLD.live_numbers
      BEGIN UPDATE servers SET live_numbers = NULL WHERE rowid = NEW.rowid; END
      """,
    ],
  ]

  /// The migrations from before areas owned their tables, versions 1–7 (``history``).
  static let baseMigrations: [Migration] = history.enumerated().map {
    Migration(version: $0.offset + 1, $0.element)
  }

  /// Every migration the simulator declares: ``baseMigrations`` and each area's
  /// (``SimulatorArea/migrations``, areas listed in ``SimulatorCore/areas``), in no particular
  /// order; ``migrate(_:_:)`` orders them.
  static let allMigrations: [Migration] =
    baseMigrations + SimulatorCore.areas.flatMap { $0.migrations }

  /// The statements of every migration in version order (`migrations[n - 1]` is version `n`),
  /// as ``migrate(_:_:)`` applies them; empty when ``allMigrations`` cannot be ordered.
  static var migrations: [[String]] {
    ((try? ordered(allMigrations)) ?? []).map(\.statements)
  }

  /// Sorts `migrations` by version.
  /// - Parameter migrations: Migrations from any number of lists, in any order.
  /// - Returns: The migrations in version order, from 1 to the highest.
  /// - Throws: ``MigrationOrderError`` for a version below 1, a version claimed twice, or a
  ///   gap.
  static func ordered(_ migrations: [Migration]) throws(MigrationOrderError) -> [Migration] {
    let sorted = migrations.sorted { $0.version < $1.version }
    for (index, migration) in sorted.enumerated() {
      guard migration.version >= 1 else { throw .invalidVersion(migration.version) }
      if index > 0, sorted[index - 1].version == migration.version {
        throw .duplicateVersion(migration.version)
      }
      guard migration.version == index + 1 else { throw .missingVersion(index + 1) }
    }
    return sorted
  }

  /// Applies every migration newer than the database's `user_version`, in version order, each
  /// in its own transaction.
  /// - Parameters:
  ///   - db: The database.
  ///   - migrations: The migrations, in any order; by default ``allMigrations``.
  /// - Throws: ``ServerBeeSimulatorError`` with code `storageFailed` when the migrations
  ///   cannot be ordered (the ``MigrationOrderError`` is its `underlying`), when the database
  ///   is newer than them, or when a statement fails.
  static func migrate(_ db: Database, _ migrations: [Migration] = allMigrations) throws {
    let steps: [Migration]
    do {
      steps = try ordered(migrations)
    } catch {
      throw ServerBeeSimulatorError(
        .storageFailed, "The simulator's migrations cannot be applied. \(error)",
        underlying: error)
    }
    let current = Int(try db.scalar("PRAGMA user_version").int ?? 0)
    guard current <= steps.count else {
      throw ServerBeeSimulatorError(
        .storageFailed, "the database schema version \(current) is newer than this simulator")
    }
    for migration in steps[current...] {
      try db.transaction {
        for statement in migration.statements { try db.execute(statement) }
        try db.execute("PRAGMA user_version = \(migration.version)")
      }
    }
  }
}
