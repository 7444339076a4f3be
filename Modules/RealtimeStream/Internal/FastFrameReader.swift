import ServerBeeModels

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The fast path of ``LiveFrameDecoder``: `full_sync` and `update` frames whose first key is
/// `type`. Returns `nil` for anything else — including any malformed or incomplete frame — so
/// the Codable path can produce the precise, field-naming error.
///
/// **Agreement with the Codable path.** Whenever this returns a message, `LiveStreamMessage`'s
/// Codable decoding returns the same one; when in doubt it returns `nil`. It therefore is
/// *stricter* than Foundation's JSONDecoder, which validates lazily (it accepts a trailing
/// comma, or invalid UTF-8 and leading zeros in a value nobody reads): anything this scanner
/// refuses simply goes the slow way. Field rules (aliases, absent = nil, first key wins, entries
/// without `id`/`name` dropped) come from `MetricField`, the table the models use.
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
    var upgrades: [UpgradeJob]?
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers"), servers == nil {
        var list: [ServerStatus] = []
        list.reserveCapacity(1024)
        try s.readArray { (s) throws(JSONScanner.Failure) in
          if let status = try readServerStatus(&s) { list.append(status) }
        }
        servers = list
      } else if key.equals("upgrades"), upgrades == nil {
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
    return .fullSync(FullSync(servers: servers, upgrades: upgrades ?? []))
  }

  private static func readUpdate(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> LiveStreamMessage
  {
    var servers: [LiveMetrics]?
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers"), servers == nil {
        var list: [LiveMetrics] = []
        try s.readArray { (s) throws(JSONScanner.Failure) in
          if let metrics = try readLiveMetrics(&s) { list.append(metrics) }
        }
        servers = list
      } else {
        try s.skipValue()
      }
    }
    guard let servers else { throw s.fail("servers missing") }
    return .update(MetricsUpdate(servers: servers))
  }

  // MARK: Server entries

  /// The order a current server writes `ServerStatus` keys in (wire contract v1 §4.5): `MetricField`'s case
  /// order. Keys are matched against the expected next one first, so a server-written object
  /// costs one comparison per key; anything else (aliases, other orders) is looked up in
  /// `MetricField.wireKeys`, the table the Codable models use.
  private static let statusOrder: [MetricField] = MetricField.allCases

  /// The order of the 21 `LiveMetrics` keys (wire contract v1 §4.6), then the totals a server might add.
  private static let metricsOrder: [MetricField] = [
    .id, .name, .online, .lastActive, .uptime, .cpu, .memUsed, .swapUsed, .diskUsed, .netInSpeed,
    .netOutSpeed, .netInTransfer, .netOutTransfer, .load1, .load5, .load15, .tcpConn, .udpConn,
    .processCount, .diskReadBytesPerSec, .diskWriteBytesPerSec, .memTotal, .swapTotal, .diskTotal,
  ]

  /// One expected key of an order: the field, its canonical key and that key's rank.
  struct Expected {
    var field: MetricField
    var key: StaticString
    var rank: UInt8
  }

  /// An order with each field's canonical key resolved once, not per key read.
  static func expectedKeys(_ order: [MetricField]) -> [Expected] {
    order.map { Expected(field: $0, key: $0.canonicalKey, rank: UInt8($0.keys.count - 1)) }
  }

  private static let statusExpected = expectedKeys(statusOrder)
  private static let emptyStatus = ServerStatus(id: "", name: "")
  private static let metricsExpected = expectedKeys(metricsOrder)
  private static let wireKeys = MetricField.wireKeys

  /// Resolves a key to its field and precedence rank (0 = the key that wins).
  @inline(__always)
  private static func resolve(
    _ key: UnsafeBufferPointer<UInt8>, order: [Expected], wireKeys: [WireKeyEntry],
    expected: inout Int
  ) -> (field: MetricField, rank: UInt8)? {
    if expected < order.count {
      let next = order[expected]
      if key.equals(next.key) {
        expected += 1
        return (next.field, next.rank)
      }
    }
    for entry in wireKeys where key.equals(entry.key) {
      if let at = order.firstIndex(where: { $0.field == entry.field }) { expected = at + 1 }
      return (entry.field, entry.rank)
    }
    return nil
  }

  typealias WireKeyEntry = (key: StaticString, field: MetricField, rank: UInt8)

  /// Which keys of an object have supplied a field so far; enforces "the first present alias
  /// in `MetricField.keys` wins, and a repeated key keeps its first value" (JSONDecoder's rule).
  private struct Precedence {
    /// Fields set by their rank-0 key: final.
    var final: UInt64 = 0
    /// Fields set by any key.
    var set: UInt64 = 0

    /// Whether a value under a key of `rank` must be read (else it is skipped).
    @inline(__always) mutating func take(_ field: MetricField, rank: UInt8) -> Bool {
      let bit: UInt64 = 1 << UInt64(field.rawValue)
      if final & bit != 0 { return false }
      if rank == 0 {
        final |= bit
        set |= bit
        return true
      }
      // Tables hold at most two keys per field (checked by a test), so rank 1 loses only to a
      // previous value under the same key.
      if set & bit != 0 { return false }
      set |= bit
      return true
    }

    func has(_ field: MetricField) -> Bool { set & (1 << UInt64(field.rawValue)) != 0 }
  }

  /// `last_active`: an integer, a string of digits or an RFC 3339 string; `null`, `true`,
  /// `false`, objects and arrays are `nil`. A number that is not a plain Int64 throws, so the
  /// Codable path (which owns the rule) decides.
  private static func readTime(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> Int64? {
    switch s.peek() {
    case UInt8(ascii: "\""): return MetricField.unixSeconds(fromTimeText: try s.readString())
    case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "{"),
      UInt8(ascii: "["):
      try s.skipValue()
      return nil
    default: return try s.readInt64()
    }
  }

  /// Reads a `full_sync` server entry; `nil` when it has no `id` or no `name` (dropped).
  static func readServerStatus(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> ServerStatus?
  {
    // A copy of a prebuilt value: the public initialiser's 35 default arguments cost ~1,000
    // instructions a server.
    var status = emptyStatus
    var precedence = Precedence()
    var expected = 0
    let order = statusExpected
    let wireKeys = wireKeys
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      guard
        let (field, rank) = resolve(key, order: order, wireKeys: wireKeys, expected: &expected),
        precedence.take(field, rank: rank)
      else {
        try s.skipValue()
        return
      }
      switch field {
      case .id: status.id = try s.readString()
      case .name: status.name = try s.readString()
      case .online: status.online = try s.readOptionalBool()
      case .lastActive: status.lastActive = try readTime(&s)
      case .uptime: status.uptime = try s.readOptionalInt64()
      case .cpu: status.cpu = try s.readLenientDouble()
      case .memUsed: status.memUsed = try s.readOptionalInt64()
      case .memTotal: status.memTotal = try s.readOptionalInt64()
      case .swapUsed: status.swapUsed = try s.readOptionalInt64()
      case .swapTotal: status.swapTotal = try s.readOptionalInt64()
      case .diskUsed: status.diskUsed = try s.readOptionalInt64()
      case .diskTotal: status.diskTotal = try s.readOptionalInt64()
      case .netInSpeed: status.netInSpeed = try s.readOptionalInt64()
      case .netOutSpeed: status.netOutSpeed = try s.readOptionalInt64()
      case .netInTransfer: status.netInTransfer = try s.readOptionalInt64()
      case .netOutTransfer: status.netOutTransfer = try s.readOptionalInt64()
      case .load1: status.load1 = try s.readLenientDouble()
      case .load5: status.load5 = try s.readLenientDouble()
      case .load15: status.load15 = try s.readLenientDouble()
      case .tcpConn: status.tcpConn = try s.readOptionalInt()
      case .udpConn: status.udpConn = try s.readOptionalInt()
      case .processCount: status.processCount = try s.readOptionalInt()
      case .cpuName: status.cpuName = try s.readOptionalString()
      case .os: status.os = try s.readOptionalString()
      case .region: status.region = try s.readOptionalString()
      case .countryCode: status.countryCode = try s.readOptionalString()
      case .groupID: status.groupID = try s.readOptionalString()
      case .features: status.features = try readStrings(&s)
      case .diskReadBytesPerSec: status.diskReadBytesPerSec = try s.readOptionalInt64()
      case .diskWriteBytesPerSec: status.diskWriteBytesPerSec = try s.readOptionalInt64()
      case .tags: status.tags = try readStrings(&s)
      case .cpuCores: status.cpuCores = try s.readOptionalInt()
      case .agentAuthority:
        status.agentAuthority = try s.consumeNull() ? nil : readAgentAuthority(&s)
      case .hasToken: status.hasToken = try s.readOptionalBool()
      case .outstandingEnrollment: status.outstandingEnrollment = try readOptionalOffer(&s)
      }
    }
    guard precedence.has(.id), precedence.has(.name) else { return nil }
    return status
  }

  private static func readStrings(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> [String]?
  {
    if try s.consumeNull() { return nil }
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
      if key.equals("status"), status == nil {
        status = try s.readString()
      } else if key.equals("outstanding_offer"), !sawOffer {
        sawOffer = true
        offer = try readOptionalOffer(&s)
      } else {
        try s.skipValue()
      }
    }
    guard let status else { throw s.fail("agent_authority has no status") }
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
    // A repeated key keeps its first value, as JSONDecoder does.
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      if key.equals("id"), id == nil {
        id = try s.readString()
      } else if key.equals("code_prefix"), prefix == nil {
        prefix = try s.readString()
      } else if key.equals("expires_at"), expires == nil {
        expires = try s.readString()
      } else if key.equals("created_at"), created == nil {
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

  /// Reads an `update` entry with the rules of `LiveMetrics`; `nil` when it has no `id` or no
  /// `name` (dropped).
  static func readLiveMetrics(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> LiveMetrics? {
    var metrics = LiveMetrics(id: "", name: "")
    var precedence = Precedence()
    var expected = 0
    let order = metricsExpected
    let wireKeys = wireKeys
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      guard
        let (field, rank) = resolve(key, order: order, wireKeys: wireKeys, expected: &expected),
        precedence.take(field, rank: rank)
      else {
        try s.skipValue()
        return
      }
      switch field {
      case .id: metrics.id = try s.readString()
      case .name: metrics.name = try s.readString()
      case .online: metrics.online = try s.readOptionalBool()
      case .lastActive: metrics.lastActive = try readTime(&s)
      case .uptime: metrics.uptime = try s.readOptionalInt64()
      case .cpu: metrics.cpu = try s.readLenientDouble()
      case .memUsed: metrics.memUsed = try s.readOptionalInt64()
      case .memTotal: metrics.memTotal = try s.readOptionalInt64()
      case .swapUsed: metrics.swapUsed = try s.readOptionalInt64()
      case .swapTotal: metrics.swapTotal = try s.readOptionalInt64()
      case .diskUsed: metrics.diskUsed = try s.readOptionalInt64()
      case .diskTotal: metrics.diskTotal = try s.readOptionalInt64()
      case .netInSpeed: metrics.netInSpeed = try s.readOptionalInt64()
      case .netOutSpeed: metrics.netOutSpeed = try s.readOptionalInt64()
      case .netInTransfer: metrics.netInTransfer = try s.readOptionalInt64()
      case .netOutTransfer: metrics.netOutTransfer = try s.readOptionalInt64()
      case .load1: metrics.load1 = try s.readLenientDouble()
      case .load5: metrics.load5 = try s.readLenientDouble()
      case .load15: metrics.load15 = try s.readLenientDouble()
      case .tcpConn: metrics.tcpConn = try s.readOptionalInt()
      case .udpConn: metrics.udpConn = try s.readOptionalInt()
      case .processCount: metrics.processCount = try s.readOptionalInt()
      case .diskReadBytesPerSec: metrics.diskReadBytesPerSec = try s.readOptionalInt64()
      case .diskWriteBytesPerSec: metrics.diskWriteBytesPerSec = try s.readOptionalInt64()
      default: try s.skipValue()  // static facts are not part of LiveMetrics
      }
    }
    guard precedence.has(.id), precedence.has(.name) else { return nil }
    return metrics
  }
}
