import Foundation
import ServerBeeModels

/// Alert states, shared by alerts and admitted security events (Protocol/Alerts.md §3,
/// Protocol/Security.md §5): both record their triggers in `alert_states`, and both are silenced by
/// maintenance windows.
///
/// `last_notified_at` is written only when the state notifies, so it is both the `always`
/// debounce anchor and the security dedupe anchor; a cycle that never notified (maintenance, a
/// disabled rule) keeps it `NULL`.
extension SimulatorCore {
  /// A security rule's `dedupe_window_seconds` when none is set (Protocol/Security.md §5).
  static let defaultDedupeWindow: Int64 = 600

  private func alertState(ruleID: String, serverID: String, eventKey: String) throws
    -> AlertStateRow?
  {
    try db.query(
      AlertsArea.alertStateSelect + " WHERE s.rule_id = ? AND s.server_id = ? AND s.event_key = ?",
      [.text(ruleID), .text(serverID), .text(eventKey)]
    ).first.map(AlertsArea.alertState)
  }

  /// Whether a maintenance window covers `serverID` at Unix second `at`: a control-API window
  /// (`[starts_at, ends_at)`), or an active window of the API (Protocol/Incidents.md §3.5,
  /// ``isInScheduledMaintenance(serverID:at:)``).
  func isInMaintenance(serverID: String, at seconds: Int64) throws -> Bool {
    let controlWindow = try !db.query(
      """
      SELECT id FROM maintenance_windows WHERE (server_id IS NULL OR server_id = ?)
        AND starts_at <= ? AND ends_at > ? LIMIT 1
      """, [.text(serverID), .int(seconds), .int(seconds)]
    ).isEmpty
    return try controlWindow || isInScheduledMaintenance(serverID: serverID, at: seconds)
  }

  /// Records one trigger of `rule` for a state: a new cycle when there is none or it is
  /// resolved (first trigger now, count 1), else one more tick. `decide` sees the firing state
  /// of the current cycle (`nil` at the first trigger) and says whether this trigger notifies;
  /// only then is `last_notified_at` set to now.
  func recordTrigger(
    _ rule: AlertRuleRow, serverID: String, eventKey: String,
    decide: (AlertStateRow?) throws -> Bool
  ) throws -> (state: AlertStateRow?, notified: Bool) {
    let existing = try alertState(ruleID: rule.id, serverID: serverID, eventKey: eventKey)
    let firing = existing.flatMap { $0.resolved ? nil : $0 }
    let notified = try decide(firing)
    let notifiedAt: SQLValue = notified ? .int(now) : .null
    if existing == nil {
      try db.execute(
        """
        INSERT INTO alert_states (rule_id, server_id, event_key, first_triggered_at,
          last_notified_at, count, resolved, resolved_at, updated_at)
        VALUES (?, ?, ?, ?, ?, 1, 0, NULL, ?)
        """,
        [.text(rule.id), .text(serverID), .text(eventKey), .int(now), notifiedAt, .int(now)])
    } else if firing == nil {
      try db.execute(
        """
        UPDATE alert_states SET first_triggered_at = ?, last_notified_at = ?, count = 1,
          resolved = 0, resolved_at = NULL, updated_at = ?
        WHERE rule_id = ? AND server_id = ? AND event_key = ?
        """,
        [.int(now), notifiedAt, .int(now), .text(rule.id), .text(serverID), .text(eventKey)])
    } else {
      try db.execute(
        """
        UPDATE alert_states SET count = count + 1, updated_at = ?,
          last_notified_at = CASE WHEN ? THEN ? ELSE last_notified_at END
        WHERE rule_id = ? AND server_id = ? AND event_key = ?
        """,
        [
          .int(now), notified.sql, .int(now), .text(rule.id), .text(serverID), .text(eventKey),
        ])
    }
    return (try alertState(ruleID: rule.id, serverID: serverID, eventKey: eventKey), notified)
  }
}
