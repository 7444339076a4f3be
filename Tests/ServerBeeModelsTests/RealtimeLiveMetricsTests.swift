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
    #expect(metrics.name == nil)
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
    #"{"type":"update","servers":[{"id":"s","tcp_conn":1.5}]}"#,
    #"{"type":"update","servers":[{"id":"s","mem_used":1e30}]}"#,
  ])
  func numberThatDoesNotFitAnIntegerIsAnInvalidField(frame: String) throws {
    // Foundation on Linux gives no path here; WireJSON still must not call valid JSON malformed.
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: frame)
    }
    #expect(error.code == .invalidField)
  }

  @Test func updateWithoutIDThrowsNamingTheField() throws {
    let frame = #"{"type":"update","servers":[{"name":"vps-a","cpu":1.0}]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: frame)
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("servers[0].id"))
  }

  @Test func mergeReplacesSentMetricsKeepsTheRestAndNeverTheName() throws {
    var status = ServerStatus(
      id: "s", name: "renamed-by-admin", online: false, cpu: 50, memUsed: 10, memTotal: 100,
      tcpConn: 5, tags: ["web"])
    status.merge(LiveMetrics(id: "s", name: "old-name", online: true, cpu: 0, tcpConn: 7))
    #expect(status.name == "renamed-by-admin")
    #expect(status.online)
    #expect(status.cpu == 0)
    #expect(status.tcpConn == 7)
    #expect(status.memUsed == 10)
    #expect(status.memTotal == 100)
    #expect(status.tags == ["web"])
  }

  @Test func serverStatusMissingFieldThrowsNamingIt() throws {
    let server = #"{"id":"s","name":"n","online":true}"#
    let frame = #"{"type":"full_sync","servers":["# + server + #"],"upgrades":[]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: frame)
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("servers[0].last_active"))
  }

  @Test func serverStatusNullIntegerIsAnInvalidField() throws {
    let data = try Fixtures.text("realtime/full_sync_edge.json")
      .replacingOccurrences(of: #""tcp_conn":0"#, with: #""tcp_conn":null"#)
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: data)
    }
    #expect(error.code == .invalidField)
    #expect(error.message.contains("servers[0].tcp_conn"))
  }

  @Test func serverStatusBuiltInCodeEncodesInContractOrder() throws {
    let status = ServerStatus(id: "s", name: "n")
    let json = String(decoding: try WireJSON.encode(status), as: UTF8.self)
    let expected =
      #"{"id":"s","name":"n","online":false,"last_active":0,"uptime":0,"cpu":0.0,"mem_used":0,"#
      + #""mem_total":0,"swap_used":0,"swap_total":0,"disk_used":0,"disk_total":0,"#
      + #""net_in_speed":0,"net_out_speed":0,"net_in_transfer":0,"net_out_transfer":0,"#
      + #""load1":0.0,"load5":0.0,"load15":0.0,"tcp_conn":0,"udp_conn":0,"process_count":0,"#
      + #""cpu_name":null,"os":null,"region":null,"country_code":null,"group_id":null,"#
      + #""features":[],"disk_read_bytes_per_sec":0,"disk_write_bytes_per_sec":0,"tags":[],"#
      + #""cpu_cores":null,"agent_authority":{"status":"unclaimed","outstanding_offer":null},"#
      + #""has_token":false,"outstanding_enrollment":null}"#
    #expect(json == expected)
  }
}
