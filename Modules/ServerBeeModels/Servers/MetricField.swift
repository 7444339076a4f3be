/// The one table of the live-stream server shape (Protocol/LiveStream.md §5–§7): every field of
/// `ServerStatus` (a `full_sync` entry) and `LiveMetrics` (an `update` entry) with its wire keys
/// and aliases, its value kind, whether an `update` carries it, and how a `nil` is written.
///
/// Everything that reads or writes the shape is driven by it: the Codable conformances of both
/// models and their merge (through ``MetricLayout``), RealtimeStream's fast frame reader, and
/// the simulator's frame writer (its `full_sync` entries key by key from this table; its
/// `update` entries through `LiveMetrics`). Adding a field means a case here (with its row in
/// `keyTable` and `kindTable`), a stored property on the model(s) that hold it, and its key path
/// in that model's layout. The simulator then writes the key by itself and only needs the
/// field's value: a live number in its `LiveNumbers` (whose exhaustive `value(_:)` switch asks),
/// anything else from its server row (`WireFieldTests` fails until it has one).
package enum MetricField: Int, CaseIterable, Sendable {
  case id, name, online, lastActive, uptime, cpu, memUsed, memTotal, swapUsed, swapTotal
  case diskUsed, diskTotal, netInSpeed, netOutSpeed, netInTransfer, netOutTransfer
  case load1, load5, load15, tcpConn, udpConn, processCount
  case cpuName, os, region, countryCode, groupID, features
  case diskReadBytesPerSec, diskWriteBytesPerSec, tags, cpuCores
  case agentAuthority, hasToken, outstandingEnrollment

  /// How a field's value is read and written.
  package enum Kind: Sendable, Equatable {
    /// `String`, required: `id` and `name`.
    case identity
    /// `Bool?`.
    case bool
    /// `Int?`.
    case int
    /// `Int64?`.
    case int64
    /// `Double?`; a present `null` (non-finite on the server) is `.nan`.
    case metric
    /// `Int64?` Unix seconds from an integer, a string of digits or an RFC 3339 string.
    case time
    /// `String?`.
    case string
    /// `[String]?`.
    case strings
    /// `AgentAuthority?`.
    case authority
    /// `OutstandingOffer?`.
    case offer
  }

  /// The kind of this field's value.
  @inlinable package var kind: Kind { Self.kindTable[rawValue] }

  /// Whether `ServerStatus` writes this field as `null` when it is `nil` (the nullable static
  /// facts, as a server writes them); every other `nil` is left out.
  package var writesNullWhenNil: Bool {
    switch self {
    case .cpuName, .os, .region, .countryCode, .groupID, .cpuCores, .outstandingEnrollment: true
    default: false
    }
  }

  /// Whether a merge keeps a cached value over an incoming 0 (`mem_total`, `disk_total`: 0
  /// means "unknown capacity").
  package var zeroMeansUnknown: Bool { self == .memTotal || self == .diskTotal }

  /// The order a current server writes the keys of an `update` entry in (Protocol/LiveStream.md §6:
  /// 21 keys, no totals), then the totals a server might add. Only a hint for the fast reader: any
  /// order decodes.
  package static let updateOrder: [MetricField] = [
    .id, .name, .online, .lastActive, .uptime, .cpu, .memUsed, .swapUsed, .diskUsed, .netInSpeed,
    .netOutSpeed, .netInTransfer, .netOutTransfer, .load1, .load5, .load15, .tcpConn, .udpConn,
    .processCount, .diskReadBytesPerSec, .diskWriteBytesPerSec, .memTotal, .swapTotal, .diskTotal,
    .countryCode,
  ]

  @usableFromInline static let kindTable: [Kind] = [
    .identity, .identity, .bool, .time, .int64, .metric, .int64, .int64, .int64, .int64,
    .int64, .int64, .int64, .int64, .int64, .int64,
    .metric, .metric, .metric, .int, .int, .int,
    .string, .string, .string, .string, .string, .strings,
    .int64, .int64, .strings, .int,
    .authority, .bool, .offer,
  ]

  /// The wire keys, highest precedence first; the canonical (current server) key is last.
  package var keys: [StaticString] { Self.keyTable[rawValue] }

  /// The key a current server writes and the encoder uses.
  package var canonicalKey: StaticString {
    Self.keyTable[rawValue][Self.keyTable[rawValue].count - 1]
  }

  private static let keyTable: [[StaticString]] = [
    ["id"], ["name"], ["online"], ["last_active_at", "last_active"], ["uptime"],
    ["cpu_usage", "cpu"], ["memory_used", "mem_used"], ["memory_total", "mem_total"],
    ["swap_used"], ["swap_total"], ["disk_used"], ["disk_total"],
    ["network_in", "net_in_speed"], ["network_out", "net_out_speed"], ["net_in_transfer"],
    ["net_out_transfer"], ["load1"], ["load5"], ["load15"], ["tcp_count", "tcp_conn"],
    ["udp_count", "udp_conn"], ["process_count"], ["cpu_name"], ["os"], ["region"],
    ["country", "country_code"], ["group_id"], ["features"], ["disk_read_bytes_per_sec"],
    ["disk_write_bytes_per_sec"], ["tags"], ["cpu_cores"], ["agent_authority"], ["has_token"],
    ["outstanding_enrollment"],
  ]

  /// Every wire key with its field and precedence (0 = highest), for a reader that matches
  /// key bytes.
  package static let wireKeys: [(key: StaticString, field: MetricField, rank: UInt8)] =
    allCases.flatMap { field in
      field.keys.enumerated().map { (key: $1, field: field, rank: UInt8($0)) }
    }

  /// The value a merge keeps for a capacity (`mem_total`, `disk_total`): the incoming one when
  /// it is known and above 0, else the cached one (0 means "unknown capacity").
  /// - Parameters:
  ///   - cached: The value held.
  ///   - incoming: The value a frame carries.
  /// - Returns: The merged value.
  @inline(__always)
  package static func mergedCapacity(_ cached: Int64?, _ incoming: Int64?) -> Int64? {
    guard let incoming, incoming > 0 else { return cached }
    return incoming
  }

  /// `used` as a percentage of `total`; `nil` when either is unknown or the total is 0.
  /// - Parameters:
  ///   - used: Bytes in use.
  ///   - total: Capacity in bytes.
  /// - Returns: Percent, 0–100 for consistent inputs.
  package static func usagePercent(_ used: Int64?, of total: Int64?) -> Double? {
    guard let used, let total, total > 0 else { return nil }
    return Double(used) / Double(total) * 100
  }

  /// Unix seconds from a `last_active` string: digits, or an RFC 3339 date; else `nil`.
  /// - Parameter text: The string value.
  /// - Returns: Seconds, or `nil`.
  package static func unixSeconds(fromTimeText text: String) -> Int64? {
    if let seconds = Int64(text) { return seconds }
    return (try? RFC3339Timestamp(parsing: text))?.secondsSince1970
  }
}
