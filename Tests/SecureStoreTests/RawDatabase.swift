import CSQLite
import Foundation
import Testing

/// Direct access to a store's SQLite file, to inspect and damage what the store wrote.
final class RawDatabase {
  private var handle: OpaquePointer?

  init(_ url: URL) throws {
    let rc = sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil)
    try #require(rc == SQLITE_OK, "sqlite3_open_v2 returned \(rc)")
    sqlite3_busy_timeout(handle, 5000)
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one statement; returns the first column of every row as text or bytes.
  @discardableResult
  func query(_ sql: String, _ blob: [UInt8]? = nil) throws -> [String] {
    var statement: OpaquePointer?
    try #require(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, "\(sql)")
    defer { sqlite3_finalize(statement) }
    if let blob {
      _ = blob.withUnsafeBytes {
        sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), csqlite_transient())
      }
    }
    var rows: [String] = []
    while true {
      let rc = sqlite3_step(statement)
      if rc == SQLITE_DONE { return rows }
      try #require(rc == SQLITE_ROW, "\(sql) stepped to \(rc)")
      rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
    }
  }

  /// The sealed bytes of one stored value.
  func sealed(group: String, name: String) throws -> [UInt8] {
    var statement: OpaquePointer?
    let sql = "SELECT sealed FROM credentials WHERE access_group = ? AND name = ?"
    try #require(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK)
    defer { sqlite3_finalize(statement) }
    sqlite3_bind_text(statement, 1, group, -1, csqlite_transient())
    sqlite3_bind_text(statement, 2, name, -1, csqlite_transient())
    try #require(sqlite3_step(statement) == SQLITE_ROW, "no row for \(group)/\(name)")
    let count = Int(sqlite3_column_bytes(statement, 0))
    let bytes = try #require(sqlite3_column_blob(statement, 0))
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// Replaces the sealed bytes of one stored value (inserting the row if needed).
  func setSealed(_ bytes: [UInt8], group: String, name: String) throws {
    try query(
      "INSERT OR REPLACE INTO credentials (access_group, name, sealed) VALUES ('\(group)', '\(name)', ?)",
      bytes)
  }
}
