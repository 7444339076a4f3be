internal import CSQLite
internal import Foundation
internal import ServerBeeModels

/// A value bound to or read from an SQLite statement.
enum SQLiteValue: Equatable {
  case integer(Int64)
  case text(String)
  case blob([UInt8])
  case null
}

/// One SQLite connection. Not thread-safe: the owning store keeps it inside a ``Locked``.
final class SQLiteConnection {
  private let handle: OpaquePointer

  /// Opens (creating if needed) the database at `path` for reading and writing, or for reading
  /// only when the file system refuses writes.
  init(path: String) throws(SecureStoreError) {
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let error =
        db.map { Self.error(rc, $0, "opening the database") }
        ?? SecureStoreError(.storageFailed, "opening the database: SQLite error \(rc)")
      sqlite3_close_v2(db)
      throw error
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
  }

  deinit { sqlite3_close_v2(handle) }

  /// Whether SQLite opened the file read-only because it is not writable.
  var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Whether a transaction is open.
  var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Keeps the `-wal` and `-shm` files when the last connection closes, so the database stays
  /// readable from a directory that later becomes read-only (a WAL database cannot be opened
  /// when those files are missing and cannot be created).
  func persistWriteAheadLog() {
    var on: Int32 = 1
    sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
  }

  /// Runs one statement and returns its rows.
  @discardableResult
  func query(_ sql: String, _ parameters: [SQLiteValue] = [], operation: String)
    throws(SecureStoreError) -> [[SQLiteValue]]
  {
    var statement: OpaquePointer?
    var rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else {
      throw Self.error(rc, handle, operation)
    }
    defer { sqlite3_finalize(statement) }
    for (offset, parameter) in parameters.enumerated() {
      let index = Int32(offset + 1)
      switch parameter {
      case .integer(let value): rc = sqlite3_bind_int64(statement, index, value)
      case .text(let value):
        rc = sqlite3_bind_text(statement, index, value, -1, csqlite_transient())
      case .blob(let bytes):
        rc = bytes.withUnsafeBytes {
          sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
        }
      case .null: rc = sqlite3_bind_null(statement, index)
      }
      guard rc == SQLITE_OK else { throw Self.error(rc, handle, operation) }
    }
    var rows: [[SQLiteValue]] = []
    while true {
      rc = sqlite3_step(statement)
      if rc == SQLITE_DONE { return rows }
      guard rc == SQLITE_ROW else { throw Self.error(rc, handle, operation) }
      rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
    }
  }

  private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_TEXT:
      return sqlite3_column_text(statement, index).map { .text(String(cString: $0)) } ?? .null
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }

  /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when anything throws.
  ///
  /// `IMMEDIATE` takes the write lock up front, so a second process waits in the busy handler
  /// instead of failing with `SQLITE_BUSY` when a read transaction tries to upgrade.
  func writeTransaction<Result>(
    operation: String, _ body: () throws(SecureStoreError) -> Result
  ) throws(SecureStoreError) -> Result {
    try query("BEGIN IMMEDIATE", operation: operation)
    do {
      let result = try body()
      try query("COMMIT", operation: operation)
      return result
    } catch {
      // A failed COMMIT (SQLITE_FULL, SQLITE_BUSY) leaves the transaction open: end it so that
      // nothing of the batch is applied and the connection stays usable.
      if inTransaction { _ = try? query("ROLLBACK", operation: operation) }
      throw error
    }
  }

  /// Maps an SQLite result code to a store error; the message names the operation and SQLite's
  /// own text, which never contains bound values.
  static func error(_ rc: Int32, _ db: OpaquePointer, _ operation: String) -> SecureStoreError {
    let message = String(cString: sqlite3_errmsg(db))
    let systemErrno = sqlite3_system_errno(db)
    switch rc & 0xff {
    case SQLITE_READONLY, SQLITE_PERM:
      return SecureStoreError(.readOnly, "\(operation): \(message)")
    case SQLITE_FULL:
      return SecureStoreError(.diskFull, "\(operation): \(message)")
    case SQLITE_BUSY, SQLITE_LOCKED:
      return SecureStoreError(.busy, "\(operation): \(message)")
    case SQLITE_CORRUPT, SQLITE_NOTADB:
      return SecureStoreError(.corruptDatabase, "\(operation): \(message)")
    case SQLITE_CANTOPEN, SQLITE_IOERR:
      if systemErrno != 0 {
        let mapped = POSIX.error("\(operation): \(message)", errno: systemErrno)
        if mapped.code != .storageFailed { return mapped }
      }
      return SecureStoreError(.storageFailed, "\(operation): \(message) (SQLite \(rc))")
    default:
      return SecureStoreError(.storageFailed, "\(operation): \(message) (SQLite \(rc))")
    }
  }
}
