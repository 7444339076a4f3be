import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Firing and resolving alerts (control API only; the simulator has no evaluator), and the push
// each notifying trigger or recovery makes (Protocol/Push.md §4).

extension AlertsArea {
  /// `POST /__simulator/alerts/fire`: the rule evaluated as firing now (created on first use);
  /// pushes as Protocol/Push.md §4 says (``fireAlert(_:serverID:eventKey:)``).
  func controlFireAlert(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let serverID = try body.string("server_id")
    let ruleType = try body.optionalString("rule_type") ?? "cpu"
    let ruleID = try body.optionalString("rule_id") ?? Crypto.uuid(random)
    let sourceIP = try body.optionalString("source_ip") ?? ""
    let name = try body.optionalString("rule_name") ?? "High CPU"
    let mode = try body.optionalString("trigger_mode") ?? "always"
    return try db.transaction {
      try db.execute(
        """
        INSERT OR IGNORE INTO alert_rules (id, name, rule_type, enabled, trigger_mode, created_at)
        VALUES (?, ?, ?, 1, ?, ?)
        """, [.text(ruleID), .text(name), .text(ruleType), .text(mode), .int(now)])
      guard let rule = try alertRule(id: ruleID) else {
        throw APIError.notFound("Alert rule \(ruleID) not found")
      }
      let (state, pushes) = try fireAlert(
        rule, serverID: serverID, eventKey: rule.isSecurity ? sourceIP : "")
      return Reply.object([
        ("rule_id", .string(ruleID)), ("alert_key", .string(state?.alertKey ?? "")),
        ("count", .number(Double(state?.count ?? 0))), ("pushes", .number(Double(pushes))),
      ])
    }
  }

  func controlResolveAlert(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let ruleID = try body.string("rule_id")
    let serverID = try body.string("server_id")
    let (resolved, pushes) = try db.transaction {
      try resolveAlerts(ruleID: ruleID, serverID: serverID)
    }
    return Reply.object([
      ("resolved", .number(Double(resolved))), ("pushes", .number(Double(pushes))),
    ])
  }

  /// `always` rules notify again only this long after the last notification (Protocol/Alerts.md
  /// §3).
  static let alertDebounce: Int64 = 300 * second

  /// Names in alert content are cut to this many Unicode scalars (Protocol/Push.md §3.4).
  static let pushNameLimit = 120

  func alertRule(id: String) throws -> AlertRuleRow? {
    try db.query("SELECT * FROM alert_rules WHERE id = ?", [.text(id)]).first
      .map(AlertRuleRow.init)
  }

  /// `POST /__simulator/alerts/fire`: the rule evaluated as firing now for one state. An
  /// enabled non-security rule outside maintenance notifies at the first trigger of a cycle;
  /// an `always` rule again once 300 s passed since its last notification (`once` never again).
  func fireAlert(_ rule: AlertRuleRow, serverID: String, eventKey: String) throws
    -> (state: AlertStateRow?, pushes: Int)
  {
    let (state, notified) = try core.recordTrigger(rule, serverID: serverID, eventKey: eventKey) {
      firing in
      guard rule.enabled, !rule.isSecurity,
        try !core.isInMaintenance(serverID: serverID, at: nowSeconds)
      else { return false }
      guard let firing else { return true }
      guard rule.triggerMode != "once" else { return false }
      guard let last = firing.lastNotifiedAt else { return true }
      return now - last >= Self.alertDebounce
    }
    guard notified, let state else { return (state, 0) }
    return (state, try admitAlertPush(state, rule: rule, status: .firing, at: now))
  }

  /// `POST /__simulator/alerts/resolve`: every firing state of the rule and server resolves now;
  /// each firing→resolved edge of an enabled non-security rule pushes once (maintenance never
  /// suppresses a recovery).
  func resolveAlerts(ruleID: String, serverID: String) throws -> (resolved: Int, pushes: Int) {
    let firing = try db.query(
      Self.alertStateSelect + " WHERE s.rule_id = ? AND s.server_id = ? AND s.resolved = 0",
      [.text(ruleID), .text(serverID)]
    ).map(Self.alertState)
    let rule = try alertRule(id: ruleID)
    var pushes = 0
    for state in firing {
      try db.execute(
        """
        UPDATE alert_states SET resolved = 1, resolved_at = ?, updated_at = ?
        WHERE rule_id = ? AND server_id = ? AND event_key = ? AND resolved = 0
        """,
        [.int(now), .int(now), .text(ruleID), .text(serverID), .text(state.eventKey)])
      if let rule, rule.enabled, !rule.isSecurity {
        pushes += try admitAlertPush(state, rule: rule, status: .resolved, at: now)
      }
    }
    return (firing.count, pushes)
  }

  /// Seals an alert push for everyone subscribed to alerts (admins and members alike).
  /// `event_id` is the Protocol/Push.md §4 formula; `repeat` is the trigger time for firing pushes
  /// of non-`once` rules, in the `+00:00` form of the `v1.` key (what chrono's `to_rfc3339`
  /// writes).
  private func admitAlertPush(
    _ state: AlertStateRow, rule: AlertRuleRow, status: PushAlertStatus, at nanos: Int64
  ) throws -> Int {
    let key = state.alertKey
    let repeatTime =
      status == .firing && rule.triggerMode != "once"
      ? timestamp(nanos, .utcOffset).formatted(.utcOffset) : ""
    let eventID = try Self.alertEventID(alertKey: key, status: status, repeat: repeatTime)
    let content = PushContent(
      kind: .alert, deploymentID: "", userID: "", installationID: "", eventID: eventID,
      createdAt: SimulatorCore.seconds(nanos), expiresAt: 0,
      alert: PushAlertSummary(
        alertKey: key, status: status, ruleName: Self.pushName(rule.name),
        serverName: Self.pushName(state.serverName ?? "Unknown")))
    return try core.admitEverywhere(content, category: .alerts, adminOnly: false)
  }

  /// The first 16 bytes of SHA-256 of `["alert", alert_key, status, repeat]` (compact,
  /// `/` unescaped) as a lowercase hyphenated UUID; the version bits are left as they fall.
  static func alertEventID(alertKey: String, status: PushAlertStatus, repeat: String) throws
    -> String
  {
    let json = try WireJSON.encode(["alert", alertKey, status.rawValue, `repeat`])
    let hex = Array(Hex.encode(Array(SHA256.digest(Array(json)).prefix(16))))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
      .joined(separator: "-")
  }

  static func pushName(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.prefix(pushNameLimit)))
  }
}
