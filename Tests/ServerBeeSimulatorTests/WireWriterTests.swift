import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// The direct writer of the server lists and `full_sync` against the generic encoder
/// it replaces: the same bytes for the same values, keys in the contract's order.
@Suite struct WireWriterTests {
  static let stamp = RFC3339Timestamp(secondsSince1970: 1_796_000_000, nanoseconds: 123_456_000)
  static let offer = OutstandingOffer(
    id: "offer-1", codePrefix: "AB12", expiresAt: stamp,
    createdAt: RFC3339Timestamp(secondsSince1970: 1_795_999_000))

  /// Odd strings: quotes, backslashes, control characters, `/`, non-ASCII, empty.
  static let strings = [
    "plain", "", "quote \" and \\ backslash", "tab\tnew\nline\r\u{08}\u{0C}\u{01}\u{1F}",
    "a/b", "Zürich 東京 🐝", "\u{7F}",
  ]

  static let doubles: [Double] = [
    0, -0.0, 1, 12.5, 0.1, 1e16, 1e20, 1.5e-7, -3.25, 123_456_789.123, .nan, .infinity,
    Double.greatestFiniteMagnitude,
  ]

  static let integers: [Int64] = [0, 7, -1, 10, 99, 100, Int64.max, Int64.min, -1_234_567]

  static func responses() -> [ServerResponse] {
    var all: [ServerResponse] = []
    for (index, text) in strings.enumerated() {
      let number = integers[index % integers.count]
      let double = doubles[index % doubles.count]
      let full = index % 2 == 0
      all.append(
        ServerResponse(
          id: "id-\(index)", name: text, cpuName: full ? text : nil,
          cpuCores: full ? Int(truncatingIfNeeded: number) : nil, cpuArch: full ? "x86_64" : nil,
          os: text, kernelVersion: full ? nil : text, memTotal: full ? number : nil,
          swapTotal: full ? nil : number, diskTotal: number, ipv4: full ? "10.0.0.1" : nil,
          ipv6: full ? nil : "::1", region: text, countryCode: full ? "DE" : nil,
          geoManual: full, virtualization: full ? "kvm" : nil, agentVersion: text,
          groupID: full ? nil : "group", weight: Int(truncatingIfNeeded: number), hidden: !full,
          remark: full ? text : nil, publicRemark: full ? nil : text, price: full ? double : nil,
          billingCycle: full ? "monthly" : nil, currency: full ? "EUR" : nil,
          expiredAt: full ? stamp : nil, trafficLimit: full ? number : nil,
          trafficLimitType: full ? "sum" : nil, billingStartDay: full ? 1 : nil,
          capabilities: Capabilities(rawValue: UInt32(index * 300)),
          agentLocalCapabilities: full ? .defaultMask : nil,
          effectiveCapabilities: full ? nil : Capabilities(rawValue: 2047),
          temporary: full
            ? [] : [TemporaryCapabilityGrant(cap: "exec", grantedAt: 1, expiresAt: 2)],
          protocolVersion: index, features: full ? [] : [text, "docker"],
          agentAuthority: full
            ? .simulated : AgentAuthority(status: .unclaimed, outstandingOffer: offer),
          hasToken: full, outstandingEnrollment: full ? nil : offer,
          createdAt: stamp,
          updatedAt: RFC3339Timestamp(
            secondsSince1970: 1_796_000_001, style: full ? .zulu : .utcOffset)))
    }
    return all
  }

  static func statuses() -> [ServerStatus] {
    var all: [ServerStatus] = []
    for (index, text) in strings.enumerated() {
      let number = integers[index % integers.count]
      let double = doubles[index % doubles.count]
      let full = index % 2 == 0
      all.append(
        ServerStatus(
          id: "id-\(index)", name: text, online: full ? true : (index % 3 == 0 ? nil : false),
          lastActive: number, uptime: full ? number : nil, cpu: double, memUsed: number,
          memTotal: full ? nil : number, swapUsed: number, swapTotal: number, diskUsed: number,
          diskTotal: number, netInSpeed: full ? number : nil, netOutSpeed: number,
          netInTransfer: number, netOutTransfer: full ? nil : number, load1: double,
          load5: full ? nil : double, load15: -double, tcpConn: Int(truncatingIfNeeded: number),
          udpConn: full ? 5 : nil, processCount: 131, cpuName: full ? text : nil,
          os: full ? nil : text, region: text, countryCode: full ? "DE" : nil,
          groupID: full ? nil : "g", features: full ? [] : (index % 3 == 0 ? nil : [text]),
          diskReadBytesPerSec: number, diskWriteBytesPerSec: full ? nil : number,
          tags: full ? [text, "b"] : nil, cpuCores: full ? 8 : nil,
          agentAuthority: full
            ? .simulated : (index % 3 == 0 ? nil : AgentAuthority(status: .unclaimed)),
          hasToken: full ? true : nil, outstandingEnrollment: full ? nil : offer))
    }
    return all
  }

  @Test func testPushStatusIsByteIdenticalToTheEncoder() throws {
    for (index, text) in Self.strings.enumerated() {
      let status = TestPushResponse(
        eventID: text, outcome: PushOutcome(rawValue: Self.strings[(index + 1) % 7]),
        reason: PushDeliveryReason(rawValue: Self.strings[(index + 2) % 7]),
        presentation: Self.strings[(index + 3) % 7])
      let reference = try WireJSON.encode(APIResponse(data: status))
      #expect(PushArea.reply(status).body == reference, "\(text)")
    }
    let queued = TestPushResponse(
      eventID: "0f8fad5b-d9cb-469f-a165-70867728950e", outcome: .pending, reason: "Queued")
    #expect(PushArea.reply(queued).body == (try WireJSON.encode(APIResponse(data: queued))))
    #expect(PushArea.reply(queued).headers["Content-Type"] == "application/json")
  }

  @Test func serverListIsByteIdenticalToTheEncoder() throws {
    let servers = Self.responses()
    let old = try WireJSON.encode(APIResponse(data: servers))
    #expect(try WireWriter.serverList(servers) == old)
    #expect(try WireWriter.serverList([]) == WireJSON.encode(APIResponse(data: [ServerResponse]())))
    for server in servers {
      #expect(try WireWriter.serverDetail(server) == WireJSON.encode(APIResponse(data: server)))
    }
  }

  @Test func fullSyncIsByteIdenticalToTheEncoder() throws {
    let upgrade = UpgradeJob(
      serverID: "id-1", jobID: "job", targetVersion: "1.5.0", stage: .downloading,
      status: .running, error: nil, backupPath: nil, startedAt: Self.stamp, finishedAt: nil)
    for sync in [
      FullSync(servers: Self.statuses()), FullSync(servers: []),
      FullSync(servers: Self.statuses(), upgrades: [upgrade]),
    ] {
      let old = try WireJSON.encode(LiveStreamMessage.fullSync(sync))
      #expect(Data(try WireWriter.fullSync(sync).utf8) == old)
    }
  }

  /// ``ShortFloat`` against `WireJSON.appendFloat` on the simulator's kind of values (a few
  /// decimals), on full-precision ones and on arbitrary bit patterns.
  @Test func shortFloatsAreWrittenAsTheReferenceWritesThem() {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] =
      Self.doubles + [
        0.001, 0.0001, 0.00011, 0.000999, 1e13, 1e13 - 0.5, 9_999_999_999_999.9, 0.1 + 0.2,
        1.0 / 3, 4_503_599_627_370_495.5, .leastNonzeroMagnitude, 123.456, 99.99, -0.5, 1e15 + 0.5,
      ]
    for round in 0..<20_000 {
      let decimals = round % 7
      let digits = Double(
        Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &generator))
      values.append(digits / ShortFloat.powersOfTen[decimals])
      values.append((Double.random(in: 0...100, using: &generator) * 100).rounded() / 100)
      values.append(Double.random(in: -1e6...1e6, using: &generator))
      values.append(Double(bitPattern: generator.next()))
    }
    var fastCount = 0
    var mismatches: [Double] = []
    for value in values {
      var fast: [UInt8] = []
      var reference: [UInt8] = []
      WireJSON.appendFloat(value, to: &reference)
      guard ShortFloat.append(value, to: &fast) else { continue }
      fastCount += 1
      if fast != reference { mismatches.append(value) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    #expect(fastCount > values.count / 2)
    // The simulator's CPU and load figures take the fast form.
    var bytes: [UInt8] = []
    for value in [26.2, 1.58, 0.05, 100.0, 0] { #expect(ShortFloat.append(value, to: &bytes)) }
    #expect(String(decoding: bytes, as: UTF8.self) == "26.21.580.05100.00.0")
  }

  @Test func simulatedFleetIsByteIdenticalToTheEncoder() async throws {
    let h = try Harness()
    await h.user("admin")
    let token = try #require(await h.login("admin").1).access
    let simulator = h.simulator
    try simulator.createServers(count: 5)
    try simulator.tick()
    let rows = try simulator.core.db.serial { try simulator.core.allServers() }
    let responses = rows.map(\.response)
    #expect(try WireWriter.serverList(responses) == WireJSON.encode(APIResponse(data: responses)))
    let sync = FullSync(servers: rows.map { $0.status(nowSeconds: 1_796_000_000) })
    #expect(
      try Data(WireWriter.fullSync(sync).utf8)
        == WireJSON.encode(LiveStreamMessage.fullSync(sync)))
    // The route answers with the same bytes.
    let reply = await h.send(.get, "/api/servers", bearer: token)
    #expect(reply.status == 200)
    #expect(reply.body == (try WireJSON.encode(APIResponse(data: responses))))
  }

  /// Protocol/Servers.md §1, "ServerResponse, in wire order".
  static let responseKeys = [
    "id", "name", "cpu_name", "cpu_cores", "cpu_arch", "os", "kernel_version", "mem_total",
    "swap_total", "disk_total", "ipv4", "ipv6", "region", "country_code", "geo_manual",
    "virtualization", "agent_version", "group_id", "weight", "hidden", "remark", "public_remark",
    "price", "billing_cycle", "currency", "expired_at", "traffic_limit", "traffic_limit_type",
    "billing_start_day", "capabilities", "agent_local_capabilities", "effective_capabilities",
    "temporary", "protocol_version", "features", "agent_authority", "has_token",
    "outstanding_enrollment", "created_at", "updated_at",
  ]

  /// Protocol/LiveStream.md §5, "ServerStatus … in wire order".
  static let statusKeys = [
    "id", "name", "online", "last_active", "uptime", "cpu", "mem_used", "mem_total", "swap_used",
    "swap_total", "disk_used", "disk_total", "net_in_speed", "net_out_speed", "net_in_transfer",
    "net_out_transfer", "load1", "load5", "load15", "tcp_conn", "udp_conn", "process_count",
    "cpu_name", "os", "region", "country_code", "group_id", "features",
    "disk_read_bytes_per_sec", "disk_write_bytes_per_sec", "tags", "cpu_cores",
    "agent_authority", "has_token", "outstanding_enrollment",
  ]

  @Test func keysFollowTheContractOrder() throws {
    let response = try #require(Self.responses().first)
    let list = try WireWriter.serverList([response])
    #expect(Self.topLevelKeys(of: list, after: #"{"data":["#) == Self.responseKeys)
    var status = try #require(Self.statuses().first)
    status.online = true
    status.uptime = 1
    status.memTotal = 1
    status.load5 = 1
    status.netOutTransfer = 1
    status.udpConn = 1
    status.features = []
    status.diskWriteBytesPerSec = 1
    let sync = Data(try WireWriter.fullSync(FullSync(servers: [status])).utf8)
    #expect(
      Self.topLevelKeys(of: sync, after: #"{"type":"full_sync","servers":["#) == Self.statusKeys)
  }

  /// The keys of the first object after `prefix`, outermost level only, in order.
  static func topLevelKeys(of json: Data, after prefix: String) -> [String] {
    let bytes = Array(json)
    var index = prefix.utf8.count
    var depth = 0
    var keys: [String] = []
    var inString = false
    var start = 0
    var expectKey = true
    while index < bytes.count {
      let byte = bytes[index]
      if inString {
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 1, expectKey {
            keys.append(String(decoding: bytes[start..<index], as: UTF8.self))
            expectKey = false
          }
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""):
          inString = true
          start = index + 1
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return keys }
        case UInt8(ascii: ","): if depth == 1 { expectKey = true }
        default: break
        }
      }
      index += 1
    }
    return keys
  }
}
