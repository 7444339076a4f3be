import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Alert rules over `/api` (Protocol/Alerts.md §6.2–§7, §6.1), admin only: the list, one
// rule, and turning it on or off.

extension AlertsArea {
  func alertRules(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM alert_rules ORDER BY created_at DESC")
    return Reply.data(rows.map(Self.alertRule))
  }

  /// An alert rule entity as `GET /api/alert-rules` shows it (Protocol/Alerts.md §6.1, §6.2): `id`,
  /// `name`, `rules_json` (one item of the stored type), `trigger_mode`, `notification_group_id`
  /// (null: the simulator has no notification groups), `cover_type` (`all` when the rule covers
  /// every server, else `include`), `server_ids_json`, `enabled`, `actions_json` (`[]`), then the
  /// `Z` times. The `*_json` members are JSON inside strings. The documents fix no key order for
  /// the rule; this is the order of the wire fixture (`Fixtures/alerts/alert_rules_entity.json`).
  /// `updated_at` repeats `created_at`: the simulator keeps no change time for rules.
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

  /// `PUT /api/alert-rules/{id}` (`Protocol/Alerts.md §6.2`): every member optional, the rule
  /// answered (the app sends only `enabled`).
  ///
  /// As on a real server, axum's JSON extractor reads the whole body before the handler runs:
  /// a member of the wrong type is its plain-text 422 (see ``AlertRuleUpdate``), even for an
  /// unknown rule. Then an unknown id is 404 `Not found: Alert rule <id> not found`, then the
  /// values are validated (``AlertRuleUpdate/validate()``), then the members the simulator
  /// stores are applied: `name`, `enabled`, `trigger_mode`, `server_ids` (`null` clears the list,
  /// which covers every server) and the type of the first item of a non-empty `rules` (the
  /// simulator keeps one rule item). `notification_group_id`, `cover_type` and `actions` are
  /// checked but not kept; neither are an item's thresholds or security parameters.
  func updateAlertRule(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let id = context.parameter(0)
    let update = try AlertRuleUpdate(try context.jsonBody())
    let row = try db.transaction { () throws -> Row in
      guard try alertRule(id: id) != nil else {
        throw APIError.notFound("Alert rule \(id) not found")
      }
      try update.validate()
      for (column, value) in update.columns {
        try db.execute("UPDATE alert_rules SET \(column) = ? WHERE id = ?", [value, .text(id)])
      }
      guard let row = try db.query("SELECT * FROM alert_rules WHERE id = ?", [.text(id)]).first
      else { throw APIError.notFound("Alert rule \(id) not found") }
      return row
    }
    try core.audit(caller, "alert_rule.update", detail: id, context)
    return Reply.json(200, JSONValue.object([(key: "data", value: Self.alertRule(row))]))
  }

  /// The body of `PUT /api/alert-rules/{id}`, read with serde's semantics
  /// (`Protocol/Alerts.md §6.2`; `Protocol/README.md §5` for the framework's plain-text 422).
  ///
  /// Types: `name`, `trigger_mode`, `cover_type` and `notification_group_id` are strings,
  /// `enabled` a bool, `server_ids` a list of strings; `rules` a list of objects, each with a
  /// string `rule_type` (`Protocol/Alerts.md §6.1`); `actions` a list of objects. `null` is as
  /// good as a missing member (for `notification_group_id` and `server_ids` it clears them).
  /// A wrong type is `Failed to deserialize the JSON body into the target type: <path>: invalid
  /// type`, a rule item without `rule_type` `…: rules[<n>]: missing field `rule_type``, both
  /// in the simulator's shortened form of serde's message. Unknown members are ignored.
  struct AlertRuleUpdate {
    /// Values for `cover_type` (those of the block list, `Protocol/AppRoutes.md §10`).
    static let coverTypes = ["all", "include", "exclude"]

    let name: String?
    let enabled: Bool?
    let triggerMode: String?
    let coverType: String?
    /// `.some(nil)` when the body clears the list with `null`.
    let serverIDs: [String]??
    /// The `rule_type` of each item of `rules`, when present.
    let ruleTypes: [String]?

    init(_ body: JSONBody) throws {
      name = try body.optionalString("name")
      enabled = try body.bool("enabled")
      triggerMode = try body.optionalString("trigger_mode")
      coverType = try body.optionalString("cover_type")
      _ = try body.optionalString("notification_group_id")
      let ids = try body.strings("server_ids")
      serverIDs = body.value["server_ids"] == nil ? nil : .some(ids)
      ruleTypes = try Self.ruleTypes(body.value["rules"])
      try Self.objects(body.value["actions"], "actions")
    }

    /// The value check a real server makes after finding the rule: an unknown `cover_type` is
    /// refused as the upstream handler's cover-type check words it (the text is inferred; the
    /// documents give none). `trigger_mode` is stored as sent, unchecked, as upstream stores it:
    /// the simulator is as strict as the server, not stricter.
    /// - Throws: ``APIError/validation(_:)`` (422, `Validation error: …`).
    func validate() throws {
      if let coverType, !Self.coverTypes.contains(coverType) {
        throw APIError.validation(
          "Invalid cover_type '\(coverType)': must be one of 'all', 'include', 'exclude'")
      }
    }

    /// The stored columns this update changes.
    var columns: [(String, SQLValue)] {
      var columns: [(String, SQLValue)] = []
      if let name { columns.append(("name", .text(name))) }
      if let enabled { columns.append(("enabled", enabled.sql)) }
      if let triggerMode { columns.append(("trigger_mode", .text(triggerMode))) }
      if let serverIDs {
        let json = (try? WireJSON.encode(serverIDs ?? [])).map {
          String(decoding: $0, as: UTF8.self)
        }
        columns.append(("server_ids_json", .text(json ?? "[]")))
      }
      if let first = ruleTypes?.first { columns.append(("rule_type", .text(first))) }
      return columns
    }

    private static func ruleTypes(_ value: JSONValue?) throws -> [String]? {
      guard let items = try objects(value, "rules") else { return nil }
      return try items.enumerated().map { index, item in
        let path = "rules[\(index)]"
        guard let type = item["rule_type"] else {
          throw APIError.plain(422, "\(prefix)\(path): missing field `rule_type`")
        }
        guard case .string(let text) = type else {
          throw APIError.plain(422, "\(prefix)\(path).rule_type: invalid type")
        }
        return text
      }
    }

    /// A list of objects, or `nil` for a missing or `null` member.
    @discardableResult
    private static func objects(_ value: JSONValue?, _ key: String) throws -> [JSONValue]? {
      guard let value, value != .null else { return nil }
      guard case .array(let items) = value else {
        throw APIError.plain(422, "\(prefix)\(key): invalid type")
      }
      for (index, item) in items.enumerated() {
        guard case .object = item else {
          throw APIError.plain(422, "\(prefix)\(key)[\(index)]: invalid type")
        }
      }
      return items
    }

    private static let prefix = "Failed to deserialize the JSON body into the target type: "
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
