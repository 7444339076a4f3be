/// One server's metrics in an `update` frame (Protocol/LiveStream.md §6): a partial
/// ``ServerStatus``.
///
/// Only ``id`` and ``name`` are required (an entry without them is dropped from its frame,
/// Protocol/LiveStream.md §7). Every other property is `nil` when its key is **absent**, never `0`,
/// so a merge can tell "not sent" from "zero". Aliases and the lenient ``lastActive`` follow
/// ``ServerStatus``. Real servers send exactly 21 keys (`id`, `name`, `online`, `last_active`,
/// `uptime`, `cpu`, `mem_used`, `swap_used`, `disk_used`, the four network counters, the three load
/// averages, `tcp_conn`, `udp_conn`, `process_count` and the two disk rates) and no `*_total`; the
/// totals are accepted in case a server adds them.
///
/// A float that is present but `null` (non-finite on the server) decodes as `.nan`. Encoding
/// writes only the non-`nil` properties, in wire order, so a decoded frame re-encodes to the same
/// bytes.
///
/// ```swift
/// if case .update(let update) = message, let metrics = update.servers.first {
///   fleet[metrics.id]?.merge(metrics) // keeps the cached name
/// }
/// ```
public struct LiveMetrics: Codable, Hashable, Sendable, Identifiable {
  /// Server id; the merge key.
  public var id: String
  /// The name when the agent connected. Old decoders need it; it must not replace a cached name.
  public var name: String
  /// Always `true` in real frames.
  public var online: Bool?
  /// Unix seconds ("now").
  public var lastActive: Int64?
  /// Host uptime, seconds.
  public var uptime: Int64?
  /// CPU percent, 0–100.
  public var cpu: Double?
  /// Memory in use, bytes.
  public var memUsed: Int64?
  /// Total memory, bytes (real servers leave it out).
  public var memTotal: Int64?
  /// Swap in use, bytes.
  public var swapUsed: Int64?
  /// Total swap, bytes (real servers leave it out).
  public var swapTotal: Int64?
  /// Disk in use, bytes.
  public var diskUsed: Int64?
  /// Total disk, bytes (real servers leave it out).
  public var diskTotal: Int64?
  /// Inbound speed, bytes per second.
  public var netInSpeed: Int64?
  /// Outbound speed, bytes per second.
  public var netOutSpeed: Int64?
  /// Cumulative inbound bytes.
  public var netInTransfer: Int64?
  /// Cumulative outbound bytes.
  public var netOutTransfer: Int64?
  /// 1-minute load average.
  public var load1: Double?
  /// 5-minute load average.
  public var load5: Double?
  /// 15-minute load average.
  public var load15: Double?
  /// Open TCP connections.
  public var tcpConn: Int?
  /// Open UDP sockets.
  public var udpConn: Int?
  /// Running processes.
  public var processCount: Int?
  /// Disk reads, bytes per second.
  public var diskReadBytesPerSec: Int64?
  /// Disk writes, bytes per second.
  public var diskWriteBytesPerSec: Int64?
  /// ISO country code, when an entry carries it (`country` or `country_code`,
  /// Protocol/LiveStream.md §7 reads the alias in both frame kinds); real `update` frames leave it
  /// out.
  public var countryCode: String?

  /// Creates a partial frame entry; leave out what was not measured.
  /// - Parameters:
  ///   - id: Server id.
  ///   - name: Name at connect time.
  ///   - online: Online flag.
  ///   - lastActive: Unix seconds.
  ///   - uptime: Seconds.
  ///   - cpu: Percent.
  ///   - memUsed: Bytes.
  ///   - memTotal: Bytes.
  ///   - swapUsed: Bytes.
  ///   - swapTotal: Bytes.
  ///   - diskUsed: Bytes.
  ///   - diskTotal: Bytes.
  ///   - netInSpeed: Bytes per second.
  ///   - netOutSpeed: Bytes per second.
  ///   - netInTransfer: Cumulative bytes.
  ///   - netOutTransfer: Cumulative bytes.
  ///   - load1: Load average.
  ///   - load5: Load average.
  ///   - load15: Load average.
  ///   - tcpConn: Count.
  ///   - udpConn: Count.
  ///   - processCount: Count.
  ///   - diskReadBytesPerSec: Bytes per second.
  ///   - diskWriteBytesPerSec: Bytes per second.
  ///   - countryCode: Country code, if the entry carries one.
  public init(
    id: String, name: String, online: Bool? = nil, lastActive: Int64? = nil,
    uptime: Int64? = nil, cpu: Double? = nil, memUsed: Int64? = nil, memTotal: Int64? = nil,
    swapUsed: Int64? = nil, swapTotal: Int64? = nil, diskUsed: Int64? = nil,
    diskTotal: Int64? = nil, netInSpeed: Int64? = nil, netOutSpeed: Int64? = nil,
    netInTransfer: Int64? = nil, netOutTransfer: Int64? = nil, load1: Double? = nil,
    load5: Double? = nil, load15: Double? = nil, tcpConn: Int? = nil, udpConn: Int? = nil,
    processCount: Int? = nil, diskReadBytesPerSec: Int64? = nil,
    diskWriteBytesPerSec: Int64? = nil, countryCode: String? = nil
  ) {
    self.id = id
    self.name = name
    self.online = online
    self.lastActive = lastActive
    self.uptime = uptime
    self.cpu = cpu
    self.memUsed = memUsed
    self.memTotal = memTotal
    self.swapUsed = swapUsed
    self.swapTotal = swapTotal
    self.diskUsed = diskUsed
    self.diskTotal = diskTotal
    self.netInSpeed = netInSpeed
    self.netOutSpeed = netOutSpeed
    self.netInTransfer = netInTransfer
    self.netOutTransfer = netOutTransfer
    self.load1 = load1
    self.load5 = load5
    self.load15 = load15
    self.tcpConn = tcpConn
    self.udpConn = udpConn
    self.processCount = processCount
    self.diskReadBytesPerSec = diskReadBytesPerSec
    self.diskWriteBytesPerSec = diskWriteBytesPerSec
    self.countryCode = countryCode
  }

  /// Decodes an entry with the shared rules (``ServerStatus``): absent keys stay `nil`, a `null`
  /// float becomes `.nan`, aliases are read.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field when `id` or `name` is missing or a value has
  ///   the wrong type.
  public init(from decoder: any Decoder) throws {
    self = LiveMetrics(id: "", name: "")
    try Self.layout.decode(decoder.container(keyedBy: WireKey.self), into: &self)
  }

  /// Encodes the non-`nil` properties in wire order under the current keys.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try Self.layout.encode(self, to: &c, writingNulls: false)
  }
}

extension ServerStatus {
  /// Applies an `update` entry: every metric (and a country code) it carries replaces the cached one, absent ones are
  /// kept, ``name`` is never replaced (Protocol/LiveStream.md §6), and a ``memTotal`` or
  /// ``diskTotal`` of 0 (unknown capacity) never replaces a known total (Protocol/LiveStream.md
  /// §7).
  ///
  /// This is the reference merge; `RealtimeStream` may use a faster one with the same result.
  /// - Parameter metrics: The entry; its ``LiveMetrics/id`` should equal ``id``.
  public mutating func merge(_ metrics: LiveMetrics) {
    Self.layout.merge(metrics, from: LiveMetrics.layout, into: &self)
  }

}

extension LiveMetrics {
  /// Where each field of the ``MetricField`` table lives in an `update` entry: the live
  /// metrics, the totals a server might add, and the country alias.
  package static let layout = MetricLayout<LiveMetrics>([
    (.id, \LiveMetrics.id), (.name, \LiveMetrics.name), (.online, \LiveMetrics.online),
    (.lastActive, \LiveMetrics.lastActive), (.uptime, \LiveMetrics.uptime),
    (.cpu, \LiveMetrics.cpu), (.memUsed, \LiveMetrics.memUsed),
    (.memTotal, \LiveMetrics.memTotal), (.swapUsed, \LiveMetrics.swapUsed),
    (.swapTotal, \LiveMetrics.swapTotal), (.diskUsed, \LiveMetrics.diskUsed),
    (.diskTotal, \LiveMetrics.diskTotal), (.netInSpeed, \LiveMetrics.netInSpeed),
    (.netOutSpeed, \LiveMetrics.netOutSpeed), (.netInTransfer, \LiveMetrics.netInTransfer),
    (.netOutTransfer, \LiveMetrics.netOutTransfer), (.load1, \LiveMetrics.load1),
    (.load5, \LiveMetrics.load5), (.load15, \LiveMetrics.load15),
    (.tcpConn, \LiveMetrics.tcpConn), (.udpConn, \LiveMetrics.udpConn),
    (.processCount, \LiveMetrics.processCount), (.countryCode, \LiveMetrics.countryCode),
    (.diskReadBytesPerSec, \LiveMetrics.diskReadBytesPerSec),
    (.diskWriteBytesPerSec, \LiveMetrics.diskWriteBytesPerSec),
  ])
}
