import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Alert events (Protocol/Alerts.md §1–§2, §5): the states of alert rules
// per server, listed or by key.

extension AlertsArea {
  static let alertStateSelect = """
    SELECT s.*, r.name AS rule_name, r.rule_type AS rule_type, r.enabled AS rule_enabled,
      r.trigger_mode AS trigger_mode, v.name AS server_name
    FROM alert_states s LEFT JOIN alert_rules r ON r.id = s.rule_id
      LEFT JOIN servers v ON v.id = s.server_id
    """

  static func alertState(_ row: Row) -> AlertStateRow {
    AlertStateRow(
      ruleID: row["rule_id"].text ?? "", ruleName: row["rule_name"].text,
      ruleType: row["rule_type"].text, ruleEnabled: row["rule_enabled"].bool,
      triggerMode: row["trigger_mode"].text ?? "always", serverID: row["server_id"].text ?? "",
      serverName: row["server_name"].text, eventKey: row["event_key"].text ?? "",
      firstTriggeredAt: row["first_triggered_at"].int ?? 0, count: row["count"].int ?? 0,
      resolved: row["resolved"].bool, resolvedAt: row["resolved_at"].int,
      updatedAt: row["updated_at"].int ?? 0, lastNotifiedAt: row["last_notified_at"].int)
  }

  static let securityRuleTypes: Set<String> = [
    "ssh_new_ip_login", "ssh_brute_force_detected", "port_scan_detected",
  ]

  func alertEvents(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let limit = try context.queryCount("limit", default: 20)
    let rows = try db.query(
      Self.alertStateSelect + " ORDER BY s.resolved ASC, s.updated_at DESC LIMIT ?", [.int(limit)])
    return Reply.data(rows.map { Self.alertState($0).event })
  }

  func alertEventDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let key = context.parameter(0)
    let notFound = APIError.notFound("Alert state for key \(key) not found")
    if key.hasPrefix("v1.") {
      guard let bytes = Base64URL.decode(String(key.dropFirst(3))),
        let parts = try? WireJSON.decode([String].self, from: Data(bytes)), parts.count == 4
      else { throw notFound }
      let rows = try db.query(
        Self.alertStateSelect + " WHERE s.rule_id = ? AND s.server_id = ? AND s.event_key = ?",
        [.text(parts[0]), .text(parts[1]), .text(parts[2])])
      guard let row = rows.first.map(Self.alertState), row.alertKey == key else { throw notFound }
      guard row.ruleName != nil else {
        throw APIError.notFound("Alert rule \(row.ruleID) not found")
      }
      return Reply.data(row.detail(key: key))
    }
    guard let colon = key.firstIndex(of: ":") else {
      throw APIError.badRequest("alert_key must be in the format rule_id:server_id")
    }
    let ruleID = String(key[..<colon])
    let serverID = String(key[key.index(after: colon)...])
    let rows = try db.query(
      Self.alertStateSelect + " WHERE s.rule_id = ? AND s.server_id = ?",
      [.text(ruleID), .text(serverID)])
    guard let row = rows.first.map(Self.alertState) else { throw notFound }
    guard row.ruleName != nil else { throw APIError.notFound("Alert rule \(ruleID) not found") }
    // Legacy keys name no security dimension (Protocol/Alerts.md §5).
    if let type = row.ruleType, Self.securityRuleTypes.contains(type) { throw notFound }
    return Reply.data(row.detail(key: key))
  }
}
