import Foundation
import ServerBeeModels

/// A stored alert rule with the parameters the push events read (Protocol/Alerts.md §6.1,
/// Protocol/Security.md §5).
struct AlertRuleRow: Sendable, Equatable {
  var id: String
  var name: String
  var ruleType: String
  var enabled: Bool
  var triggerMode: String
  /// The covered servers; empty covers every server.
  var serverIDs: [String]
  var excludeUsers: [String]
  var excludeCIDRs: [String]
  var minFailedCount: Int64?
  var minDistinctPorts: Int64?
  var dedupeWindowSeconds: Int64

  init(_ row: Row) {
    id = row["id"].text ?? ""
    name = row["name"].text ?? ""
    ruleType = row["rule_type"].text ?? ""
    enabled = row["enabled"].bool
    triggerMode = row["trigger_mode"].text ?? "always"
    serverIDs = Self.strings(row["server_ids_json"].text)
    excludeUsers = Self.strings(row["exclude_users_json"].text)
    excludeCIDRs = Self.strings(row["exclude_cidrs_json"].text)
    minFailedCount = row["min_failed_count"].int
    minDistinctPorts = row["min_distinct_ports"].int
    dedupeWindowSeconds = row["dedupe_window_seconds"].int ?? SimulatorCore.defaultDedupeWindow
  }

  private static func strings(_ json: String?) -> [String] {
    json.flatMap { try? WireJSON.decode([String].self, from: Data($0.utf8)) } ?? []
  }

  var isSecurity: Bool { AlertsArea.securityRuleTypes.contains(ruleType) }

  func covers(serverID: String) -> Bool { serverIDs.isEmpty || serverIDs.contains(serverID) }
}
