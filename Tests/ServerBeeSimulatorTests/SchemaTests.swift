import Foundation
import Testing

@testable import ServerBeeSimulator

/// Migration 6, the index in server-list order: lists read through it come out in
/// the order the sort it replaces gave, ties included, and older data directories take it.
@Suite(.timeLimit(.minutes(5))) struct SchemaTests {
  @Test func theListIndexGivesTheOrderOfASortTiesIncluded() throws {
    // The manual clock does not move: every server has the same `created_at`.
    let h = try Harness()
    try h.simulator.createServers(count: 60)
    let db = h.simulator.core.db
    try db.execute("UPDATE servers SET weight = rowid % 4 WHERE rowid % 3 = 0")
    try db.execute("UPDATE servers SET created_at = created_at + rowid % 2 WHERE rowid % 5 = 0")
    let order = "ORDER BY weight DESC, created_at DESC"
    let plan = try db.query("EXPLAIN QUERY PLAN SELECT id FROM servers \(order)")
    #expect(plan.contains { $0["detail"].text?.contains("servers_list_order") == true })
    let indexed = try db.query("SELECT id FROM servers \(order)").map { $0["id"].text }
    let sorted = try db.query("SELECT id FROM servers NOT INDEXED \(order)").map { $0["id"].text }
    #expect(indexed.count == 60)
    #expect(indexed == sorted)
  }

  @Test func aVersion5DatabaseGetsTheIndexAndKeepsItsServers() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    do {
      let db = try Database(path: directory.appendingPathComponent("simulator.sqlite").path)
      defer { db.close() }
      for migration in Schema.migrations[0..<5] {
        for statement in migration { try db.execute(statement) }
      }
      try db.execute("PRAGMA user_version = 5")
      try db.execute(
        "INSERT INTO servers (id, name, created_at, updated_at) VALUES ('s', 'old', 1, 1)")
    }
    let h = try Harness(directory: directory)
    let db = h.simulator.core.db
    #expect(try db.scalar("PRAGMA user_version").int == Int64(Schema.migrations.count))
    let index = try db.scalar(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'servers_list_order'")
    #expect(index.text == "servers_list_order")
    #expect(try db.serial { try h.simulator.core.allServers() }.map(\.name) == ["old"])
  }
}
