import RealtimeStream
import ServerBeeModels

/// One server as `servers` and `watch` show it: live state merged with its configuration.
///
/// Encoded with snake_case keys in declaration order for `--json`; a metric the server did not
/// send is `null` (unknown), never `0`. The agent's authority (Protocol/Agents.md §10) is the
/// live one (`full_sync`, then `agent_authority_changed`), else the configuration's.
struct ServerRow: Codable, Sendable, Hashable {
  var id: String
  var name: String
  var online: Bool
  var cpu: Double?
  var memUsed: Int64?
  var memTotal: Int64?
  var diskUsed: Int64?
  var diskTotal: Int64?
  var netInSpeed: Int64?
  var netOutSpeed: Int64?
  var load1: Double?
  var uptime: Int64?
  var os: String?
  var region: String?
  var countryCode: String?
  var groupID: String?
  var agentVersion: String?
  var tags: [String]
  /// Claimed or not, and the open enrolment offer.
  var agentAuthority: AgentAuthority?
  /// Whether an agent holds the server (`agent_authority.status == "claimed"`).
  var hasToken: Bool?
  /// The open offer: the same object as `agent_authority.outstanding_offer`.
  var outstandingEnrollment: OutstandingOffer?

  enum CodingKeys: String, CodingKey {
    case id, name, online, cpu
    case memUsed = "mem_used"
    case memTotal = "mem_total"
    case diskUsed = "disk_used"
    case diskTotal = "disk_total"
    case netInSpeed = "net_in_speed"
    case netOutSpeed = "net_out_speed"
    case load1, uptime, os, region
    case countryCode = "country_code"
    case groupID = "group_id"
    case agentVersion = "agent_version"
    case tags
    case agentAuthority = "agent_authority"
    case hasToken = "has_token"
    case outstandingEnrollment = "outstanding_enrollment"
  }

  /// Merges one live status with its configuration, if known.
  init(status: ServerStatus, configuration: ServerResponse?) {
    id = status.id
    name = status.name
    online = status.online ?? false
    cpu = status.cpu
    memUsed = status.memUsed
    // The live total wins unless it is unknown or 0 (unknown capacity, Protocol/LiveStream.md §7).
    memTotal = MetricField.mergedCapacity(configuration?.memTotal, status.memTotal)
    diskUsed = status.diskUsed
    diskTotal = MetricField.mergedCapacity(configuration?.diskTotal, status.diskTotal)
    netInSpeed = status.netInSpeed
    netOutSpeed = status.netOutSpeed
    load1 = status.load1
    uptime = status.uptime
    os = status.os ?? configuration?.os
    region = status.region ?? configuration?.region
    countryCode = status.countryCode ?? configuration?.countryCode
    groupID = status.groupID ?? configuration?.groupID
    agentVersion = configuration?.agentVersion
    tags = status.tags ?? []
    if let live = status.agentAuthority {
      agentAuthority = live
      hasToken = status.hasToken ?? (live.status == .claimed)
      outstandingEnrollment = status.outstandingEnrollment ?? live.outstandingOffer
    } else if let configuration {
      agentAuthority = configuration.agentAuthority
      hasToken = configuration.hasToken
      outstandingEnrollment = configuration.outstandingEnrollment
    }
  }

  /// The rows of a fleet snapshot, in the server's order.
  static func rows(of fleet: FleetState) -> [ServerRow] {
    fleet.servers.map { ServerRow(status: $0, configuration: fleet.configurations[$0.id]) }
  }
}
