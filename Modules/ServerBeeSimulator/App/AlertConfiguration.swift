import Foundation
import ServerBeeModels
import ServerBeeTransport

// Alert configuration (app routes §3.11, wire contract v1 §6.5), admin only: one rule, and
// turning it on or off.

extension SimulatorCore {
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
    try audit(caller, "alert_rule.update", detail: id, context)
    return Reply.json(200, JSONValue.object([(key: "data", value: Self.alertRule(row))]))
  }
}
