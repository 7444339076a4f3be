import CSQLite
import Foundation
import ServerBeeModels

/// A value bound to or read from SQLite.
enum SQLValue: Sendable, Hashable {
  case null
  case int(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  var int: Int64? {
    if case .int(let value) = self { return value }
    return nil
  }
  var real: Double? {
    switch self {
    case .real(let value): return value
    case .int(let value): return Double(value)
    default: return nil
    }
  }
  var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }
  var bool: Bool { int.map { $0 != 0 } ?? false }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral
{
  init(stringLiteral value: String) { self = .text(value) }
  init(integerLiteral value: Int64) { self = .int(value) }
  init(nilLiteral: ()) { self = .null }
}

extension Optional where Wrapped == String {
  var sql: SQLValue { map(SQLValue.text) ?? .null }
}
extension Optional where Wrapped == Int64 {
  var sql: SQLValue { map(SQLValue.int) ?? .null }
}
extension Optional where Wrapped == Double {
  var sql: SQLValue { map(SQLValue.real) ?? .null }
}
extension String {
  var sql: SQLValue { .text(self) }
}
extension Int64 {
  var sql: SQLValue { .int(self) }
}
extension Bool {
  var sql: SQLValue { .int(self ? 1 : 0) }
}

/// One result row, addressed by column name.
struct Row: Sendable {
  let values: [String: SQLValue]
  subscript(_ name: String) -> SQLValue { values[name] ?? .null }
}

/// One SQLite connection used by one writer at a time.
///
/// Every statement runs inside ``Database/serial(_:)``'s lock: the simulator has exactly one
/// connection, so reads and writes are serialised and every handler's check-then-write sequence
/// (refresh consume, revoke, recover) is atomic without extra machinery.
final class Database: @unchecked Sendable {
  // Safety: `handle` and `statements` are only used while `lock` is held (see `serial`).
  private let lock = NSRecursiveLock()
  private var handle: OpaquePointer?
  private var statements: [StatementKey: OpaquePointer] = [:]
  // Safety: only touched under `lock` too: SQLite calls the update hook while a statement
  // steps, and every statement steps inside `serial`.
  private var serverChanges = ServerRowChanges()
  // Safety: as `serverChanges`. Rows of `servers` written since the database was opened, by
  // the same hook: the version of what `ServerCache` keeps.
  private var serverWrites: Int64 = 0
  // Safety: as `serverChanges`. Rows of ``accountTables`` written since the database was
  // opened, by the same hook.
  private var accountWrites: Int64 = 0
  // Safety: as `serverChanges`. Rows of `push_registrations` written, by the same hook.
  private var registrationWrites: Int64 = 0
  // Safety: as `serverChanges`. Transactions rolled back, by SQLite's rollback hook.
  private var rollbacks: Int64 = 0

  /// The tables of logins: who a token stands for (``accountsVersion``).
  static let accountTables = ["users", "mobile_sessions", "access_sessions"]
  /// The table of push registrations (with ``accountTables``, ``eligibilityVersion``).
  static let registrationTable = "push_registrations"

  init(path: String) throws {
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db else {
      sqlite3_close(db)
      throw ServerBeeSimulatorError(.storageFailed, "cannot open the database at \(path)")
    }
    handle = db
    // Every row written to `servers`, by any statement (the kept `full_sync`
    // objects, `ServerFragments`, must never miss a write path, the tests' own SQL included).
    // Unretained: `close()`, at the latest in `deinit`, closes the handle and the hook with it.
    sqlite3_update_hook(
      db,
      { context, operation, _, table, rowid in
        guard let context, let table else { return }
        let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
        if strcmp(table, ServerRowChanges.table) == 0 {
          database.serverChanges.record(inPlace: operation == SQLITE_UPDATE, rowid: rowid)
          database.serverWrites &+= 1
        } else if Database.accountTables.contains(where: { strcmp(table, $0) == 0 }) {
          database.accountWrites &+= 1
        } else if strcmp(table, Database.registrationTable) == 0 {
          database.registrationWrites &+= 1
        }
      }, Unmanaged.passUnretained(self).toOpaque())
    // Every rollback, explicit or forced by an error, moves the versions: what was read after
    // a transaction's own writes is not what is stored once they are undone.
    sqlite3_rollback_hook(
      db,
      { context in
        guard let context else { return }
        Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().rollbacks &+= 1
      }, Unmanaged.passUnretained(self).toOpaque())
    try execute("PRAGMA journal_mode=WAL")
    try execute("PRAGMA synchronous=NORMAL")
    try execute("PRAGMA foreign_keys=ON")
    try execute("PRAGMA busy_timeout=5000")
  }

  deinit { close() }

  func close() {
    lock.lock()
    defer { lock.unlock() }
    for statement in statements.values { sqlite3_finalize(statement) }
    statements = [:]
    // Off first: a handle that fails to close must not call into a freed `Database`.
    if let handle {
      sqlite3_update_hook(handle, nil, nil)
      sqlite3_rollback_hook(handle, nil, nil)
    }
    if let handle { sqlite3_close(handle) }
    handle = nil
  }

  func serial<R>(_ body: () throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// Runs `body` in a transaction; any thrown error rolls every write back.
  func transaction<R>(_ body: () throws -> R) throws -> R {
    try serial {
      try execute("BEGIN IMMEDIATE")
      do {
        let result = try body()
        try execute("COMMIT")
        return result
      } catch {
        _ = try? execute("ROLLBACK")
        throw error
      }
    }
  }

  @discardableResult
  func execute(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int {
    try serial {
      _ = try query(sql, bindings)
      return Int(sqlite3_changes(handle))
    }
  }

  func query(_ sql: String, _ bindings: [SQLValue] = []) throws -> [Row] {
    try serial {
      let statement = try prepared(sql, bindings)
      defer {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
      }
      var rows: [Row] = []
      while true {
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { break }
        guard step == SQLITE_ROW else { throw failure("step") }
        var values: [String: SQLValue] = [:]
        for column in 0..<sqlite3_column_count(statement) {
          let name = String(cString: sqlite3_column_name(statement, column))
          switch sqlite3_column_type(statement, column) {
          case SQLITE_INTEGER: values[name] = .int(sqlite3_column_int64(statement, column))
          case SQLITE_FLOAT: values[name] = .real(sqlite3_column_double(statement, column))
          case SQLITE_TEXT:
            values[name] = .text(String(cString: sqlite3_column_text(statement, column)))
          case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            let bytes = sqlite3_column_blob(statement, column)
            values[name] = .blob(
              bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
          default: values[name] = .null
          }
        }
        rows.append(Row(values: values))
      }
      return rows
    }
  }

  /// Runs a query and turns each row into a value by column index, with no dictionary per row
  /// (building one per row was most of a `full_sync` that missed the cache).
  /// - Parameters:
  ///   - sql: The statement; `row` reads its result columns by position (0 first).
  ///   - bindings: The values for its `?` parameters.
  ///   - row: Makes one value from the current row; the ``Columns`` are valid only inside it.
  /// - Returns: One value per row, in order.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) from SQLite, or what `row` throws.
  func read<T>(_ sql: String, _ bindings: [SQLValue] = [], _ row: (Columns) throws -> T) throws
    -> [T]
  {
    var values: [T] = []
    try forEachRow(sql, bindings) { values.append(try row($0)) }
    return values
  }

  /// Runs a query and hands each row to `body` by column index, keeping nothing.
  /// - Parameters:
  ///   - sql: The statement; `body` reads its result columns by position (0 first).
  ///   - bindings: The values for its `?` parameters.
  ///   - body: Reads the current row; the ``Columns`` are valid only inside it.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) from SQLite, or what `body` throws.
  func forEachRow(_ sql: String, _ bindings: [SQLValue] = [], _ body: (Columns) throws -> Void)
    throws
  {
    try serial {
      let statement = try prepared(sql, bindings)
      defer {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
      }
      while true {
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { break }
        guard step == SQLITE_ROW else { throw failure("step") }
        try body(Columns(statement: statement))
      }
    }
  }

  /// The current row of a statement in ``Database/read(_:_:_:)``, read by column index with the
  /// same meaning as ``SQLValue``'s accessors on a ``Row``.
  struct Columns {
    fileprivate let statement: OpaquePointer
    /// Added to every column index: a view that starts further along the row.
    fileprivate var base: Int32 = 0

    /// The same row seen from column `offset` on: column 0 of the result is `offset` here.
    /// A writer made for one `SELECT` reads its columns after another's in a wider one.
    func shifted(by offset: Int32) -> Columns {
      var view = self
      view.base += offset
      return view
    }

    /// The text up to its first NUL, or `nil` when the column is not `TEXT` (like
    /// ``SQLValue/text``, which reads it with `String(cString:)`; here the length comes from
    /// SQLite instead of a byte-by-byte search).
    func text(_ column: Int32) -> String? {
      withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column as ``Database/query(_:_:)`` reads it into a ``Row``.
    func value(_ column: Int32) -> SQLValue {
      switch sqlite3_column_type(statement, base + column) {
      case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, base + column))
      case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, base + column))
      case SQLITE_TEXT: return text(column).map(SQLValue.text) ?? .null
      case SQLITE_BLOB: return .blob(withBlob(column) { Array($0) } ?? [])
      default: return .null
      }
    }

    /// The integer, or `nil` when the column is not `INTEGER` (like ``SQLValue/int``).
    func int(_ column: Int32) -> Int64? {
      sqlite3_column_type(statement, base + column) == SQLITE_INTEGER
        ? sqlite3_column_int64(statement, base + column) : nil
    }

    /// A non-zero integer (like ``SQLValue/bool``).
    func bool(_ column: Int32) -> Bool { int(column).map { $0 != 0 } ?? false }

    /// The number of a `REAL` or `INTEGER` column, or `nil` for any other (like
    /// ``SQLValue/real``).
    func real(_ column: Int32) -> Double? {
      switch sqlite3_column_type(statement, base + column) {
      case SQLITE_FLOAT, SQLITE_INTEGER: return sqlite3_column_double(statement, base + column)
      default: return nil
      }
    }

    /// The bytes of a `BLOB` column, passed to `body` without a copy; `nil` when the column is
    /// not `BLOB`.
    func withBlob<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
      guard sqlite3_column_type(statement, base + column) == SQLITE_BLOB else { return nil }
      let bytes = sqlite3_column_blob(statement, base + column)
      let count = Int(sqlite3_column_bytes(statement, base + column))
      return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }

    /// The bytes of a `TEXT` column up to its first NUL, as ``text(_:)`` reads them, passed to
    /// `body` without making a `String`; `nil` when the column is not `TEXT`.
    func withText<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows
      -> R?
    {
      guard sqlite3_column_type(statement, base + column) == SQLITE_TEXT,
        let bytes = sqlite3_column_text(statement, base + column)
      else { return nil }
      let count = Int(sqlite3_column_bytes(statement, base + column))
      let end = memchr(bytes, 0, count).map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes) }
      return try body(UnsafeBufferPointer(start: bytes, count: end ?? count))
    }
  }

  private func prepared(_ sql: String, _ bindings: [SQLValue]) throws -> OpaquePointer {
    guard let handle else { throw ServerBeeSimulatorError(.storageFailed, "database closed") }
    let statement: OpaquePointer
    let key = StatementKey(sql)
    if let cached = statements[key] {
      statement = cached
    } else {
      var prepared: OpaquePointer?
      guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let prepared
      else { throw failure("prepare") }
      statements[key] = prepared
      statement = prepared
    }
    for (offset, value) in bindings.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .null: sqlite3_bind_null(statement, index)
      case .int(let v): sqlite3_bind_int64(statement, index, v)
      case .real(let v): sqlite3_bind_double(statement, index, v)
      case .text(let v): Self.bind(v, to: statement, at: index)
      case .blob(let v):
        v.withUnsafeBytes {
          _ = sqlite3_bind_blob(
            statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
        }
      }
    }
    return statement
  }

  /// Binds a text parameter: the bytes up to the first NUL, as SQLite reads a C string.
  ///
  /// From the string's own UTF-8 when it has contiguous storage (a native string does): making
  /// a C string made an array per bound text and SQLite measured it again.
  private static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) {
    let bound = text.utf8.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress else {
        return sqlite3_bind_text(statement, index, "", 0, csqlite_transient())
      }
      let end = memchr(base, 0, bytes.count).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sqlite3_bind_text(statement, index, $0, Int32(end ?? bytes.count), csqlite_transient())
      }
    }
    if bound == nil { sqlite3_bind_text(statement, index, text, -1, csqlite_transient()) }
  }

  /// A statement's SQL as the key of the statement cache, hashed by its length and a few of
  /// its bytes instead of all of them.
  ///
  /// Every query looks its statement up, and hashing the whole text (often 200 bytes and
  /// more) cost more than the lookup's other work together. Texts that agree on the bytes
  /// hashed are still told apart by `==`, which for the same stored text (the SQL of a
  /// `static let`, as nearly every hot statement is) is a comparison of references.
  private struct StatementKey: Hashable {
    let sql: String

    init(_ sql: String) { self.sql = sql }

    static func == (lhs: StatementKey, rhs: StatementKey) -> Bool { lhs.sql == rhs.sql }

    func hash(into hasher: inout Hasher) {
      var sql = sql
      sql.withUTF8 { bytes in
        hasher.combine(bytes.count)
        // Eight bytes at five places: the start, three quarters and the end.
        guard bytes.count >= 8, let base = bytes.baseAddress else {
          hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
          return
        }
        let raw = UnsafeRawPointer(base)
        for place in 0...4 {
          let offset = (bytes.count - 8) * place / 4
          hasher.combine(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
      }
    }
  }

  /// A number that changes whenever a row of `servers` is written, whatever the statement
  /// (SQLite's update hook counts them), for caches of what is read from that table alone;
  /// `nil` inside a transaction, whose writes may still be rolled back.
  ///
  /// Why not every table's count: each authenticated request writes its login's
  /// `last_used_at`, so a version moved by any write made nearly every `GET /api/servers` a
  /// miss. A rolled-back write still moves this one, which only costs a re-read. What the hook
  /// does not see (see ``ServerRowChanges``) nothing in the simulator writes.
  var serversVersion: Int64? {
    serial {
      guard let handle, sqlite3_get_autocommit(handle) != 0 else { return nil }
      return serverWrites
    }
  }

  /// A number that changes whenever a row of ``accountTables`` is written, whatever the
  /// statement (the update hook), or a transaction is rolled back (the rollback hook): the
  /// version of what ``VersionedCache`` keeps of who a token stands for. Unlike
  /// ``serversVersion`` it is usable inside a transaction: a value read there after the
  /// transaction's own writes is dropped by the version a rollback moves.
  var accountsVersion: Int64 {
    serial { accountWrites &+ rollbacks }
  }

  /// As ``accountsVersion``, moved by rows of `push_registrations` too: the version of
  /// whether a queued push may still be sent. (A sum of counts that only grow changes
  /// whenever one of them does.)
  var eligibilityVersion: Int64 {
    serial { accountWrites &+ registrationWrites &+ rollbacks }
  }

  /// The rows of `servers` written since the last call (or since the database was opened),
  /// and forgets them.
  func takeServerChanges() -> ServerRowChanges {
    serial {
      defer { serverChanges = ServerRowChanges() }
      return serverChanges
    }
  }

  func scalar(_ sql: String, _ bindings: [SQLValue] = []) throws -> SQLValue {
    try query(sql, bindings).first?.values.values.first ?? .null
  }

  private func failure(_ stage: String) -> ServerBeeSimulatorError {
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no handle"
    return ServerBeeSimulatorError(.storageFailed, "SQLite \(stage) failed: \(message)")
  }
}
