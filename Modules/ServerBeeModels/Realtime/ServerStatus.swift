/// One server in a `full_sync` frame (Protocol/LiveStream.md §5): identity, live metrics and static
/// facts.
///
/// Properties are in wire order, and ``WireJSON`` writes them in that order. Units follow the
/// contract: bytes for memory, swap and disk; bytes per second for speeds; cumulative bytes for
/// transfers; percent (0–100) for ``cpu``; Unix seconds for ``lastActive``. Offline servers (and
/// online ones without a report yet) carry zeros in every live metric.
///
/// **Tolerant decoding** (Protocol/LiveStream.md §7, the rules of the upstream iOS client). Only
/// ``id`` and ``name`` are required; an entry without them is dropped from its frame. Every other
/// property is `nil` when its key is absent (an older or newer server), never `0` or empty. Legacy
/// alias keys are read too (`cpu_usage`, `memory_used`, `memory_total`, `network_in`,
/// `network_out`, `tcp_count`, `udp_count`, `country`; the alias wins when both are present), and
/// ``lastActive`` accepts an integer, a string of digits or an RFC 3339 string (anything else
/// is `nil`). A ``memTotal`` or ``diskTotal`` of 0 means "unknown capacity": a merge never lets
/// it replace a known total, and ``memoryUsagePercent`` is `nil` for it.
///
/// **Non-finite floats.** The server writes a non-finite `f64` as `null` (Protocol/README.md §6).
/// Such a value decodes as `.nan` rather than failing the whole frame, and encodes back as `null`,
/// so a frame round-trips byte for byte. Check `cpu?.isFinite` before drawing it. Because `.nan !=
/// .nan`, two statuses holding `.nan` do not compare equal.
///
/// ```swift
/// if case .fullSync(let sync) = try LiveStreamMessage(decoding: frame) {
///   for server in sync.servers where server.online == true { print(server.name, server.cpu ?? 0) }
/// }
/// ```
public struct ServerStatus: Codable, Hashable, Sendable, Identifiable {
  /// Server id (UUID).
  public var id: String
  /// Display name.
  public var name: String
  /// Whether the agent is connected now.
  public var online: Bool?
  /// Unix seconds: "now" when online, otherwise the server row's `updated_at`.
  public var lastActive: Int64?
  /// Host uptime in seconds (0 without a report).
  public var uptime: Int64?
  /// Whole-machine CPU use in percent, 0–100 (`.nan` when the server sent `null`).
  public var cpu: Double?
  /// Memory in use, bytes.
  public var memUsed: Int64?
  /// Total memory, bytes.
  public var memTotal: Int64?
  /// Swap in use, bytes.
  public var swapUsed: Int64?
  /// Total swap, bytes.
  public var swapTotal: Int64?
  /// Disk in use, bytes.
  public var diskUsed: Int64?
  /// Total disk, bytes.
  public var diskTotal: Int64?
  /// Inbound network speed, bytes per second.
  public var netInSpeed: Int64?
  /// Outbound network speed, bytes per second.
  public var netOutSpeed: Int64?
  /// Cumulative inbound bytes since the host's counters started.
  public var netInTransfer: Int64?
  /// Cumulative outbound bytes since the host's counters started.
  public var netOutTransfer: Int64?
  /// 1-minute load average (`.nan` when the server sent `null`).
  public var load1: Double?
  /// 5-minute load average (`.nan` when the server sent `null`).
  public var load5: Double?
  /// 15-minute load average (`.nan` when the server sent `null`).
  public var load15: Double?
  /// Open TCP connections.
  public var tcpConn: Int?
  /// Open UDP sockets.
  public var udpConn: Int?
  /// Running processes.
  public var processCount: Int?
  /// CPU model name.
  public var cpuName: String?
  /// Operating system name.
  public var os: String?
  /// Region text.
  public var region: String?
  /// ISO country code.
  public var countryCode: String?
  /// Server group id; resolve it with ``ServerGroup``.
  public var groupID: String?
  /// Agent features, for example `"docker"`.
  public var features: [String]?
  /// Disk reads, bytes per second, summed over all disks.
  public var diskReadBytesPerSec: Int64?
  /// Disk writes, bytes per second, summed over all disks.
  public var diskWriteBytesPerSec: Int64?
  /// Tags, sorted.
  public var tags: [String]?
  /// CPU core count.
  public var cpuCores: Int?
  /// Enrollment state of the agent.
  public var agentAuthority: AgentAuthority?
  /// Whether ``agentAuthority`` is `claimed`.
  public var hasToken: Bool?
  /// The same object as `agentAuthority.outstandingOffer`.
  public var outstandingEnrollment: OutstandingOffer?

  /// Creates a status; what is left out is unknown (`nil`).
  /// - Parameters:
  ///   - id: Server id.
  ///   - name: Display name.
  ///   - online: Whether the agent is connected.
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
  ///   - cpuName: CPU model.
  ///   - os: Operating system.
  ///   - region: Region.
  ///   - countryCode: Country code.
  ///   - groupID: Group id.
  ///   - features: Agent features.
  ///   - diskReadBytesPerSec: Bytes per second.
  ///   - diskWriteBytesPerSec: Bytes per second.
  ///   - tags: Sorted tags.
  ///   - cpuCores: Core count.
  ///   - agentAuthority: Enrollment state.
  ///   - hasToken: Whether the agent is claimed.
  ///   - outstandingEnrollment: Pending offer.
  public init(
    id: String, name: String, online: Bool? = nil, lastActive: Int64? = nil,
    uptime: Int64? = nil, cpu: Double? = nil, memUsed: Int64? = nil, memTotal: Int64? = nil,
    swapUsed: Int64? = nil, swapTotal: Int64? = nil, diskUsed: Int64? = nil,
    diskTotal: Int64? = nil, netInSpeed: Int64? = nil, netOutSpeed: Int64? = nil,
    netInTransfer: Int64? = nil, netOutTransfer: Int64? = nil, load1: Double? = nil,
    load5: Double? = nil, load15: Double? = nil, tcpConn: Int? = nil, udpConn: Int? = nil,
    processCount: Int? = nil, cpuName: String? = nil, os: String? = nil, region: String? = nil,
    countryCode: String? = nil, groupID: String? = nil, features: [String]? = nil,
    diskReadBytesPerSec: Int64? = nil, diskWriteBytesPerSec: Int64? = nil, tags: [String]? = nil,
    cpuCores: Int? = nil, agentAuthority: AgentAuthority? = nil, hasToken: Bool? = nil,
    outstandingEnrollment: OutstandingOffer? = nil
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
    self.cpuName = cpuName
    self.os = os
    self.region = region
    self.countryCode = countryCode
    self.groupID = groupID
    self.features = features
    self.diskReadBytesPerSec = diskReadBytesPerSec
    self.diskWriteBytesPerSec = diskWriteBytesPerSec
    self.tags = tags
    self.cpuCores = cpuCores
    self.agentAuthority = agentAuthority
    self.hasToken = hasToken
    self.outstandingEnrollment = outstandingEnrollment
  }

  /// Decodes a status with the shared rules of Protocol/LiveStream.md §7 (see the type's
  /// discussion): `id` and `name` are required, every other key may be absent, aliases are read.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field (``WireJSON`` maps it to
  ///   ``ServerBeeModelsError``) when `id` or `name` is missing or a value has the wrong type.
  public init(from decoder: any Decoder) throws {
    self = Self.empty
    try Self.layout.decode(decoder.container(keyedBy: WireKey.self), into: &self)
  }

  /// Encodes in wire order under the current keys. Unknown metrics are left out; the nullable
  /// facts (`cpu_name`, `os`, `region`, `country_code`, `group_id`, `cpu_cores`,
  /// `outstanding_enrollment`) are written as `null`, as the server writes them.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try Self.layout.encode(self, to: &c, writingNulls: true)
  }

  /// Memory in use as a percentage of ``memTotal``; `nil` when either is unknown or the total
  /// is 0.
  public var memoryUsagePercent: Double? { MetricField.usagePercent(memUsed, of: memTotal) }

  /// Disk in use as a percentage of ``diskTotal``; `nil` when either is unknown or the total
  /// is 0.
  public var diskUsagePercent: Double? { MetricField.usagePercent(diskUsed, of: diskTotal) }
}

extension ServerStatus {
  /// Where each field of the ``MetricField`` table lives in a status: every field.
  package static let layout = MetricLayout<ServerStatus>([
    (.id, \ServerStatus.id), (.name, \ServerStatus.name), (.online, \ServerStatus.online),
    (.lastActive, \ServerStatus.lastActive), (.uptime, \ServerStatus.uptime),
    (.cpu, \ServerStatus.cpu), (.memUsed, \ServerStatus.memUsed),
    (.memTotal, \ServerStatus.memTotal), (.swapUsed, \ServerStatus.swapUsed),
    (.swapTotal, \ServerStatus.swapTotal), (.diskUsed, \ServerStatus.diskUsed),
    (.diskTotal, \ServerStatus.diskTotal), (.netInSpeed, \ServerStatus.netInSpeed),
    (.netOutSpeed, \ServerStatus.netOutSpeed), (.netInTransfer, \ServerStatus.netInTransfer),
    (.netOutTransfer, \ServerStatus.netOutTransfer), (.load1, \ServerStatus.load1),
    (.load5, \ServerStatus.load5), (.load15, \ServerStatus.load15),
    (.tcpConn, \ServerStatus.tcpConn), (.udpConn, \ServerStatus.udpConn),
    (.processCount, \ServerStatus.processCount), (.cpuName, \ServerStatus.cpuName),
    (.os, \ServerStatus.os), (.region, \ServerStatus.region),
    (.countryCode, \ServerStatus.countryCode), (.groupID, \ServerStatus.groupID),
    (.features, \ServerStatus.features), (.diskReadBytesPerSec, \ServerStatus.diskReadBytesPerSec),
    (.diskWriteBytesPerSec, \ServerStatus.diskWriteBytesPerSec), (.tags, \ServerStatus.tags),
    (.cpuCores, \ServerStatus.cpuCores), (.agentAuthority, \ServerStatus.agentAuthority),
    (.hasToken, \ServerStatus.hasToken),
    (.outstandingEnrollment, \ServerStatus.outstandingEnrollment),
  ])

  /// A status with every field unknown, the start of every decode (a copy of a prebuilt value:
  /// the public initialiser's 35 default arguments cost about 1,000 instructions a server).
  package static let empty = ServerStatus(id: "", name: "")
}
