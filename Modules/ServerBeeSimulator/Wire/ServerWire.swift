import ServerBeeModels

/// The live numbers of one server (v1 §4.5/§4.6), kept in memory and in `servers.live_json`.
struct LiveNumbers: Codable, Sendable, Hashable {
  var uptime: Int64 = 0
  var cpu: Double = 0
  var memUsed: Int64 = 0
  var swapUsed: Int64 = 0
  var diskUsed: Int64 = 0
  var netInSpeed: Int64 = 0
  var netOutSpeed: Int64 = 0
  var netInTransfer: Int64 = 0
  var netOutTransfer: Int64 = 0
  var load1: Double = 0
  var load5: Double = 0
  var load15: Double = 0
  var tcpConn: Int64 = 0
  var udpConn: Int64 = 0
  var processCount: Int64 = 0
  var diskReadBytesPerSec: Int64 = 0
  var diskWriteBytesPerSec: Int64 = 0
}

extension LiveNumbers {
  /// The run of report fields that `LiveMetrics` and records share, `cpu` … `process_count`.
  func writeReport(_ w: inout WireWriter) throws {
    try w("cpu", cpu)
    try w("mem_used", memUsed)
    try w("swap_used", swapUsed)
    try w("disk_used", diskUsed)
    try w("net_in_speed", netInSpeed)
    try w("net_out_speed", netOutSpeed)
    try w("net_in_transfer", netInTransfer)
    try w("net_out_transfer", netOutTransfer)
    try w("load1", load1)
    try w("load5", load5)
    try w("load15", load15)
    try w("tcp_conn", tcpConn)
    try w("udp_conn", udpConn)
    try w("process_count", processCount)
  }
}

/// `agent_authority` (v1 §4.4): the simulator's agents are always claimed with no offer.
struct AgentAuthorityWire: Encodable, Sendable {
  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("status", "claimed")
    try w("outstanding_offer", String?.none)
  }
}

/// A stored server row, the source of every server-shaped wire object.
struct ServerRow: Sendable {
  var id: String
  var name: String
  var cpuName: String?
  var cpuCores: Int64?
  var cpuArch: String?
  var os: String?
  var kernelVersion: String?
  var memTotal: Int64?
  var swapTotal: Int64?
  var diskTotal: Int64?
  var ipv4: String?
  var ipv6: String?
  var region: String?
  var countryCode: String?
  var virtualization: String?
  var agentVersion: String?
  var groupID: String?
  var weight: Int64
  var hidden: Bool
  var remark: String?
  var publicRemark: String?
  var capabilities: Int64
  var protocolVersion: Int64
  var features: [String]
  var tags: [String]
  var online: Bool
  var live: LiveNumbers?
  var createdAt: Int64
  var updatedAt: Int64
}

/// `ServerResponse` (v1 §5.1), configuration only.
struct ServerResponseWire: Encodable, Sendable {
  let row: ServerRow

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", row.id)
    try w("name", row.name)
    try w("cpu_name", row.cpuName)
    try w("cpu_cores", row.cpuCores)
    try w("cpu_arch", row.cpuArch)
    try w("os", row.os)
    try w("kernel_version", row.kernelVersion)
    try w("mem_total", row.memTotal)
    try w("swap_total", row.swapTotal)
    try w("disk_total", row.diskTotal)
    try w("ipv4", row.ipv4)
    try w("ipv6", row.ipv6)
    try w("region", row.region)
    try w("country_code", row.countryCode)
    try w("geo_manual", false)
    try w("virtualization", row.virtualization)
    try w("agent_version", row.agentVersion)
    try w("group_id", row.groupID)
    try w("weight", row.weight)
    try w("hidden", row.hidden)
    try w("remark", row.remark)
    try w("public_remark", row.publicRemark)
    try w("price", Double?.none)
    try w("billing_cycle", String?.none)
    try w("currency", String?.none)
    try w("expired_at", String?.none)
    try w("traffic_limit", Int64?.none)
    try w("traffic_limit_type", String?.none)
    try w("billing_start_day", Int64?.none)
    try w("capabilities", row.capabilities)
    try w("agent_local_capabilities", row.online ? row.capabilities : nil)
    try w("effective_capabilities", row.online ? row.capabilities : nil)
    try w("temporary", [String]())
    try w("protocol_version", row.protocolVersion)
    try w("features", row.features)
    try w("agent_authority", AgentAuthorityWire())
    try w("has_token", true)
    try w("outstanding_enrollment", String?.none)
    try w("created_at", timestamp(row.createdAt, .zulu))
    try w("updated_at", timestamp(row.updatedAt, .zulu))
  }
}

/// `ServerStatus` (v1 §4.5), an element of `full_sync.servers`.
struct ServerStatusWire: Encodable, Sendable {
  let row: ServerRow
  let nowSeconds: Int64

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    let live = row.online ? (row.live ?? LiveNumbers()) : LiveNumbers()
    try w("id", row.id)
    try w("name", row.name)
    try w("online", row.online)
    try w("last_active", row.online ? nowSeconds : row.updatedAt / 1_000_000_000)
    try w("uptime", live.uptime)
    try w("cpu", live.cpu)
    try w("mem_used", live.memUsed)
    try w("mem_total", row.memTotal ?? 0)
    try w("swap_used", live.swapUsed)
    try w("swap_total", row.swapTotal ?? 0)
    try w("disk_used", live.diskUsed)
    try w("disk_total", row.diskTotal ?? 0)
    try w("net_in_speed", live.netInSpeed)
    try w("net_out_speed", live.netOutSpeed)
    try w("net_in_transfer", live.netInTransfer)
    try w("net_out_transfer", live.netOutTransfer)
    try w("load1", live.load1)
    try w("load5", live.load5)
    try w("load15", live.load15)
    try w("tcp_conn", live.tcpConn)
    try w("udp_conn", live.udpConn)
    try w("process_count", live.processCount)
    try w("cpu_name", row.cpuName)
    try w("os", row.os)
    try w("region", row.region)
    try w("country_code", row.countryCode)
    try w("group_id", row.groupID)
    try w("features", row.features)
    try w("disk_read_bytes_per_sec", live.diskReadBytesPerSec)
    try w("disk_write_bytes_per_sec", live.diskWriteBytesPerSec)
    try w("tags", row.tags.sorted())
    try w("cpu_cores", row.cpuCores)
    try w("agent_authority", AgentAuthorityWire())
    try w("has_token", true)
    try w("outstanding_enrollment", String?.none)
  }
}

/// `LiveMetrics` (v1 §4.6), the one element of an `update` frame.
struct LiveMetricsWire: Encodable, Sendable {
  let id: String
  let name: String
  let nowSeconds: Int64
  let live: LiveNumbers

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", id)
    try w("name", name)
    try w("online", true)
    try w("last_active", nowSeconds)
    try w("uptime", live.uptime)
    try live.writeReport(&w)
    try w("disk_read_bytes_per_sec", live.diskReadBytesPerSec)
    try w("disk_write_bytes_per_sec", live.diskWriteBytesPerSec)
  }
}

/// A metric record (v1 §5.2).
struct RecordWire: Encodable, Sendable {
  let id: Int64
  let serverID: String
  let time: Int64
  let live: LiveNumbers
  let diskIOJSON: String?

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", id)
    try w("server_id", serverID)
    try w("time", timestamp(time, .zulu))
    try live.writeReport(&w)
    try w("temperature", Double?.none)
    try w("gpu_usage", Double?.none)
    try w("disk_io_json", diskIOJSON)
  }
}

/// A server group (v1 §5.3).
struct ServerGroupWire: Encodable, Sendable {
  let id: String
  let name: String
  let weight: Int64
  let createdAt: Int64

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", id)
    try w("name", name)
    try w("weight", weight)
    try w("created_at", timestamp(createdAt, .zulu))
  }
}

/// `{"type":"full_sync","servers":[…],"upgrades":[]}`.
struct FullSyncWire: Encodable, Sendable {
  let servers: [ServerStatusWire]

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("type", "full_sync")
    try w("servers", servers)
    try w("upgrades", [String]())
  }
}

/// `{"type":"update","servers":[one LiveMetrics]}`.
struct UpdateWire: Encodable, Sendable {
  let server: LiveMetricsWire

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("type", "update")
    try w("servers", [server])
  }
}

/// `server_online` / `server_offline`.
struct ServerPresenceWire: Encodable, Sendable {
  let online: Bool
  let serverID: String

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("type", online ? "server_online" : "server_offline")
    try w("server_id", serverID)
  }
}
