import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

/// How the schema collects its migrations: sorted by their explicit versions, and a
/// version claimed twice, a gap or a version below 1 fails before any statement runs.
@Suite(.timeLimit(.minutes(5))) struct MigrationOrderTests {
  private static func step(_ version: Int) -> Migration {
    Migration(version: version, ["CREATE TABLE t\(version) (id INTEGER)"])
  }

  @Test func migrationsFromSeveralListsComeOutInVersionOrder() throws {
    let ordered = try Schema.ordered([3, 1, 4, 2].map(Self.step))
    #expect(ordered.map(\.version) == [1, 2, 3, 4])
    #expect(try Schema.ordered([]).isEmpty)
  }

  @Test(
    arguments: [
      ([1, 2, 2, 3], MigrationOrderError.duplicateVersion(2)),
      ([1, 1], .duplicateVersion(1)),
      ([1, 2, 4], .missingVersion(3)),
      ([2, 3], .missingVersion(1)),
      ([0, 1], .invalidVersion(0)),
      ([-1, 1, 2], .invalidVersion(-1)),
    ])
  func aDuplicateAGapOrAVersionBelowOneIsRefused(versions: [Int], error: MigrationOrderError) {
    #expect(throws: error) { try Schema.ordered(versions.map(Self.step)) }
  }

  @Test func everyOrderErrorIsASentence() {
    for error in [MigrationOrderError.duplicateVersion(8), .missingVersion(3), .invalidVersion(0)] {
      let text = error.description
      #expect(text.first?.isUppercase == true && text.hasSuffix("."))
    }
  }

  /// The simulator's own list: versions 1 to N without a hole, which is what `user_version`
  /// has counted since the first migration, so every existing data directory still opens.
  @Test func theSimulatorsMigrationsAreOneToN() throws {
    let ordered = try Schema.ordered(Schema.allMigrations)
    #expect(ordered.map(\.version) == Array(1...ordered.count))
    #expect(Schema.migrations.count == ordered.count)
    #expect(ordered.count >= 9)
    // Each area's migrations are collected.
    for area in SimulatorCore.areas {
      for migration in area.migrations {
        #expect(ordered.contains(migration), "\(area): version \(migration.version)")
      }
    }
    #expect(AccountArea.migrations.map(\.version) == [8, 9])
  }

  /// Versions 1–9 as they were before areas owned migrations: the same statements,
  /// byte for byte, under the same versions, whichever list now declares them.
  @Test func theFirstNineVersionsAreUnchanged() throws {
    let ordered = try Schema.ordered(Schema.allMigrations).prefix(9)
    #expect(ordered.map(\.statements.count) == [20, 3, 5, 7, 1, 1, 2, 3, 1])
    let text = ordered.map { $0.statements.joined(separator: "\n") }.joined(separator: "\n")
    #expect(
      SHA256.hex(text) == "4a4b8f03f5272a3791aa276771069e634d6f7fdb250e5b29b68dda76d0f6bc61")
  }

  @Test func aBrokenListStopsMigrationBeforeAnyStatement() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let db = try Database(path: directory.appendingPathComponent("simulator.sqlite").path)
    defer { db.close() }
    let error = #expect(throws: ServerBeeSimulatorError.self) {
      try Schema.migrate(db, [Self.step(1), Self.step(2), Self.step(2)])
    }
    #expect(error?.code == .storageFailed)
    #expect(error?.underlying as? MigrationOrderError == .duplicateVersion(2))
    #expect(error?.message.hasSuffix("Two migrations claim schema version 2.") == true)
    #expect(try db.scalar("PRAGMA user_version").int == 0)
    #expect(try db.query("SELECT name FROM sqlite_master WHERE type = 'table'").isEmpty)
  }

  @Test func aValidListIsAppliedUpToItsLastVersion() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let db = try Database(path: directory.appendingPathComponent("simulator.sqlite").path)
    defer { db.close() }
    try Schema.migrate(db, [Self.step(2), Self.step(1)])
    #expect(try db.scalar("PRAGMA user_version").int == 2)
    // Applied again with one more: only the new version runs.
    try Schema.migrate(db, [Self.step(2), Self.step(1), Self.step(3)])
    #expect(try db.scalar("PRAGMA user_version").int == 3)
    let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    #expect(tables.compactMap { $0["name"].text } == ["t1", "t2", "t3"])
  }
}
