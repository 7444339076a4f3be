import Foundation
import ServerBeeModels
import Testing

@Suite struct RealtimeLiveMetricsTests {
  private func update(_ text: String) throws -> LiveMetrics {
    guard case .update(let update) = try LiveStreamMessage(decoding: text) else {
      throw Fixtures.Missing(path: "an update frame")
    }
    return try #require(update.servers.first)
  }

  @Test func contractExampleHasTheTwentyOneKeysAndNoTotals() throws {
    let metrics = try update(Fixtures.text("realtime/update_contract_example.json"))
    #expect(metrics.id == "c2f1a7de-5b0e-4f51-9d7c-2f4a8e61b3c0")
    #expect(metrics.name == "vps-a")
    #expect(metrics.online == true)
    #expect(metrics.lastActive == 1_774_692_930)
    #expect(metrics.cpu == 12.5)
    #expect(metrics.memUsed == 2_147_483_648)
    #expect(metrics.load1 == 0.42)
    #expect(metrics.processCount == 182)
    #expect(metrics.diskWriteBytesPerSec == 40960)
    #expect(metrics.memTotal == nil)
    #expect(metrics.swapTotal == nil)
    #expect(metrics.diskTotal == nil)
  }

  @Test func benchUpdatesDecodeAndReencodeToTheSameBytes() throws {
    let lines = try Fixtures.lines("realtime/updates_bench_slice.jsonl")
    #expect(lines.count == 3)
    for line in lines {
      let metrics = try update(line)
      #expect(metrics.memTotal == nil)
      #expect(metrics.cpu != nil)
      #expect(try Fixtures.reencoded(LiveStreamMessage.self, text: line) == line)
    }
  }

  @Test func benchUpdateEntriesCarryExactlyTheTwentyOneKeys() throws {
    let keys = [
      "id", "name", "online", "last_active", "uptime", "cpu", "mem_used", "swap_used",
      "disk_used", "net_in_speed", "net_out_speed", "net_in_transfer", "net_out_transfer",
      "load1", "load5", "load15", "tcp_conn", "udp_conn", "process_count",
      "disk_read_bytes_per_sec", "disk_write_bytes_per_sec",
    ]
    for line in try Fixtures.lines("realtime/updates_bench_slice.jsonl") {
      let written = try WireJSON.decode(JSONValue.self, from: WireJSON.encode(update(line)))
      guard case .object(let members) = written else {
        Issue.record("an entry must encode as an object")
        continue
      }
      #expect(members.count == 21)
      #expect(Set(members.map(\.key)) == Set(keys))
    }
  }

  @Test func contractExampleReencodesToTheSameBytes() throws {
    let path = "realtime/update_contract_example.json"
    #expect(try Fixtures.reencoded(LiveStreamMessage.self, path) == Fixtures.text(path))
  }

  @Test func absentFieldsStayNilAndAreNotWritten() throws {
    let path = "realtime/update_partial.json"
    let metrics = try update(Fixtures.text(path))
    #expect(metrics.cpu == 0)
    #expect(metrics.memUsed == 0)
    #expect(metrics.tcpConn == 12)
    #expect(metrics.name == "vps-a")
    #expect(metrics.online == nil)
    #expect(metrics.uptime == nil)
    #expect(metrics.load1 == nil)
    #expect(metrics.diskReadBytesPerSec == nil)
    #expect(try Fixtures.reencoded(LiveStreamMessage.self, path) == Fixtures.text(path))
  }

  @Test func nullFloatsAreNaNNotAbsentAndWriteBackAsNull() throws {
    let path = "realtime/update_null_floats.json"
    let metrics = try update(Fixtures.text(path))
    #expect(metrics.cpu?.isNaN == true)
    #expect(metrics.load1?.isNaN == true)
    #expect(metrics.load5 == 0.3)
    #expect(try Fixtures.reencoded(LiveStreamMessage.self, path) == Fixtures.text(path))
  }

  @Test func integersSentAsFloatsDecode() throws {
    let metrics = try update(Fixtures.text("realtime/update_ints_as_floats.json"))
    #expect(metrics.lastActive == 1_774_692_930)
    #expect(metrics.uptime == 86400)
    #expect(metrics.cpu == 12)
    #expect(metrics.memUsed == 2_147_483_648)
    #expect(metrics.tcpConn == 37)
    #expect(metrics.processCount == 182)
  }

  @Test(arguments: [
    #"{"type":"update","servers":[{"id":"s","name":"n","tcp_conn":1.5}]}"#,
    #"{"type":"update","servers":[{"id":"s","name":"n","mem_used":1e30}]}"#,
  ])
  func numberThatDoesNotFitAnIntegerIsAnInvalidField(frame: String) throws {
    // Foundation on Linux gives no path here; WireJSON still must not call valid JSON malformed.
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: frame)
    }
    #expect(error.code == .invalidField)
  }

  @Test(arguments: [
    #"{"type":"update","servers":[{"name":"vps-a","cpu":1.0}]}"#,
    #"{"type":"update","servers":[{"id":"s","cpu":1.0}]}"#,
    #"{"type":"update","servers":[{"id":7,"name":"vps-a"}]}"#,
  ])
  func anUpdateEntryWithoutIDOrNameIsDropped(frame: String) throws {
    #expect(try LiveStreamMessage(decoding: frame) == .update(MetricsUpdate(servers: [])))
  }

  @Test func mergeNeverLetsAZeroCapacityReplaceAKnownTotal() {
    var status = ServerStatus(id: "s", name: "n", memTotal: 100, diskTotal: 500)
    status.merge(LiveMetrics(id: "s", name: "n", memTotal: 0, diskTotal: 0))
    #expect(status.memTotal == 100)
    #expect(status.diskTotal == 500)
    status.merge(LiveMetrics(id: "s", name: "n", memTotal: 200))
    #expect(status.memTotal == 200)
    var unknown = ServerStatus(id: "s", name: "n", memUsed: 5, memTotal: 0)
    #expect(unknown.memoryUsagePercent == nil)
    unknown.merge(LiveMetrics(id: "s", name: "n", memTotal: 0))
    #expect(unknown.memTotal == 0)
    #expect(ServerStatus(id: "s", name: "n", diskUsed: 1, diskTotal: 4).diskUsagePercent == 25)
  }

  @Test func mergeReplacesSentMetricsKeepsTheRestAndNeverTheName() throws {
    var status = ServerStatus(
      id: "s", name: "renamed-by-admin", online: false, cpu: 50, memUsed: 10, memTotal: 100,
      tcpConn: 5, tags: ["web"])
    status.merge(LiveMetrics(id: "s", name: "old-name", online: true, cpu: 0, tcpConn: 7))
    #expect(status.name == "renamed-by-admin")
    #expect(status.online == true)
    #expect(status.cpu == 0)
    #expect(status.tcpConn == 7)
    #expect(status.memUsed == 10)
    #expect(status.memTotal == 100)
    #expect(status.tags == ["web"])
  }

  @Test func aServerStatusNeedsOnlyIDAndNameAndAbsentIsNilNeverZero() throws {
    let server = #"{"id":"s","name":"n","online":true}"#
    let frame = #"{"type":"full_sync","servers":["# + server + #"],"upgrades":[]}"#
    guard case .fullSync(let sync) = try LiveStreamMessage(decoding: frame) else {
      Issue.record("not a full_sync")
      return
    }
    let status = try #require(sync.servers.first)
    #expect(status.online == true)
    #expect(status.lastActive == nil)
    #expect(status.memTotal == nil)
    #expect(status.cpu == nil)
    #expect(status.tags == nil)
    #expect(status.agentAuthority == nil)
  }

  @Test func serverStatusNullIntegerIsNil() throws {
    let data = try Fixtures.text("realtime/full_sync_edge.json")
      .replacingOccurrences(of: #""tcp_conn":0"#, with: #""tcp_conn":null"#)
    guard case .fullSync(let sync) = try LiveStreamMessage(decoding: data) else {
      Issue.record("not a full_sync")
      return
    }
    #expect(sync.servers[0].tcpConn == nil)
    #expect(sync.servers[0].udpConn == 0)
  }

  @Test(arguments: [
    (#""cpu_usage":5.5,"cpu":1.0"#, "cpu", 5.5), (#""cpu":1.0,"cpu_usage":5.5"#, "cpu", 5.5),
    (#""memory_used":7,"mem_used":1"#, "memUsed", 7), (#""memory_total":9"#, "memTotal", 9),
    (#""network_in":3"#, "netInSpeed", 3), (#""network_out":4"#, "netOutSpeed", 4),
    (#""tcp_count":11,"tcp_conn":1"#, "tcpConn", 11), (#""udp_count":12"#, "udpConn", 12),
    (#""cpu":2.0,"cpu":3.0"#, "cpu", 2),
  ])
  func legacyAliasesAreReadAndTheAliasWins(members: String, field: String, value: Double) throws {
    let frame = #"{"type":"full_sync","servers":[{"id":"s","name":"n","# + members + "}]}"
    guard case .fullSync(let sync) = try LiveStreamMessage(decoding: frame) else {
      Issue.record("not a full_sync")
      return
    }
    let status = try #require(sync.servers.first)
    let values: [String: Double?] = [
      "cpu": status.cpu, "memUsed": status.memUsed.map(Double.init),
      "memTotal": status.memTotal.map(Double.init),
      "netInSpeed": status.netInSpeed.map(Double.init),
      "netOutSpeed": status.netOutSpeed.map(Double.init),
      "tcpConn": status.tcpConn.map(Double.init), "udpConn": status.udpConn.map(Double.init),
    ]
    #expect(values[field] == value)
  }

  @Test(arguments: [
    (#"1774692930"#, Int64?.some(1_774_692_930)), (#""1774692930""#, 1_774_692_930),
    (#""2026-03-28T10:15:30Z""#, 1_774_692_930), (#"1774692930.0"#, 1_774_692_930),
    (#"1.5"#, nil), (#"true"#, nil), (#"null"#, nil), (#""soon""#, nil), (#"{"s":1}"#, nil),
  ])
  func lastActiveIsLenientAndAWrongTypeIsNil(value: String, expected: Int64?) throws {
    let frame = #"{"type":"update","servers":[{"id":"s","name":"n","last_active":"# + value + "}]}"
    guard case .update(let update) = try LiveStreamMessage(decoding: frame) else {
      Issue.record("not an update")
      return
    }
    #expect(update.servers.first?.lastActive == expected)
  }

  @Test func theCountryAliasFillsCountryCode() throws {
    let frame = #"{"type":"full_sync","servers":[{"id":"s","name":"n","country":"JP"}]}"#
    guard case .fullSync(let sync) = try LiveStreamMessage(decoding: frame) else {
      Issue.record("not a full_sync")
      return
    }
    #expect(sync.servers.first?.countryCode == "JP")
  }

  @Test func serverStatusBuiltInCodeEncodesInContractOrder() throws {
    let status = ServerStatus(id: "s", name: "n")
    let json = String(decoding: try WireJSON.encode(status), as: UTF8.self)
    let expected =
      #"{"id":"s","name":"n","cpu_name":null,"os":null,"region":null,"country_code":null,"#
      + #""group_id":null,"cpu_cores":null,"outstanding_enrollment":null}"#
    #expect(json == expected)
  }
}
