import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

/// `full_sync` and the `GET /api/servers` body joined from the kept server objects
/// (``ServerFragments``) against the ones written from the rows and from ``ServerRow``s, after
/// every kind of write to `servers`.
@Suite(.timeLimit(.minutes(5))) struct ServerFragmentsTests {
  /// No shared frame, so every `full_sync` below is joined from the fragments.
  private func makeHarness(servers: Int = 30) throws -> (Harness, SimulatorCore) {
    let h = try Harness { $0.cachesAnswers = false }
    _ = try h.simulator.createServers(count: servers)
    return (h, h.simulator.core)
  }

  /// Checks the joined frame against both references, at the core's current second.
  private func expectFramesMatch(
    _ core: SimulatorCore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let seconds = core.now / SimulatorCore.second
    let joined = try core.fullSync()
    let fromRows = try core.db.serial {
      try WireWriter.fullSync(rowsOf: core.db, nowSeconds: seconds)
    }
    let rows = try core.db.query(Self.referenceRows).map(ServerRow.init)
    let reference = try WireWriter.fullSync(
      FullSync(servers: rows.map { $0.status(nowSeconds: seconds) }))
    #expect(joined == fromRows, sourceLocation: sourceLocation)
    #expect(joined == reference, sourceLocation: sourceLocation)
  }

  /// Checks the list joined from the kept entries against both references.
  private func expectListsMatch(
    _ core: SimulatorCore, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (joined, fromRows) = try core.db.serial {
      let fragments = try #require(
        try core.serverCache.fragments.current(core.db, needing: .listEntry))
      return (WireWriter.serverList(fragments), try WireWriter.serverList(rowsOf: core.db))
    }
    let rows = try core.db.query(Self.referenceRows).map(ServerRow.init)
    var writer = WireWriter()
    writer.raw("{\"data\":[")
    for (index, row) in rows.enumerated() {
      if index > 0 { writer.raw(",") }
      try writer.write(row.response)
    }
    writer.raw("]}")
    let reference = writer.takeData()
    #expect(joined == fromRows, sourceLocation: sourceLocation)
    #expect(joined == reference, sourceLocation: sourceLocation)
  }

  @Test func joinedFramesMatchTheRowsAfterEveryKindOfWrite() throws {
    let (h, core) = try makeHarness()
    try expectFramesMatch(core)
    for edit in try edits(h, core) {
      try edit()
      try expectFramesMatch(core)
    }
  }

  @Test func joinedListsMatchTheRowsAfterEveryKindOfWrite() throws {
    let (h, core) = try makeHarness()
    try expectListsMatch(core)
    for edit in try edits(h, core) {
      try edit()
      try expectListsMatch(core)
      // The frames, joined from the same objects, stay right too.
      try expectFramesMatch(core)
    }
  }

  /// Every row by name, with its open offer, for the references.
  private static let referenceRows =
    "SELECT *, \(ServerRow.openOfferColumn) AS open_offer FROM servers "
    + "ORDER BY weight DESC, created_at DESC"

  /// Opens an offer for a server as the agents area does: the offer row, then the touch.
  private static func openOffer(_ core: SimulatorCore, _ serverID: String, _ id: String) throws {
    try core.db.execute(
      "INSERT INTO enrollment_offers VALUES (?, ?, 'hash', ?, 'outstanding', ?, ?)",
      [
        .text(id), .text(serverID), .text("pre\(id)"), .int(core.now + 600 * SimulatorCore.second),
        .int(core.now),
      ])
    try core.touchServer(serverID)
  }

  /// One write to `servers` of every kind, to run one after another.
  private func edits(_ h: Harness, _ core: SimulatorCore) throws -> [() throws -> Void] {
    let db = core.db
    let ids = try db.query("SELECT id FROM servers ORDER BY rowid").compactMap { $0["id"].text }
    let edits: [() throws -> Void] = [
      // Single rows rewritten in place, odd text included.
      { try db.execute("UPDATE servers SET name = 'quote \" back \\ slash' WHERE rowid = 1") },
      { try db.execute("UPDATE servers SET os = 'Zürich 東京 🐝', region = X'00' WHERE rowid = 2") },
      { try db.execute("UPDATE servers SET tags_json = '[\"b\",\"a\"]' WHERE rowid = 3") },
      { try db.execute("UPDATE servers SET live_json = 'not json' WHERE rowid = 4") },
      { try db.execute("UPDATE servers SET live_numbers = NULL WHERE rowid = 5") },
      { try db.execute("UPDATE servers SET group_id = 'g1', cpu_cores = NULL WHERE rowid = 6") },
      // Live numbers, presence, a new server (control API paths).
      { try core.applyMetrics(serverID: ids[7], LiveNumbers(uptime: 7, cpu: 12.5)) },
      { try core.setPresence(serverID: ids[8], online: false) },
      { try core.setPresence(serverID: ids[8], online: true) },
      { _ = try core.createServer(name: "late") },
      // Moves in the list: weight, created_at, ties.
      { try db.execute("UPDATE servers SET weight = 5 WHERE rowid = 10") },
      { try db.execute("UPDATE servers SET created_at = 0 WHERE rowid = 11") },
      { try db.execute("UPDATE servers SET weight = 5, created_at = 1 WHERE rowid IN (12, 13)") },
      // A rowid moved, a row deleted, many rows at once, a metrics tick.
      { try db.execute("UPDATE servers SET rowid = 1000 WHERE rowid = 14") },
      { try db.execute("DELETE FROM servers WHERE rowid = 15") },
      { try db.execute("UPDATE servers SET online = 0 WHERE rowid % 3 = 0") },
      { try h.simulator.tick() },
      // Authority (Protocol/Agents.md §1): unclaimed, an offer opened, ended, lapsed.
      { try db.execute("UPDATE servers SET agent_claimed = 0 WHERE rowid IN (20, 21)") },
      { try Self.openOffer(core, ids[19], "o-1") },
      { try Self.openOffer(core, ids[20], "o-2") },
      { try Self.openOffer(core, ids[22], "o-3") },
      {
        try db.execute("UPDATE enrollment_offers SET outcome = 'revoked' WHERE id = 'o-1'")
        try core.touchServer(ids[19])
      },
      {
        h.clock.advance(by: 601)
        try core.expireLapsedOffers()
      },
    ]
    return edits
  }

  @Test func keptObjectsFollowTheAuthorityOfTheirRows() throws {
    let (_, core) = try makeHarness(servers: 4)
    let id = try #require(try core.db.scalar("SELECT id FROM servers WHERE rowid = 2").text)
    try expectListsMatch(core)
    try expectFramesMatch(core)
    try core.db.execute("UPDATE servers SET agent_claimed = 0 WHERE rowid = 2")
    try Self.openOffer(core, id, "o-9")
    try expectListsMatch(core)
    try expectFramesMatch(core)
    let offer =
      #"{"id":"o-9","code_prefix":"preo-9","expires_at":"2027-01-15T08:10:00+00:00","#
      + #""created_at":"2027-01-15T08:00:00+00:00"}"#
    let authority = #""agent_authority":{"status":"unclaimed","outstanding_offer":\#(offer)}"#
    let frame = try core.fullSync()
    #expect(frame.contains(authority + #","has_token":false,"outstanding_enrollment":\#(offer)"#))
    #expect(frame.contains(#""agent_authority":{"status":"claimed","outstanding_offer":null}"#))
    let list = try core.db.serial {
      try #require(try core.serverCache.fragments.current(core.db, needing: .listEntry))
    }
    let body = String(decoding: try #require(WireWriter.serverList(list)), as: UTF8.self)
    #expect(body.contains(authority + #","has_token":false,"outstanding_enrollment":\#(offer)"#))
  }

  @Test func eachObjectIsKeptOnlyOnceSomethingAskedForIt() throws {
    let (h, core) = try makeHarness(servers: 10)
    let fragments = core.serverCache.fragments
    // A server's `full_sync` object is 500–1,000 bytes, its list entry 800–1,200.
    try expectListsMatch(core)
    let listsOnly = fragments.byteCount
    #expect(listsOnly > 10 * 800 && listsOnly < 10 * 1200)
    try core.db.serial {
      let kept = try #require(try fragments.current(core.db, needing: []))
      #expect(kept.allSatisfy { $0.head == nil && $0.listEntry != nil })
      // Without the objects a frame needs, no frame is joined (the caller writes it from the rows).
      #expect(WireWriter.fullSync(kept, nowSeconds: 0) == nil)
    }
    try h.simulator.tick()
    try expectFramesMatch(core)
    #expect(fragments.byteCount > listsOnly + 10 * 500)
    try h.simulator.tick()
    try expectListsMatch(core)
    try expectFramesMatch(core)
  }

  @Test func lastActiveFollowsTheClockWithoutAnyWrite() throws {
    let (h, core) = try makeHarness(servers: 5)
    try core.db.execute("UPDATE servers SET online = 0 WHERE rowid = 2")
    let first = try core.fullSync()
    h.clock.advance(by: 5)
    try expectFramesMatch(core)
    #expect(try core.fullSync() != first)
    #expect(core.db.takeServerChanges().isEmpty)
  }

  @Test func aRolledBackWriteLeavesNoStaleObject() throws {
    let (_, core) = try makeHarness(servers: 5)
    _ = try core.fullSync()
    struct Rollback: Error {}
    #expect(throws: Rollback.self) {
      try core.db.transaction {
        try core.db.execute("UPDATE servers SET name = 'uncommitted' WHERE rowid = 1")
        // Inside the transaction the frame comes from the rows, and nothing is kept.
        #expect(try core.fullSync().contains("uncommitted"))
        throw Rollback()
      }
    }
    try expectFramesMatch(core)
    #expect(!(try core.fullSync()).contains("uncommitted"))
  }

  @Test func theUpdateHookReportsServerRowsOnly() throws {
    let (_, core) = try makeHarness(servers: 3)
    let db = core.db
    _ = db.takeServerChanges()
    try db.execute("UPDATE servers SET name = 'x' WHERE rowid = 2")
    try db.execute("INSERT INTO server_groups VALUES ('g', 'n', 0, 0)")
    #expect(db.takeServerChanges() == ServerRowChanges(updated: [2], membershipChanged: false))
    try db.execute("DELETE FROM servers WHERE rowid = 3")
    #expect(db.takeServerChanges().membershipChanged)
    #expect(db.takeServerChanges().isEmpty)
  }

  @Test func aTickRewritesKeptObjectsAtOnce() throws {
    let (h, core) = try makeHarness(servers: 10)
    #expect(core.serverCache.fragments.byteCount == 0)
    try h.simulator.tick()
    // Nothing kept before the first `full_sync`, so the tick wrote none.
    #expect(core.serverCache.fragments.byteCount == 0)
    _ = try core.fullSync()
    let kept = core.serverCache.fragments.byteCount
    #expect(kept > 10 * 500 && kept < 10 * 1000)
    try h.simulator.tick()
    #expect(core.db.takeServerChanges().isEmpty)
    try expectFramesMatch(core)
  }
}
