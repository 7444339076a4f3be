import Foundation
import ServerBeeModels
import Testing

@testable import RealtimeStream

@Suite struct LiveFrameDecoderTests {
  /// Re-encodes with the server writer, so values holding NaN (from `null`) compare too.
  private func bytes(_ message: LiveStreamMessage) throws -> String {
    String(decoding: try WireJSON.encode(message), as: UTF8.self)
  }

  /// The fast path must read the frame (not fall back) and agree with the Codable models.
  private func expectFastPathAgrees(
    _ frame: String, sourceLocation: SourceLocation = #_sourceLocation
  )
    throws
  {
    var copy = frame
    let fast = copy.withUTF8 { FastFrameReader.read($0) }
    let slow = try LiveStreamMessage(decoding: Data(frame.utf8))
    let decoded = try #require(fast, "the fast path fell back", sourceLocation: sourceLocation)
    #expect(try bytes(decoded) == bytes(slow), sourceLocation: sourceLocation)
  }

  private static func randomServer(_ i: Int, using rng: inout some RandomNumberGenerator)
    -> ServerStatus
  {
    let offer =
      i % 3 == 0
      ? OutstandingOffer(
        id: UUID().uuidString.lowercased(), codePrefix: "sb_enr_ab",
        expiresAt: RFC3339Timestamp(secondsSince1970: 1_774_700_000, nanoseconds: 123_000_000),
        createdAt: RFC3339Timestamp(secondsSince1970: 1_774_690_000))
      : nil
    return ServerStatus(
      id: UUID().uuidString.lowercased(), name: i % 4 == 0 ? "新加坡-BGP-\(i)" : "vps \"\(i)\"",
      online: i % 5 != 0, lastActive: 1_774_692_930,
      uptime: Int64.random(in: 0...40_000_000, using: &rng),
      cpu: Double(Float.random(in: 0...100, using: &rng)),
      memUsed: Int64.random(in: 0...1 << 40, using: &rng),
      memTotal: 1 << 40, swapUsed: 0, swapTotal: 1 << 30, diskUsed: 12_364_384_566_978,
      diskTotal: 99_999_999_999_999, netInSpeed: 493_677, netOutSpeed: 3_565_487,
      netInTransfer: 16_583_212, netOutTransfer: 11_126_617_438,
      load1: Double(Int.random(in: 0...900, using: &rng)) / 100, load5: 0.53, load15: 1e-7,
      tcpConn: 9, udpConn: 223, processCount: 886, cpuName: i % 2 == 0 ? "Apple M2 Pro" : nil,
      os: "Alpine Linux v3.20", region: "São Paulo", countryCode: "BR",
      groupID: i % 2 == 0 ? UUID().uuidString.lowercased() : nil,
      features: i % 3 == 0 ? ["docker"] : [], diskReadBytesPerSec: 0,
      diskWriteBytesPerSec: 55_684, tags: ["monitoring", "web"], cpuCores: i % 2 == 0 ? 8 : nil,
      agentAuthority: AgentAuthority(
        status: offer == nil ? .claimed : .unclaimed, outstandingOffer: offer),
      hasToken: offer == nil, outstandingEnrollment: offer)
  }

  @Test func fullSyncWrittenByTheServerWriterDecodesIdenticallyOnTheFastPath() throws {
    var rng = SystemRandomNumberGenerator()
    let servers = (0..<200).map { Self.randomServer($0, using: &rng) }
    let frame = try bytes(.fullSync(FullSync(servers: servers, upgrades: [])))
    try expectFastPathAgrees(frame)
  }

  @Test(arguments: [
    // The contract's update example.
    #"{"type":"update","servers":[{"id":"c2f1","name":"vps-a","online":true,"last_active":1774692930,"uptime":86400,"cpu":12.5,"mem_used":2147483648,"swap_used":0,"disk_used":21474836480,"net_in_speed":10240,"net_out_speed":2048,"net_in_transfer":987654321,"net_out_transfer":123456789,"load1":0.42,"load5":0.3,"load15":0.25,"tcp_conn":37,"udp_conn":4,"process_count":182,"disk_read_bytes_per_sec":0,"disk_write_bytes_per_sec":40960}]}"#,
    // Partial, null floats, ints written as floats, keys out of order, an unknown key.
    #"{"type":"update","servers":[{"cpu":null,"id":"c2f1","name":"n","load1":null,"mem_used":4.0,"extra":{"x":[1]}}]}"#,
    // An empty full_sync, and one whose upgrades list is present.
    #"{"type":"full_sync","servers":[],"upgrades":[]}"#,
    #"{"type":"full_sync","servers":[],"upgrades":[{"server_id":"s1","job_id":"j1","target_version":"1.2.0","stage":"installing","status":"running","error":null,"backup_path":null,"started_at":"2026-03-28T10:15:30.123456789Z","finished_at":null}]}"#,
    // Whitespace and escapes.
    " { \"type\" : \"update\" , \"servers\" : [ { \"id\" : \"a\\u0062c\" , \"name\" : \"x\\ny\" } ] } ",
  ])
  func fastPathAgreesWithTheModels(frame: String) throws {
    try expectFastPathAgrees(frame)
  }

  @Test func aFullSyncServerWithNullFloatsKeepsNaN() throws {
    let frame =
      #"{"type":"full_sync","servers":[{"id":"a9d3","name":"offline-box","online":false,"last_active":1774600000,"uptime":0,"cpu":null,"mem_used":0,"mem_total":0,"swap_used":0,"swap_total":0,"disk_used":0,"disk_total":0,"net_in_speed":0,"net_out_speed":0,"net_in_transfer":0,"net_out_transfer":0,"load1":null,"load5":0.0,"load15":0.0,"tcp_conn":0,"udp_conn":0,"process_count":0,"cpu_name":null,"os":null,"region":null,"country_code":null,"group_id":null,"features":[],"disk_read_bytes_per_sec":0,"disk_write_bytes_per_sec":0,"tags":[],"cpu_cores":null,"agent_authority":{"status":"claimed","outstanding_offer":null},"has_token":true,"outstanding_enrollment":null}],"upgrades":[]}"#
    try expectFastPathAgrees(frame)
    guard case .fullSync(let sync) = try LiveFrameDecoder.decode(frame) else {
      Issue.record("not a full_sync")
      return
    }
    #expect(sync.servers[0].cpu?.isNaN == true)
    #expect(sync.servers[0].load5 == 0)
  }

  @Test(arguments: [
    #"{"servers":[],"type":"full_sync","upgrades":[]}"#,
    #"{"type":"server_offline","server_id":"s1"}"#,
    #"{"type":"future_thing","x":1}"#,
    #"{"no_type":true}"#,
  ])
  func otherFramesFallBackToTheModels(frame: String) throws {
    var copy = frame
    #expect(copy.withUTF8 { FastFrameReader.read($0) } == nil)
    // Compared as values: unknown frames keep their JSON, whose member order is not stable.
    #expect(try LiveFrameDecoder.decode(frame) == LiveStreamMessage(decoding: Data(frame.utf8)))
  }

  @Test func unknownAndMissingTypesAreUnknownMessages() throws {
    guard case .unknown(let unknown) = try LiveFrameDecoder.decode(#"{"type":"future_thing"}"#)
    else {
      Issue.record("expected .unknown")
      return
    }
    #expect(unknown.type == "future_thing")
    guard case .unknown(let missing) = try LiveFrameDecoder.decode(#"{"servers":[]}"#) else {
      Issue.record("expected .unknown")
      return
    }
    #expect(missing.type == nil)
  }

  @Test func aMalformedKnownFrameThrowsAnErrorNamingTheField() {
    let frame = #"{"type":"update","servers":[{"id":"a","name":"n","tcp_conn":"many"}]}"#
    #expect {
      try LiveFrameDecoder.decode(frame)
    } throws: { error in
      let error = error as? ServerBeeModelsError
      return error?.code == .invalidField && error?.message.contains("tcp_conn") == true
    }
  }

  @Test func anEntryWithoutIDOrNameIsDroppedAndTheRestOfTheFrameKept() throws {
    let frame =
      #"{"type":"full_sync","servers":[{"name":"no id"},{"id":"a","name":"kept"},{"id":"b"}],"upgrades":[]}"#
    guard case .fullSync(let sync) = try LiveFrameDecoder.decode(frame) else {
      Issue.record("not a full_sync")
      return
    }
    #expect(sync.servers.map(\.id) == ["a"])
    #expect(sync.servers[0].cpu == nil)
    #expect(sync.servers[0].memTotal == nil)
    #expect(sync.servers[0].tags == nil)
    #expect(
      try LiveFrameDecoder.decode(#"{"type":"update","servers":[{"name":"x"}]}"#)
        == .update(MetricsUpdate(servers: [])))
  }

  @Test(arguments: [#"{"type":"update","servers":[{"id":"a","name":"n","cpu":"high"}]}"#, "{", ""])
  func garbageNeverCrashesAndIsATypedError(frame: String) {
    #expect(throws: ServerBeeModelsError.self) { try LiveFrameDecoder.decode(frame) }
  }
}
