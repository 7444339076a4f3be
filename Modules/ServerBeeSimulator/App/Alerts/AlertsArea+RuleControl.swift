import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// The control API's event setup: alert rules with their push parameters and maintenance
// windows (what firing alerts and admitting security events read).

extension AlertsArea {
  static let triggerModes: Set<String> = ["always", "once"]

  /// `POST /__simulator/alert-rules`: `id`?, `name`? ("High CPU"), `rule_type`? (`cpu`),
  /// `trigger_mode`? (`always`|`once`), `enabled`? (true), `server_ids`? ([] = every server),
  /// `exclude_users`?, `exclude_cidrs`?, `min_failed_count`?, `min_distinct_ports`?,
  /// `dedupe_window_seconds`? (600) → the rule. An existing id is a 409.
  func controlCreateRule(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = try body.optionalString("id") ?? Crypto.uuid(random)
    let mode = try body.optionalString("trigger_mode") ?? "always"
    guard Self.triggerModes.contains(mode) else {
      throw APIError.validation("trigger_mode must be always or once")
    }
    let parameters = try ruleParameters(body)
    return try db.transaction {
      guard try alertRule(id: id) == nil else { throw APIError.conflict("Alert rule exists") }
      try db.execute(
        """
        INSERT INTO alert_rules (id, name, rule_type, enabled, trigger_mode, created_at,
          server_ids_json, exclude_users_json, exclude_cidrs_json, min_failed_count,
          min_distinct_ports, dedupe_window_seconds)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text(id), .text(try body.optionalString("name") ?? "High CPU"),
          .text(try body.optionalString("rule_type") ?? "cpu"),
          (try body.bool("enabled") ?? true).sql, .text(mode), .int(now),
          parameters["server_ids_json"] ?? "[]", parameters["exclude_users_json"] ?? "[]",
          parameters["exclude_cidrs_json"] ?? "[]", parameters["min_failed_count"] ?? .null,
          parameters["min_distinct_ports"] ?? .null,
          parameters["dedupe_window_seconds"] ?? .int(SimulatorCore.defaultDedupeWindow),
        ])
      return try ruleReport(id)
    }
  }

  /// `PATCH /__simulator/alert-rules/{id}`: any of `name`, `enabled`, `trigger_mode` and the
  /// parameters of ``controlCreateRule(_:)`` (a `null` threshold clears it) → the rule.
  func controlUpdateRule(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = context.parameter(0)
    var changes = try ruleParameters(body)
    if let name = try body.optionalString("name") { changes["name"] = .text(name) }
    if let enabled = try body.bool("enabled") { changes["enabled"] = enabled.sql }
    if let mode = try body.optionalString("trigger_mode") {
      guard Self.triggerModes.contains(mode) else {
        throw APIError.validation("trigger_mode must be always or once")
      }
      changes["trigger_mode"] = .text(mode)
    }
    return try db.transaction {
      guard try alertRule(id: id) != nil else {
        throw APIError.notFound("Alert rule \(id) not found")
      }
      for (column, value) in changes.sorted(by: { $0.key < $1.key }) {
        try db.execute("UPDATE alert_rules SET \(column) = ? WHERE id = ?", [value, .text(id)])
      }
      return try ruleReport(id)
    }
  }

  /// The rule parameters present in `body`, by column (only known column names).
  private func ruleParameters(_ body: JSONBody) throws -> [String: SQLValue] {
    var columns: [String: SQLValue] = [:]
    func list(_ key: String, _ column: String) throws -> [String]? {
      guard let items = try body.strings(key) else { return nil }
      columns[column] = .text(String(decoding: try WireJSON.encode(items), as: UTF8.self))
      return items
    }
    _ = try list("server_ids", "server_ids_json")
    _ = try list("exclude_users", "exclude_users_json")
    if let cidrs = try list("exclude_cidrs", "exclude_cidrs_json"),
      let bad = cidrs.first(where: { IPNetwork.block($0) == nil })
    {
      throw APIError.validation("exclude_cidrs: \(bad) is not an IP address or CIDR block")
    }
    for key in ["min_failed_count", "min_distinct_ports", "dedupe_window_seconds"]
    where body.value[key] != nil {
      let value = try body.int(key)
      if let value, value < 0 { throw APIError.validation("\(key) must not be negative") }
      if key == "dedupe_window_seconds", value == nil {
        throw APIError.validation("dedupe_window_seconds must be a number")
      }
      columns[key] = value.sql
    }
    return columns
  }

  private func ruleReport(_ id: String) throws -> HTTPResponse {
    guard let rule = try alertRule(id: id) else {
      throw APIError.notFound("Alert rule \(id) not found")
    }
    func optional(_ value: Int64?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
    return Reply.object([
      ("id", .string(rule.id)), ("name", .string(rule.name)),
      ("rule_type", .string(rule.ruleType)), ("enabled", .bool(rule.enabled)),
      ("trigger_mode", .string(rule.triggerMode)),
      ("server_ids", .array(rule.serverIDs.map(JSONValue.string))),
      ("exclude_users", .array(rule.excludeUsers.map(JSONValue.string))),
      ("exclude_cidrs", .array(rule.excludeCIDRs.map(JSONValue.string))),
      ("min_failed_count", optional(rule.minFailedCount)),
      ("min_distinct_ports", optional(rule.minDistinctPorts)),
      ("dedupe_window_seconds", .number(Double(rule.dedupeWindowSeconds))),
    ])
  }

  func controlDeleteRule(_ context: RequestContext) throws -> HTTPResponse {
    try db.execute("DELETE FROM alert_rules WHERE id = ?", [.text(context.parameter(0))])
    return Reply.object([("deleted", .bool(true))])
  }

  /// `POST /__simulator/maintenance {server_id|null, starts_at, ends_at}` (Unix seconds; a
  /// missing or null `server_id` covers every server; the window is `[starts_at, ends_at)`)
  /// → `{id, server_id, starts_at, ends_at}`.
  func controlCreateMaintenance(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let serverID = try body.optionalString("server_id")
    let starts = try body.requiredInt("starts_at")
    let ends = try body.requiredInt("ends_at")
    guard ends > starts else { throw APIError.validation("ends_at must be after starts_at") }
    let id = Crypto.uuid(random)
    try db.execute(
      "INSERT INTO maintenance_windows VALUES (?, ?, ?, ?, ?)",
      [.text(id), serverID.sql, .int(starts), .int(ends), .int(now)])
    return Reply.object([
      ("id", .string(id)), ("server_id", serverID.map(JSONValue.string) ?? .null),
      ("starts_at", .number(Double(starts))), ("ends_at", .number(Double(ends))),
    ])
  }

  /// `DELETE /__simulator/maintenance/{id}` → `{deleted}` (false for an unknown id).
  func controlDeleteMaintenance(_ context: RequestContext) throws -> HTTPResponse {
    let changed = try db.execute(
      "DELETE FROM maintenance_windows WHERE id = ?", [.text(context.parameter(0))])
    return Reply.object([("deleted", .bool(changed == 1))])
  }
}
