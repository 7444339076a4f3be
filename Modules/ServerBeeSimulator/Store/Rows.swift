import Foundation
import ServerBeeCore
import ServerBeeModels

// Rows as the simulator stores them; Wire/SharedModels.swift writes them as the shared models.

/// The live numbers of one server (Protocol/LiveStream.md §5, §6), kept in memory and in
/// `servers.live_json`.
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
  // Migration 11 (Protocol/Servers.md §4.1): what `PUT /api/servers/{id}` writes besides the
  // columns above.
  var geoManual: Bool = false
  var price: Double? = nil
  var billingCycle: String? = nil
  var currency: String? = nil
  var expiredAt: Int64? = nil
  var trafficLimit: Int64? = nil
  var trafficLimitType: String? = nil
  var billingStartDay: Int64? = nil
  // Migration 14 and the offers (Protocol/Agents.md §1): whether an agent holds the server,
  // and its open offer (``openOfferColumn``).
  var agentClaimed: Bool = true
  var openOffer: OutstandingOffer? = nil
}

/// One alert state joined with its rule and server names.
struct AlertStateRow: Sendable {
  var ruleID: String
  var ruleName: String?
  var ruleType: String?
  var ruleEnabled: Bool
  var triggerMode: String
  var serverID: String
  var serverName: String?
  var eventKey: String
  var firstTriggeredAt: Int64
  var count: Int64
  var resolved: Bool
  var resolvedAt: Int64?
  var updatedAt: Int64
  /// When the state last notified (the trigger time of its latest push), if it ever did.
  var lastNotifiedAt: Int64? = nil

  /// The `v1.` key: base64url of `[rule_id, server_id, event_key, first_triggered_at]`
  /// (Protocol/Alerts.md §5).
  var alertKey: String {
    let parts = [
      ruleID, serverID, eventKey, timestamp(firstTriggeredAt, .utcOffset).formatted(.utcOffset),
    ]
    let json = (try? WireJSON.encode(parts)) ?? Data()
    return "v1." + Base64URL.encode(Array(json))
  }
}

/// A stored security event (Protocol/Security.md §2).
struct SecurityEventRow: Sendable {
  var id: String
  var serverID: String
  var eventType: String
  var severity: String
  var sourceIP: String
  var sourcePort: Int64?
  var username: String?
  var startedAt: Int64
  var endedAt: Int64
  var firstSeen: Bool
  var detectorSource: String
  var evidence: SecurityEventEvidence?
  var createdAt: Int64
}
