import Foundation
import ServerBeeModels

/// The fast path of ``LiveFrameDecoder``: `full_sync` and `update` frames whose first key is
/// `type`. Returns `nil` for anything else — including any malformed or incomplete frame — so
/// the Codable path can produce the precise, field-naming error.
enum FastFrameReader {
  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> LiveStreamMessage? {
    var scanner = JSONScanner(bytes)
    do {
      try scanner.expect(UInt8(ascii: "{"))
      guard try scanner.readKeyEquals("type") else { return nil }
      let type = try scanner.readString()
      let message: LiveStreamMessage
      switch type {
      case "full_sync": message = try readFullSync(&scanner)
      case "update": message = try readUpdate(&scanner)
      default: return nil
      }
      try scanner.expectEnd()
      return message
    } catch {
      return nil
    }
  }

  /// The rest of `{"type":"full_sync", "servers":[…], "upgrades":[…]}` after the type.
  private static func readFullSync(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> LiveStreamMessage
  {
    var servers: [ServerStatus]?
    var upgrades: [UpgradeJob] = []
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers") {
        var list: [ServerStatus] = []
        list.reserveCapacity(1024)
        try s.readArray { (s) throws(JSONScanner.Failure) in list.append(try readServerStatus(&s)) }
        servers = list
      } else if key.equals("upgrades") {
        // Rare and small: decode with the models so every rule matches exactly.
        let start = s.index
        try s.skipValue()
        let slice = Data(UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]))
        guard let decoded = try? WireJSON.decode([UpgradeJob].self, from: slice) else {
          throw s.fail("upgrades")
        }
        upgrades = decoded
      } else {
        try s.skipValue()
      }
    }
    guard let servers else { throw s.fail("servers missing") }
    return .fullSync(FullSync(servers: servers, upgrades: upgrades))
  }

  private static func readUpdate(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> LiveStreamMessage
  {
    var servers: [LiveMetrics]?
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers") {
        var list: [LiveMetrics] = []
        try s.readArray { (s) throws(JSONScanner.Failure) in list.append(try readLiveMetrics(&s)) }
        servers = list
      } else {
        try s.skipValue()
      }
    }
    guard let servers else { throw s.fail("servers missing") }
    return .update(MetricsUpdate(servers: servers))
  }

  // MARK: ServerStatus

  /// Wire order of `ServerStatus` (wire contract v1 §4.5); keys are matched against the expected next one
  /// first, so a server-written object costs one comparison per key.
  private static let statusKeys: [StaticString] = [
    "id", "name", "online", "last_active", "uptime", "cpu", "mem_used", "mem_total", "swap_used",
    "swap_total", "disk_used", "disk_total", "net_in_speed", "net_out_speed", "net_in_transfer",
    "net_out_transfer", "load1", "load5", "load15", "tcp_conn", "udp_conn", "process_count",
    "cpu_name", "os", "region", "country_code", "group_id", "features",
    "disk_read_bytes_per_sec", "disk_write_bytes_per_sec", "tags", "cpu_cores",
    "agent_authority", "has_token", "outstanding_enrollment",
  ]

  /// Keys `ServerStatus` requires (everything but the nullable ones, which must still be
  /// present: serde writes `null`).
  private static let allStatusKeys: UInt64 = (1 << 35) - 1

  private static func keyIndex(
    _ key: UnsafeBufferPointer<UInt8>, in keys: [StaticString], expected: inout Int
  ) -> Int? {
    if expected < keys.count, key.equals(keys[expected]) {
      expected += 1
      return expected - 1
    }
    for (i, candidate) in keys.enumerated() where key.equals(candidate) {
      expected = i + 1
      return i
    }
    return nil
  }

  static func readServerStatus(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> ServerStatus
  {
    var status = ServerStatus(id: "", name: "")
    var seen: UInt64 = 0
    var expected = 0
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      guard let index = keyIndex(key, in: statusKeys, expected: &expected) else {
        try s.skipValue()
        return
      }
      seen |= 1 << UInt64(index)
      switch index {
      case 0: status.id = try s.readString()
      case 1: status.name = try s.readString()
      case 2: status.online = try s.readBool()
      case 3: status.lastActive = try s.readInt64()
      case 4: status.uptime = try s.readInt64()
      case 5: status.cpu = try s.readLenientDouble()
      case 6: status.memUsed = try s.readInt64()
      case 7: status.memTotal = try s.readInt64()
      case 8: status.swapUsed = try s.readInt64()
      case 9: status.swapTotal = try s.readInt64()
      case 10: status.diskUsed = try s.readInt64()
      case 11: status.diskTotal = try s.readInt64()
      case 12: status.netInSpeed = try s.readInt64()
      case 13: status.netOutSpeed = try s.readInt64()
      case 14: status.netInTransfer = try s.readInt64()
      case 15: status.netOutTransfer = try s.readInt64()
      case 16: status.load1 = try s.readLenientDouble()
      case 17: status.load5 = try s.readLenientDouble()
      case 18: status.load15 = try s.readLenientDouble()
      case 19: status.tcpConn = Int(try s.readInt64())
      case 20: status.udpConn = Int(try s.readInt64())
      case 21: status.processCount = Int(try s.readInt64())
      case 22: status.cpuName = try s.readOptionalString()
      case 23: status.os = try s.readOptionalString()
      case 24: status.region = try s.readOptionalString()
      case 25: status.countryCode = try s.readOptionalString()
      case 26: status.groupID = try s.readOptionalString()
      case 27: status.features = try readStrings(&s)
      case 28: status.diskReadBytesPerSec = try s.readInt64()
      case 29: status.diskWriteBytesPerSec = try s.readInt64()
      case 30: status.tags = try readStrings(&s)
      case 31: status.cpuCores = try s.consumeNull() ? nil : Int(try s.readInt64())
      case 32: status.agentAuthority = try readAgentAuthority(&s)
      case 33: status.hasToken = try s.readBool()
      default: status.outstandingEnrollment = try readOptionalOffer(&s)
      }
    }
    guard seen == allStatusKeys else { throw s.fail("a ServerStatus field is missing") }
    return status
  }

  private static func readStrings(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> [String] {
    var list: [String] = []
    try s.readArray { (s) throws(JSONScanner.Failure) in list.append(try s.readString()) }
    return list
  }

  private static func readAgentAuthority(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> AgentAuthority
  {
    var status: String?
    var offer: OutstandingOffer?
    var sawOffer = false
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      if key.equals("status") {
        status = try s.readString()
      } else if key.equals("outstanding_offer") {
        sawOffer = true
        offer = try readOptionalOffer(&s)
      } else {
        try s.skipValue()
      }
    }
    guard let status, sawOffer else { throw s.fail("agent_authority is incomplete") }
    return AgentAuthority(status: AgentAuthorityStatus(rawValue: status), outstandingOffer: offer)
  }

  private static func readOptionalOffer(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> OutstandingOffer?
  {
    if try s.consumeNull() { return nil }
    var id: String?
    var prefix: String?
    var expires: String?
    var created: String?
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      if key.equals("id") {
        id = try s.readString()
      } else if key.equals("code_prefix") {
        prefix = try s.readString()
      } else if key.equals("expires_at") {
        expires = try s.readString()
      } else if key.equals("created_at") {
        created = try s.readString()
      } else {
        try s.skipValue()
      }
    }
    guard let id, let prefix, let expires, let created,
      let expiresAt = try? RFC3339Timestamp(parsing: expires),
      let createdAt = try? RFC3339Timestamp(parsing: created)
    else { throw s.fail("outstanding offer is incomplete") }
    return OutstandingOffer(id: id, codePrefix: prefix, expiresAt: expiresAt, createdAt: createdAt)
  }

  // MARK: LiveMetrics

  private static let metricKeys: [StaticString] = [
    "id", "name", "online", "last_active", "uptime", "cpu", "mem_used", "swap_used", "disk_used",
    "net_in_speed", "net_out_speed", "net_in_transfer", "net_out_transfer", "load1", "load5",
    "load15", "tcp_conn", "udp_conn", "process_count", "disk_read_bytes_per_sec",
    "disk_write_bytes_per_sec", "mem_total", "swap_total", "disk_total",
  ]

  /// Reads an `update` entry with the rules of `LiveMetrics`: absent fields stay `nil`; a `null`
  /// float (non-finite on the server) is `.nan`; any other `null` is `nil`.
  static func readLiveMetrics(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> LiveMetrics {
    var metrics = LiveMetrics(id: "")
    var sawID = false
    var expected = 0
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      guard let index = keyIndex(key, in: metricKeys, expected: &expected) else {
        try s.skipValue()
        return
      }
      if index == 0 {
        metrics.id = try s.readString()
        sawID = true
        return
      }
      if try s.consumeNull() {
        switch index {
        case 5: metrics.cpu = .nan
        case 13: metrics.load1 = .nan
        case 14: metrics.load5 = .nan
        case 15: metrics.load15 = .nan
        default: break
        }
        return
      }
      switch index {
      case 1: metrics.name = try s.readString()
      case 2: metrics.online = try s.readBool()
      case 3: metrics.lastActive = try s.readInt64()
      case 4: metrics.uptime = try s.readInt64()
      case 5: metrics.cpu = try s.readDouble()
      case 6: metrics.memUsed = try s.readInt64()
      case 7: metrics.swapUsed = try s.readInt64()
      case 8: metrics.diskUsed = try s.readInt64()
      case 9: metrics.netInSpeed = try s.readInt64()
      case 10: metrics.netOutSpeed = try s.readInt64()
      case 11: metrics.netInTransfer = try s.readInt64()
      case 12: metrics.netOutTransfer = try s.readInt64()
      case 13: metrics.load1 = try s.readDouble()
      case 14: metrics.load5 = try s.readDouble()
      case 15: metrics.load15 = try s.readDouble()
      case 16: metrics.tcpConn = Int(try s.readInt64())
      case 17: metrics.udpConn = Int(try s.readInt64())
      case 18: metrics.processCount = Int(try s.readInt64())
      case 19: metrics.diskReadBytesPerSec = try s.readInt64()
      case 20: metrics.diskWriteBytesPerSec = try s.readInt64()
      case 21: metrics.memTotal = try s.readInt64()
      case 22: metrics.swapTotal = try s.readInt64()
      default: metrics.diskTotal = try s.readInt64()
      }
    }
    guard sawID else { throw s.fail("an update entry has no id") }
    return metrics
  }
}
