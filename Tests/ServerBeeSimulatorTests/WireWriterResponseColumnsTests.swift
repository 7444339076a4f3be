import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

/// `GET /api/servers` written straight from SQLite's rows and times written from integers
/// against the generic encoder of ``ServerRow``s read by name, the reading the list
/// went through before, on rows of every odd kind; and the servers cache kept across writes to
/// other tables.
@Suite(.timeLimit(.minutes(5))) struct WireWriterResponseColumnsTests {
  /// The list as it was written before: rows read by name, `ServerResponse`s, `WireJSON`.
  private func reference(_ db: Database) throws -> Data {
    let rows = try db.query("SELECT * FROM servers ORDER BY weight DESC, created_at DESC")
      .map(ServerRow.init)
    return try WireJSON.encode(APIResponse(data: rows.map(\.response)))
  }

  @Test func oddRowsAreWrittenAsTheEncoderWritesThem() throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 30)
    let db = h.simulator.core.db
    let edits = [
      "UPDATE servers SET name = 'quote \" back \\ slash' WHERE rowid = 1",
      "UPDATE servers SET name = 'tab' || char(9) || 'x' || char(1), os = 'Zürich 東京 🐝' "
        + "WHERE rowid = 2",
      "UPDATE servers SET name = CAST(X'61FF62C3' AS TEXT), region = CAST(X'41004243' AS TEXT) "
        + "WHERE rowid = 3",
      "UPDATE servers SET cpu_name = 'a/b' || char(127), country_code = '', ipv6 = '::1', "
        + "remark = 'r', public_remark = 'p\"', virtualization = 'kvm' WHERE rowid = 4",
      "UPDATE servers SET cpu_name = NULL, os = NULL, cpu_cores = NULL, mem_total = NULL, "
        + "swap_total = NULL, disk_total = NULL, kernel_version = NULL, agent_version = NULL, "
        + "cpu_arch = NULL WHERE rowid = 5",
      "UPDATE servers SET name = 42, group_id = 1.5, region = X'00', weight = 'w' WHERE rowid = 6",
      "UPDATE servers SET id = NULL, capabilities = 'c', protocol_version = 2.5, hidden = 1 "
        + "WHERE rowid = 7",
      "UPDATE servers SET capabilities = 4294967297 + rowid, protocol_version = -2 "
        + "WHERE rowid = 8",
      "UPDATE servers SET online = 0, updated_at = 1799999999123456789 WHERE rowid % 4 = 0",
      "UPDATE servers SET created_at = -1, updated_at = 1000 WHERE rowid = 9",
      "UPDATE servers SET created_at = 1799999999123000000, updated_at = 1799999999000123000 "
        + "WHERE rowid = 10",
      "UPDATE servers SET created_at = 'x', updated_at = 1.5 WHERE rowid = 11",
      "UPDATE servers SET created_at = 951782400000000000, updated_at = -9223372036854775807 "
        + "WHERE rowid = 12",
      "UPDATE servers SET features_json = '[\"x\",\"y\"]' WHERE rowid = 15",
      "UPDATE servers SET features_json = '[\"q\\\"\"]' WHERE rowid = 17",
      "UPDATE servers SET features_json = 7 WHERE rowid = 18",
      "UPDATE servers SET features_json = '[1]' WHERE rowid = 19",
      "UPDATE servers SET weight = rowid % 3, cpu_cores = -1 WHERE rowid > 20",
    ]
    for edit in edits { try db.execute(edit) }
    let direct = try db.serial { try WireWriter.serverList(rowsOf: db) }
    #expect(direct == (try reference(db)))
    let text = String(decoding: direct, as: UTF8.self)
    #expect(text.contains("\"quote \\\" back \\\\ slash\""))
    #expect(text.contains("\"created_at\":\"1969-12-31T23:59:59.999999999Z\""))
  }

  @Test func aSimulatedFleetIsWrittenAsTheEncoderWritesIt() throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 40)
    try h.simulator.tick()
    let db = h.simulator.core.db
    #expect(try db.serial { try WireWriter.serverList(rowsOf: db) } == (try reference(db)))
    try db.execute("DELETE FROM servers WHERE rowid > 0")
    #expect(try db.serial { try WireWriter.serverList(rowsOf: db) } == (try reference(db)))
  }

  @Test func timesAreWrittenAsRFC3339TimestampFormatsThem() {
    var generator = SystemRandomNumberGenerator()
    var nanos: [Int64] = [
      0, 1, -1, 999_999_999, -1_000_000_000, 1_000_000, 1_000, 123_456_789_000_000_000,
      951_782_400_000_000_000, 951_868_799_999_999_999, 4_102_444_800_000_000_000, .max, .min,
      .min + 1,
    ]
    for _ in 0..<20_000 {
      let value = Int64.random(in: .min ... .max, using: &generator)
      nanos.append(value)
      nanos.append(value / 1_000 * 1_000)
      nanos.append(value / 1_000_000 * 1_000_000)
      nanos.append(value / 1_000_000_000 * 1_000_000_000)
    }
    for value in nanos {
      for style in [RFC3339Timestamp.Style.zulu, .utcOffset] {
        var writer = WireWriter()
        writer.timestamp(nanos: value, style)
        let expected = "\"" + timestamp(value, style).description + "\""
        #expect(writer.text == expected, "\(value)")
      }
    }
    for stamp in [
      RFC3339Timestamp(secondsSince1970: 253_402_300_800),
      RFC3339Timestamp(secondsSince1970: -62_135_596_801, nanoseconds: 5, style: .utcOffset),
      RFC3339Timestamp(secondsSince1970: .max / 2), RFC3339Timestamp(secondsSince1970: 0),
    ] {
      var writer = WireWriter()
      writer.timestamp(stamp)
      #expect(writer.text == "\"" + stamp.description + "\"")
    }
  }

  @Test func plainTextIsFoundEightBytesAtATimeAsByteByByte() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [UInt8] = [
      0x00, 0x1F, 0x20, 0x21, 0x22, 0x41, 0x5C, 0x7E, 0x7F, 0x80, 0xC3, 0xFF,
    ]
    for round in 0..<20_000 {
      let length = round % 40
      var bytes = (0..<length).map { _ in UInt8(ascii: "a") }
      if length > 0, round % 3 != 0 {
        bytes[Int.random(in: 0..<length, using: &generator)] =
          alphabet.randomElement(using: &generator) ?? 0
      }
      let expected = !bytes.contains { $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C }
      #expect(bytes.withUnsafeBufferPointer { WireWriter.isPlainASCII($0) } == expected)
    }
  }

  @Test func theListIsKeptAcrossWritesToOtherTables() async throws {
    let h = try Harness { $0.cachesAnswers = true }
    await h.user("admin")
    _ = try h.simulator.createServers(count: 3)
    let core = h.simulator.core
    let db = core.db
    let before = try #require(db.serversVersion)
    try db.execute("UPDATE mobile_sessions SET last_used_at = 5")
    #expect(db.serversVersion == before)
    try db.execute("UPDATE servers SET name = 'moved' WHERE rowid = 1")
    let after = try #require(db.serversVersion)
    #expect(after != before)
    // A write rolled back still moves it: a re-read, never a stale answer.
    _ = try? db.transaction {
      try db.execute("UPDATE servers SET name = 'undone' WHERE rowid = 2")
      #expect(db.serversVersion == nil)
      throw ServerBeeSimulatorError(.storageFailed, "roll back")
    }
    #expect(db.serversVersion != after)
  }
}
