import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

/// The simulator's live-stream objects follow the ``MetricField`` table: every field
/// a `full_sync` entry carries is written under its canonical key, in table order, from each
/// of the simulator's sources, and every live number reaches the field of its name.
@Suite(.timeLimit(.minutes(5))) struct WireFieldTests {
  /// The canonical keys of the fields a model holds, in table order.
  private static func keys(_ holds: (MetricField) -> Bool) -> [String] {
    MetricField.allCases.filter(holds).map { "\($0.canonicalKey)" }
  }

  /// Numbers with a different value in every field, so a swapped field shows.
  private static func distinctNumbers() -> LiveNumbers {
    var live = LiveNumbers()
    live.uptime = 101
    live.cpu = 12.5
    live.memUsed = 103
    live.swapUsed = 104
    live.diskUsed = 105
    live.netInSpeed = 106
    live.netOutSpeed = 107
    live.netInTransfer = 108
    live.netOutTransfer = 109
    live.load1 = 1.25
    live.load5 = 1.5
    live.load15 = 1.75
    live.tcpConn = 113
    live.udpConn = 114
    live.processCount = 115
    live.diskReadBytesPerSec = 116
    live.diskWriteBytesPerSec = 117
    return live
  }

  @Test func theWriterTakesItsKeysFromTheTable() {
    #expect(WireField.status.map(\.field) == ServerStatus.layout.fields)
    #expect(WireField.status.map { "\($0.key)" } == Self.keys(ServerStatus.layout.holds))
    #expect(WireField.status.map(\.nullWhenNil) == WireField.status.map(\.field.writesNullWhenNil))
    #expect(WireField.status.filter(\.opensObject).map(\.field) == [.id])
    let split = WireField.statusOpening + [WireField.lastActive] + WireField.statusClosing
    #expect(split.map(\.field) == WireField.status.map(\.field))
  }

  @Test func everyFullSyncEntryCarriesEveryTableKeyInOrder() throws {
    let h = try Harness()
    _ = try h.simulator.createServers(count: 12)
    let db = h.simulator.core.db
    try h.simulator.tick()
    // Offline, and missing every nullable column: the keys stay, as `null`.
    try db.execute("UPDATE servers SET online = 0 WHERE rowid % 3 = 0")
    try db.execute(
      "UPDATE servers SET cpu_name = NULL, os = NULL, region = NULL, country_code = NULL, "
        + "group_id = NULL, cpu_cores = NULL, tags_json = 'null' WHERE rowid = 2")
    let expected = Self.keys(ServerStatus.layout.holds)
    #expect(expected.count == MetricField.allCases.count)
    let core = h.simulator.core
    // From the rows (what a frame inside a transaction is) and from the kept objects.
    let frames = [
      try db.serial {
        try WireWriter.fullSync(rowsOf: db, nowSeconds: core.now / SimulatorCore.second)
      },
      try core.fullSync(),
    ]
    for frame in frames {
      let objects = try Self.serverObjects(frame)
      #expect(objects.count == 12)
      for object in objects {
        #expect(WireWriterTests.topLevelKeys(of: object, after: "") == expected)
      }
    }
    // And from `ServerRow`, the reference path, through the table-driven `ServerStatus` writer.
    let rows = try db.serial { try core.allServers() }
    for row in rows {
      var writer = WireWriter()
      try writer.write(row.status(nowSeconds: 1))
      #expect(WireWriterTests.topLevelKeys(of: writer.data, after: "") == expected)
    }
  }

  @Test func anUpdateEntryCarriesIdentityPresenceAndEveryLiveNumber() throws {
    let live = Self.distinctNumbers()
    let metrics = live.metrics(id: "s1", name: "one", nowSeconds: 1_800_000_000)
    let frame = try WireJSON.encode(LiveStreamMessage.update(metrics))
    let expected = Self.keys { field in
      LiveMetrics.layout.holds(field)
        && (live.value(field) != nil || [.id, .name, .online, .lastActive].contains(field))
    }
    #expect(
      WireWriterTests.topLevelKeys(of: frame, after: #"{"type":"update","servers":["#) == expected)
    // No totals or static facts in an update (Protocol/LiveStream.md §6).
    #expect(metrics.memTotal == nil && metrics.diskTotal == nil && metrics.countryCode == nil)
    #expect(metrics.online == true && metrics.lastActive == 1_800_000_000)
    // The same numbers reach a `full_sync` entry.
    var status = ServerStatus.empty
    status.merge(metrics)
    #expect(status.cpu == 12.5 && status.udpConn == 114 && status.diskWriteBytesPerSec == 117)
  }

  /// Each stored number feeds the field of its own name, and only live numbers have a value.
  @Test func liveNumbersFeedTheFieldOfTheirName() throws {
    let live = Self.distinctNumbers()
    var named: [MetricField] = []
    for child in Mirror(reflecting: live).children {
      let label = try #require(child.label)
      let field = try #require(MetricField.allCases.first(where: { "\($0)" == label }), "\(label)")
      named.append(field)
      switch live.value(field) {
      case .integer(let number): #expect(child.value as? Int64 == number, "\(label)")
      case .float(let number): #expect(child.value as? Double == number, "\(label)")
      case nil: Issue.record("\(label) has no value")
      }
    }
    #expect(named.count == LiveNumbers.keys.count)
    #expect(MetricField.allCases.filter { live.value($0) != nil } == named)
  }

  /// The server objects of a `full_sync` frame, each as its own bytes.
  private static func serverObjects(_ frame: String) throws -> [Data] {
    let bytes = Array(frame.utf8)
    let prefix = Array(#"{"type":"full_sync","servers":["#.utf8)
    #expect(Array(bytes.prefix(prefix.count)) == prefix)
    var objects: [Data] = []
    var depth = 0
    var start = 0
    var inString = false
    var index = prefix.count
    while index < bytes.count {
      let byte = bytes[index]
      if inString {
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
        if depth == 0 { start = index }
        depth += 1
      } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
        if depth == 0 { break }
        depth -= 1
        if depth == 0 { objects.append(Data(bytes[start...index])) }
      }
      index += 1
    }
    return objects
  }
}
