import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Alert rules over `/api` (app routes §3.11, wire contract v1 §6.5), admin only: the list, one
// rule, and turning it on or off.

extension AlertsArea {
  func alertRules(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM alert_rules ORDER BY created_at DESC")
    return Reply.data(rows.map(Self.alertRule))
  }

  /// An alert rule as the admin list shows it, in a reduced form (id, name, enabled, one rule of
  /// the stored type, mode, times): the members ServerBeeModels' `AlertRule` reads.
  static func alertRule(_ row: Row) -> JSONValue {
    let created = JSONValue.string(timestamp(row["created_at"].int ?? 0, .zulu).formatted(.zulu))
    return .object([
      ("id", .string(row["id"].text ?? "")), ("name", .string(row["name"].text ?? "")),
      ("enabled", .bool(row["enabled"].bool)),
      ("rules_json", .string("[{\"rule_type\":\"\(row["rule_type"].text ?? "")\"}]")),
      ("trigger_mode", .string(row["trigger_mode"].text ?? "always")),
      ("created_at", created), ("updated_at", created),
    ])
  }

  /// `GET /api/alert-rules/{id}`: the rule, or 404 `Not found: Alert rule <id> not found`.
  func alertRuleDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let row = try db.query("SELECT * FROM alert_rules WHERE id = ?", [.text(id)]).first
    else { throw APIError.notFound("Alert rule \(id) not found") }
    return Reply.json(200, JSONValue.object([(key: "data", value: Self.alertRule(row))]))
  }

  /// `PUT /api/alert-rules/{id}`: every member optional; the simulator applies `enabled` and
  /// `name` (the app sends only `enabled`) and answers the rule.
  func updateAlertRule(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let id = context.parameter(0)
    let body = try context.jsonBody()
    let enabled = try body.bool("enabled")
    let name = try body.optionalString("name")
    let changed = try db.execute(
      "UPDATE alert_rules SET enabled = COALESCE(?, enabled), name = COALESCE(?, name) WHERE id = ?",
      [enabled.map { .int($0 ? 1 : 0) } ?? .null, name.sql, .text(id)])
    guard changed > 0,
      let row = try db.query("SELECT * FROM alert_rules WHERE id = ?", [.text(id)]).first
    else { throw APIError.notFound("Alert rule \(id) not found") }
    try core.audit(caller, "alert_rule.update", detail: id, context)
    return Reply.json(200, JSONValue.object([(key: "data", value: Self.alertRule(row))]))
  }
}

extension AlertsArea {
  /// `GET /api/alert-rules/{id}/states`: the rule's state on each server, one entry per stored
  /// state (a security rule keeps one per event key), oldest cycle first; times in the `Z`
  /// form, `server_name` `"Unknown"` for a server that is gone. An unknown rule id answers an
  /// empty list: the server reads the states table by rule id without looking the rule up
  /// (inferred; no upstream test pins it).
  func alertRuleStates(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query(
      """
      SELECT s.server_id, COALESCE(v.name, 'Unknown') AS server_name, s.first_triggered_at,
        s.last_notified_at, s.count, s.resolved, s.resolved_at
      FROM alert_states s LEFT JOIN servers v ON v.id = s.server_id
      WHERE s.rule_id = ? ORDER BY s.first_triggered_at, s.server_id, s.event_key
      """, [.text(context.parameter(0))])
    let states = rows.map { row in
      AlertRuleState(
        serverID: row["server_id"].text ?? "", serverName: row["server_name"].text ?? "Unknown",
        firstTriggeredAt: timestamp(row["first_triggered_at"].int ?? 0, .zulu),
        lastNotifiedAt: timestamp(row["last_notified_at"].int, .zulu),
        count: Int(row["count"].int ?? 0), resolved: row["resolved"].bool,
        resolvedAt: timestamp(row["resolved_at"].int, .zulu))
    }
    return Reply.data(states)
  }
}
