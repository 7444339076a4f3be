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

  /// An alert rule entity as `GET /api/alert-rules` shows it (wire contract v1 §6.5, app routes
  /// §3.11 #83): `id`, `name`, `rules_json` (one item of the stored type), `trigger_mode`,
  /// `notification_group_id` (null: the simulator has no notification groups), `cover_type`
  /// (`all` when the rule covers every server, else `include`), `server_ids_json`, `enabled`,
  /// `actions_json` (`[]`), then the `Z` times. The `*_json` members are JSON inside strings.
  /// The documents fix no key order for the rule; this is the order of the wire fixture
  /// (`Fixtures/alerts/alert_rules_entity.json`). `updated_at` repeats `created_at`: the
  /// simulator keeps no change time for rules.
  static func alertRule(_ row: Row) -> JSONValue {
    let created = JSONValue.string(timestamp(row["created_at"].int ?? 0, .zulu).formatted(.zulu))
    let serverIDs = row["server_ids_json"].text ?? "[]"
    let coversAll =
      (try? WireJSON.decode([String].self, from: Data(serverIDs.utf8)))?.isEmpty ?? true
    let ruleItem = JSONValue.array([.object([("rule_type", .string(row["rule_type"].text ?? ""))])])
    let rulesJSON = (try? WireJSON.encode(ruleItem)).map { String(decoding: $0, as: UTF8.self) }
    return .object([
      ("id", .string(row["id"].text ?? "")), ("name", .string(row["name"].text ?? "")),
      ("rules_json", .string(rulesJSON ?? "[]")),
      ("trigger_mode", .string(row["trigger_mode"].text ?? "always")),
      ("notification_group_id", .null), ("cover_type", .string(coversAll ? "all" : "include")),
      ("server_ids_json", .string(serverIDs)), ("enabled", .bool(row["enabled"].bool)),
      ("actions_json", .string("[]")), ("created_at", created), ("updated_at", created),
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
