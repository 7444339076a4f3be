import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

/// `full_sync` written straight from SQLite's rows against the frame written from
/// ``ServerRow``s read by name, the reading every other path uses, on rows of every odd kind.
@Suite(.timeLimit(.minutes(5))) struct WireWriterStatusColumnsTests {
  /// The frame as it was written before: rows read by name, then `ServerStatus`es.
  private func reference(_ core: SimulatorCore, seconds: Int64) throws -> String {
    let rows = try core.db.query("SELECT * FROM servers ORDER BY weight DESC, created_at DESC")
      .map(ServerRow.init)
    return try WireWriter.fullSync(FullSync(servers: rows.map { $0.status(nowSeconds: seconds) }))
  }

  @Test func oddRowsAreWrittenAsFromServerRows() throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 30)
    let db = h.simulator.core.db
    let edits = [
      // Escapes, control characters, non-ASCII, invalid UTF-8 and a NUL inside text.
      "UPDATE servers SET name = 'quote \" back \\ slash' WHERE rowid = 1",
      "UPDATE servers SET name = 'tab' || char(9) || 'x' || char(1), os = 'Zürich 東京 🐝' "
        + "WHERE rowid = 2",
      "UPDATE servers SET name = CAST(X'61FF62C3' AS TEXT), region = CAST(X'41004243' AS TEXT) "
        + "WHERE rowid = 3",
      "UPDATE servers SET cpu_name = 'a/b' || char(127), country_code = '' WHERE rowid = 4",
      // Missing or mistyped columns.
      "UPDATE servers SET cpu_name = NULL, os = NULL, cpu_cores = NULL, mem_total = NULL, "
        + "swap_total = NULL, disk_total = NULL WHERE rowid = 5",
      "UPDATE servers SET name = 42, group_id = 1.5, region = X'00' WHERE rowid = 6",
      "UPDATE servers SET id = NULL WHERE rowid = 7",
      // Offline with numbers kept, online without numbers, numbers in other forms.
      "UPDATE servers SET online = 0, updated_at = 1799999999123456789 WHERE rowid % 4 = 0",
      "UPDATE servers SET live_json = NULL WHERE rowid = 9",
      "UPDATE servers SET live_json = 'not json' WHERE rowid = 10",
      "UPDATE servers SET live_json = replace(live_json, ',', ', ') WHERE rowid = 11",
      "UPDATE servers SET live_json = replace(live_json, '\"cpu\":', '\"cpu\":1e-7,\"x\":') "
        + "WHERE rowid = 13",
      "UPDATE servers SET live_json = replace(live_json, '\"uptime\":', '\"uptime\":1') "
        + "WHERE rowid = 14",
      // String arrays: unsorted tags, escapes, other forms, not arrays.
      "UPDATE servers SET tags_json = '[\"b\",\"a\",\"é\",\"A\"]', features_json = '[\"x\",\"y\"]' "
        + "WHERE rowid = 15",
      "UPDATE servers SET tags_json = '[ \"z\" , \"a\" ]', features_json = '[\"q\\\"\"]' "
        + "WHERE rowid = 17",
      "UPDATE servers SET tags_json = 'null', features_json = 7 WHERE rowid = 18",
      "UPDATE servers SET tags_json = '{}', features_json = '[1]' WHERE rowid = 19",
      "UPDATE servers SET weight = rowid % 3, cpu_cores = -1 WHERE rowid > 20",
    ]
    for edit in edits { try db.execute(edit) }
    let core = h.simulator.core
    let seconds = core.now / SimulatorCore.second
    let direct = try core.fullSync()
    #expect(direct == (try reference(core, seconds: seconds)))
    #expect(direct.contains("\"quote \\\" back \\\\ slash\""))
  }

  @Test func aTickedFleetIsWrittenAsFromServerRows() throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 50)
    let db = h.simulator.core.db
    // Every online row has its numbers packed, so the frame below reads them, not live_json.
    #expect(
      try db.scalar("SELECT COUNT(*) FROM servers WHERE online = 1 AND live_numbers IS NULL").int
        == 0)
    #expect(try db.scalar("SELECT COUNT(*) FROM servers WHERE online = 1").int ?? 0 > 0)
    for _ in 0..<3 {
      try h.simulator.tick()
      h.clock.advance(by: 1)
      let core = h.simulator.core
      let direct = try core.fullSync()
      #expect(direct == (try reference(core, seconds: core.now / SimulatorCore.second)))
    }
  }

  @Test func packedNumbersAreClearedWhenLiveJSONChangesWithoutThem() throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 4)
    let db = h.simulator.core.db
    try h.simulator.tick()
    try db.execute(
      "UPDATE servers SET live_json = replace(live_json, '\"cpu\":', '\"cpu\":1') WHERE rowid = 1")
    try db.execute("UPDATE servers SET name = 'other' WHERE rowid = 2")
    #expect(try db.scalar("SELECT live_numbers FROM servers WHERE rowid = 1") == .null)
    #expect(try db.scalar("SELECT length(live_numbers) FROM servers WHERE rowid = 2").int == 136)
    // Rows written before migration 7 have no packed numbers either.
    try db.execute("UPDATE servers SET live_numbers = NULL WHERE rowid = 3")
    let core = h.simulator.core
    let direct = try core.fullSync()
    #expect(direct == (try reference(core, seconds: core.now / SimulatorCore.second)))
  }

  @Test func packedNumbersReadBackExactly() {
    var numbers = LiveNumbers()
    numbers.uptime = .min
    numbers.cpu = -0.0
    numbers.memUsed = .max
    numbers.load1 = 0.1 + 0.2
    numbers.load15 = .greatestFiniteMagnitude
    numbers.diskWriteBytesPerSec = -7
    let packed = numbers.packed
    #expect(packed.count == LiveNumbers.packedSize)
    let read = packed.withUnsafeBytes { LiveNumbers(packed: $0) }
    #expect(read == numbers && read?.cpu.sign == .minus)
    #expect(
      packed.dropLast().withUnsafeBytes { LiveNumbers(packed: UnsafeRawBufferPointer($0)) } == nil)
  }

  @Test func aFrameIsSharedWithinItsSecondWithoutTheRowsCache() throws {
    // Explicitly on: the default follows SERVERBEE_SIMULATOR_CACHE.
    let h = try Harness { $0.cachesAnswers = true }
    _ = try h.simulator.createServers(count: 3)
    let core = h.simulator.core
    try core.db.execute("UPDATE servers SET name = 'changed' WHERE rowid = 1")
    let first = try core.fullSync()
    let version = try #require(core.db.serversVersion)
    #expect(
      core.serverCache.fullSync(at: version, seconds: core.now / SimulatorCore.second) == first)
    #expect(core.serverCache.rows(at: version) == nil)
    // Rows read later at the same version keep the frame.
    _ = try core.db.serial { try core.allServers() }
    #expect(core.serverCache.rows(at: version)?.count == 3)
    #expect(
      core.serverCache.fullSync(at: version, seconds: core.now / SimulatorCore.second) == first)
  }

  @Test func aDisabledCacheKeepsNothing() throws {
    let h = try Harness { $0.cachesAnswers = false }
    _ = try h.simulator.createServers(count: 3)
    let core = h.simulator.core
    let first = try core.fullSync()
    _ = try core.db.serial { try core.allServers() }
    let version = try #require(core.db.serversVersion)
    #expect(core.serverCache.fullSync(at: version, seconds: core.now / SimulatorCore.second) == nil)
    #expect(core.serverCache.rows(at: version) == nil)
    #expect(try core.fullSync() == first)
  }
}
