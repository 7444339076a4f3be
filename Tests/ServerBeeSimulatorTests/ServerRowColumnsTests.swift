import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

/// Server rows read by column index, `live_json` and the string arrays without JSONDecoder
/// against the dictionary-and-JSONDecoder reading they replace.
@Suite(.timeLimit(.minutes(5))) struct ServerRowColumnsTests {
  /// The fast reading, falling back to the reference, as ``ServerRow/init(_:)`` does.
  private func live(_ text: String) -> LiveNumbers? {
    var bytes = Array(text.utf8)
    bytes.append(0)
    let plain = bytes.withUnsafeBufferPointer {
      LiveNumbers(plainJSON: UnsafeBufferPointer(rebasing: $0[..<(text.utf8.count)]))
    }
    return plain ?? LiveNumbers(decoding: text)
  }

  private func strings(_ text: String) -> [String] {
    let bytes = Array(text.utf8)
    let plain = bytes.withUnsafeBufferPointer { ServerRow.plainStringArray($0) }
    return plain ?? ServerRow.decodedStrings(text)
  }

  @Test func liveNumbersWrittenByJSONEncoderReadAsJSONDecoderReadsThem() throws {
    var generator = SystemRandomNumberGenerator()
    let doubles: [Double] = [0, -0.0, 1, 0.1, 12.5, 1e-7, 1.5e300, -3.25, 123_456.789]
    let integers: [Int64] = [0, -1, 7, Int64.max, Int64.min, 1_234_567_890_123]
    for round in 0..<200 {
      var numbers = LiveNumbers()
      numbers.uptime = integers[round % integers.count]
      numbers.cpu =
        round < 50
        ? doubles[round % doubles.count] : Double.random(in: -1e9...1e9, using: &generator)
      numbers.memUsed = Int64.random(in: .min ... .max, using: &generator)
      numbers.swapUsed = integers[(round + 1) % integers.count]
      numbers.diskUsed = Int64(round)
      numbers.netInSpeed = -Int64(round)
      numbers.netOutSpeed = Int64.random(in: 0...1_000_000, using: &generator)
      numbers.netInTransfer = Int64.max - Int64(round)
      numbers.netOutTransfer = 3
      numbers.load1 = Double.random(in: 0...100, using: &generator)
      numbers.load5 = doubles[(round + 3) % doubles.count]
      numbers.load15 = Double(round) / 7
      numbers.tcpConn = 10
      numbers.udpConn = 0
      numbers.processCount = 123
      numbers.diskReadBytesPerSec = Int64(round) * 1000
      numbers.diskWriteBytesPerSec = 1
      let text = String(decoding: try JSONEncoder().encode(numbers), as: UTF8.self)
      let bytes = Array(text.utf8)
      let plain = bytes.withUnsafeBufferPointer { LiveNumbers(plainJSON: $0) }
      #expect(plain != nil, "the encoder's own form must take the fast path: \(text)")
      #expect(plain == LiveNumbers(decoding: text))
      #expect(plain == numbers)
    }
  }

  @Test func unusualLiveJSONReadsAsJSONDecoderReadsIt() throws {
    let base = String(decoding: try JSONEncoder().encode(LiveNumbers()), as: UTF8.self)
    func replacing(_ old: String, _ new: String) -> String {
      base.replacingOccurrences(of: old, with: new)
    }
    var odd: [String] = [base, " " + base, replacing(",", ", "), replacing("}", ",}")]
    odd += ["{}", "", "[]", "{", "}", "{\"uptime\"}", "{\"uptime\":}", "null"]
    odd.append(replacing("\"uptime\":0", "\"uptime\":1.0"))
    odd.append(replacing("\"uptime\":0", "\"uptime\":1e3"))
    odd.append(replacing("\"uptime\":0", "\"uptime\":-0"))
    odd.append(replacing("\"uptime\":0", "\"uptime\":01"))
    odd.append(replacing("\"uptime\":0", "\"uptime\":99999999999999999999"))
    odd.append(replacing("\"cpu\":0", "\"cpu\":1e400"))
    odd.append(replacing("\"cpu\":0", "\"cpu\":.5"))
    odd.append(replacing("\"cpu\":0", "\"cpu\":1."))
    odd.append(replacing("\"cpu\":0", "\"cpu\":-1.5E+2"))
    odd.append(replacing("\"cpu\":0", "\"cpu\":null"))
    odd.append(replacing("\"cpu\":0", "\"cpu\":\"1\""))
    odd.append(replacing("\"cpu\":0", "\"cpu\":0,\"cpu\":1"))
    odd.append(replacing("\"cpu\":0", "\"cpu\":0,\"extra\":1"))
    odd.append(replacing("\"cpu\":0,", ""))
    odd.append(replacing("\"cpu\"", "\"c\\u0070u\""))
    for text in odd {
      #expect(live(text) == LiveNumbers(decoding: text), "\(text)")
    }
  }

  @Test func stringArraysReadAsJSONDecoderReadsThem() {
    let arrays = [
      "[]", "[\"a\"]", "[\"a\",\"b\"]", "[\"Zürich 東京 🐝\",\"\"]", "[\"a\\\"b\"]",
      "[\"tab\\tx\"]", "[ \"a\" ]", "[\"a\",]", "[,]", "[\"a\"", "\"a\"]", "", "[\"\\u00e9\"]",
      "[1]", "[\"a\",\"b\",\"c\",\"d\",\"e\"]", "null", "[\"a\"\"b\"]",
    ]
    for text in arrays {
      #expect(strings(text) == ServerRow.decodedStrings(text), "\(text)")
    }
  }

  @Test func rowsReadByColumnWriteTheSameFullSyncAsRowsReadByName() async throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 40)
    let db = h.simulator.core.db
    try db.execute(
      "UPDATE servers SET tags_json = '[\"b\",\"a\"]', features_json = '[ \"x\" ]', "
        + "remark = 'r', hidden = 1, ipv6 = '::1' WHERE rowid % 3 = 0")
    try db.execute("UPDATE servers SET live_json = NULL, online = 0 WHERE rowid % 5 = 0")
    try db.execute(
      "UPDATE servers SET live_json = replace(live_json, ',', ', ') WHERE rowid % 7 = 0")
    let order = "ORDER BY weight DESC, created_at DESC"
    let byName = try db.query("SELECT * FROM servers \(order)").map(ServerRow.init)
    let byColumn = try db.read("SELECT \(ServerRow.columns) FROM servers \(order)") {
      ServerRow($0)
    }
    #expect(byColumn.count == 40)
    let seconds: Int64 = 1_800_000_000
    let expected = try WireWriter.fullSync(
      FullSync(servers: byName.map { $0.status(nowSeconds: seconds) }))
    let actual = try WireWriter.fullSync(
      FullSync(servers: byColumn.map { $0.status(nowSeconds: seconds) }))
    #expect(actual == expected)
    #expect(
      try WireWriter.serverList(byColumn.map(\.response))
        == WireWriter.serverList(byName.map(\.response)))
    #expect(byColumn.contains { $0.live == nil } && byColumn.contains { $0.live != nil })
  }

  @Test func aFullSyncFrameIsKeptForItsSecondUntilTheRowsChange() throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 5)
    let core = h.simulator.core
    func fresh() throws -> String {
      let seconds = core.now / SimulatorCore.second
      return try WireWriter.fullSync(
        FullSync(servers: core.allServers().map { $0.status(nowSeconds: seconds) }))
    }
    let first = try core.fullSync()
    let again = try core.fullSync()
    let written = try fresh()
    #expect(again == first && written == first)
    try core.db.execute("UPDATE servers SET name = 'renamed' WHERE rowid = 1")
    let renamed = try core.fullSync()
    let renamedFresh = try fresh()
    #expect(renamed != first && renamed == renamedFresh)
    #expect(renamed.contains("\"renamed\""))
    h.clock.advance(by: 1)
    let later = try core.fullSync()
    let laterFresh = try fresh()
    #expect(later != renamed && later == laterFresh)
  }
}
