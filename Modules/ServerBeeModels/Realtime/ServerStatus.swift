/// One server in a `full_sync` frame (wire contract v1 §4.5): identity, live metrics and static facts.
///
/// Properties are in wire order, and ``WireJSON`` writes them in that order. Units follow the
/// contract: bytes for memory, swap and disk; bytes per second for speeds; cumulative bytes for
/// transfers; percent (0–100) for ``cpu``; Unix seconds for ``lastActive``. Offline servers (and
/// online ones without a report yet) carry zeros in every live metric.
///
/// **Non-finite floats.** The server writes a non-finite `f64` as `null` (wire contract v1 §1.4). Such a value
/// decodes as `.nan` rather than failing the whole frame, and encodes back as `null`, so a frame
/// round-trips byte for byte. Check `cpu.isFinite` before drawing it. Because `.nan != .nan`,
/// two statuses holding `.nan` do not compare equal.
///
/// ```swift
/// if case .fullSync(let sync) = try LiveStreamMessage(decoding: frame) {
///   for server in sync.servers where server.online { print(server.name, server.cpu) }
/// }
/// ```
public struct ServerStatus: Codable, Hashable, Sendable, Identifiable {
  /// Server id (UUID).
  public var id: String
  /// Display name.
  public var name: String
  /// Whether the agent is connected now.
  public var online: Bool
  /// Unix seconds: "now" when online, otherwise the server row's `updated_at`.
  public var lastActive: Int64
  /// Host uptime in seconds (0 without a report).
  public var uptime: Int64
  /// Whole-machine CPU use in percent, 0–100 (`.nan` when the server sent `null`).
  public var cpu: Double
  /// Memory in use, bytes.
  public var memUsed: Int64
  /// Total memory, bytes.
  public var memTotal: Int64
  /// Swap in use, bytes.
  public var swapUsed: Int64
  /// Total swap, bytes.
  public var swapTotal: Int64
  /// Disk in use, bytes.
  public var diskUsed: Int64
  /// Total disk, bytes.
  public var diskTotal: Int64
  /// Inbound network speed, bytes per second.
  public var netInSpeed: Int64
  /// Outbound network speed, bytes per second.
  public var netOutSpeed: Int64
  /// Cumulative inbound bytes since the host's counters started.
  public var netInTransfer: Int64
  /// Cumulative outbound bytes since the host's counters started.
  public var netOutTransfer: Int64
  /// 1-minute load average (`.nan` when the server sent `null`).
  public var load1: Double
  /// 5-minute load average (`.nan` when the server sent `null`).
  public var load5: Double
  /// 15-minute load average (`.nan` when the server sent `null`).
  public var load15: Double
  /// Open TCP connections.
  public var tcpConn: Int
  /// Open UDP sockets.
  public var udpConn: Int
  /// Running processes.
  public var processCount: Int
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
  public var features: [String]
  /// Disk reads, bytes per second, summed over all disks.
  public var diskReadBytesPerSec: Int64
  /// Disk writes, bytes per second, summed over all disks.
  public var diskWriteBytesPerSec: Int64
  /// Tags, sorted.
  public var tags: [String]
  /// CPU core count.
  public var cpuCores: Int?
  /// Enrollment state of the agent.
  public var agentAuthority: AgentAuthority
  /// Whether ``agentAuthority`` is `claimed`.
  public var hasToken: Bool
  /// The same object as `agentAuthority.outstandingOffer`.
  public var outstandingEnrollment: OutstandingOffer?

  /// Creates a status; live metrics default to the zeros an offline server carries.
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
    id: String, name: String, online: Bool = false, lastActive: Int64 = 0, uptime: Int64 = 0,
    cpu: Double = 0, memUsed: Int64 = 0, memTotal: Int64 = 0, swapUsed: Int64 = 0,
    swapTotal: Int64 = 0, diskUsed: Int64 = 0, diskTotal: Int64 = 0, netInSpeed: Int64 = 0,
    netOutSpeed: Int64 = 0, netInTransfer: Int64 = 0, netOutTransfer: Int64 = 0,
    load1: Double = 0, load5: Double = 0, load15: Double = 0, tcpConn: Int = 0, udpConn: Int = 0,
    processCount: Int = 0, cpuName: String? = nil, os: String? = nil, region: String? = nil,
    countryCode: String? = nil, groupID: String? = nil, features: [String] = [],
    diskReadBytesPerSec: Int64 = 0, diskWriteBytesPerSec: Int64 = 0, tags: [String] = [],
    cpuCores: Int? = nil, agentAuthority: AgentAuthority = AgentAuthority(status: .unclaimed),
    hasToken: Bool = false, outstandingEnrollment: OutstandingOffer? = nil
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

  // Internal, not private: LiveMetrics encodes a subset of the same keys.
  enum CodingKeys: String, CodingKey {
    case id, name, online
    case lastActive = "last_active"
    case uptime, cpu
    case memUsed = "mem_used"
    case memTotal = "mem_total"
    case swapUsed = "swap_used"
    case swapTotal = "swap_total"
    case diskUsed = "disk_used"
    case diskTotal = "disk_total"
    case netInSpeed = "net_in_speed"
    case netOutSpeed = "net_out_speed"
    case netInTransfer = "net_in_transfer"
    case netOutTransfer = "net_out_transfer"
    case load1, load5, load15
    case tcpConn = "tcp_conn"
    case udpConn = "udp_conn"
    case processCount = "process_count"
    case cpuName = "cpu_name"
    case os, region
    case countryCode = "country_code"
    case groupID = "group_id"
    case features
    case diskReadBytesPerSec = "disk_read_bytes_per_sec"
    case diskWriteBytesPerSec = "disk_write_bytes_per_sec"
    case tags
    case cpuCores = "cpu_cores"
    case agentAuthority = "agent_authority"
    case hasToken = "has_token"
    case outstandingEnrollment = "outstanding_enrollment"
  }

  /// Decodes a status; a `null` metric float becomes `.nan`, every other field is strict.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field (``WireJSON`` maps it to
  ///   ``ServerBeeModelsError``).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    name = try c.decode(String.self, forKey: .name)
    online = try c.decode(Bool.self, forKey: .online)
    lastActive = try c.decode(Int64.self, forKey: .lastActive)
    uptime = try c.decode(Int64.self, forKey: .uptime)
    cpu = try c.decodeMetric(forKey: .cpu)
    memUsed = try c.decode(Int64.self, forKey: .memUsed)
    memTotal = try c.decode(Int64.self, forKey: .memTotal)
    swapUsed = try c.decode(Int64.self, forKey: .swapUsed)
    swapTotal = try c.decode(Int64.self, forKey: .swapTotal)
    diskUsed = try c.decode(Int64.self, forKey: .diskUsed)
    diskTotal = try c.decode(Int64.self, forKey: .diskTotal)
    netInSpeed = try c.decode(Int64.self, forKey: .netInSpeed)
    netOutSpeed = try c.decode(Int64.self, forKey: .netOutSpeed)
    netInTransfer = try c.decode(Int64.self, forKey: .netInTransfer)
    netOutTransfer = try c.decode(Int64.self, forKey: .netOutTransfer)
    load1 = try c.decodeMetric(forKey: .load1)
    load5 = try c.decodeMetric(forKey: .load5)
    load15 = try c.decodeMetric(forKey: .load15)
    tcpConn = try c.decode(Int.self, forKey: .tcpConn)
    udpConn = try c.decode(Int.self, forKey: .udpConn)
    processCount = try c.decode(Int.self, forKey: .processCount)
    cpuName = try c.decodeIfPresent(String.self, forKey: .cpuName)
    os = try c.decodeIfPresent(String.self, forKey: .os)
    region = try c.decodeIfPresent(String.self, forKey: .region)
    countryCode = try c.decodeIfPresent(String.self, forKey: .countryCode)
    groupID = try c.decodeIfPresent(String.self, forKey: .groupID)
    features = try c.decode([String].self, forKey: .features)
    diskReadBytesPerSec = try c.decode(Int64.self, forKey: .diskReadBytesPerSec)
    diskWriteBytesPerSec = try c.decode(Int64.self, forKey: .diskWriteBytesPerSec)
    tags = try c.decode([String].self, forKey: .tags)
    cpuCores = try c.decodeIfPresent(Int.self, forKey: .cpuCores)
    agentAuthority = try c.decode(AgentAuthority.self, forKey: .agentAuthority)
    hasToken = try c.decode(Bool.self, forKey: .hasToken)
    outstandingEnrollment = try c.decodeIfPresent(
      OutstandingOffer.self, forKey: .outstandingEnrollment)
  }
}
