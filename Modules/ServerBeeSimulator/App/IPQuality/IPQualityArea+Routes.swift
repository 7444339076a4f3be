import Foundation
import ServerBeeModels
import ServerBeeTransport

// The eight IP quality routes (Protocol/AppRoutes.md §9).
//
// [inferred], as Protocol/AppRoutes.md §9 records:
// - before its first recheck a server has the check its agent made when it was added;
// - the results cover the enabled services, in the services' order;
// - the 409's sentence after "IP Quality is disabled by the agent." is the simulator's;
// - a custom service's new request is written `{url, method, headers, timeout_ms}` in that
//   order (headers and timeout back to [] and 5000 unless given, as the server does);
// - an unknown service: 404 `Not found: Service <id> not found`, for PUT and DELETE.

extension IPQualityArea {
  /// The IP quality capability's bit (Protocol/AppRoutes.md §9).
  static let capability: Int64 = 1024

  /// `GET /api/ip-quality/overview` (member): every server, by id.
  func overview(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let ids = try db.query("SELECT id FROM servers ORDER BY id").compactMap { $0["id"].text }
    return Reply.data(JSONValue.array(try ids.map { try quality($0) }))
  }

  /// `GET /api/ip-quality/servers/{id}` (member); empty data for an unknown server.
  func serverQuality(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    Reply.data(try quality(context.parameter(0)))
  }

  /// `POST /api/ip-quality/servers/{id}/check` (admin) → `"ok"`; the new check lands on the
  /// clock ``checkDelay`` later.
  func check(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let server = try core.server(id: id), server.online else {
      throw APIError.notFound("Server \(id) is not online")
    }
    guard server.capabilities & Self.capability != 0 else {
      throw APIError.conflict(
        "IP Quality is disabled by the agent. Set `ip_quality = true` in the agent's config "
          + "and restart it.")
    }
    let current = try state(id, createdAt: server.createdAt)
    try db.execute(
      """
      INSERT INTO ip_quality_checks (server_id, generation, checked_at, pending_at)
      VALUES (?, ?, ?, ?) ON CONFLICT (server_id) DO UPDATE SET pending_at = excluded.pending_at
      """,
      [.text(id), .int(current.generation), .int(current.checkedAt), .int(now + Self.checkDelay)])
    return Reply.data("ok")
  }

  /// `GET /api/ip-quality/services` (member): by category, then popularity descending.
  func services(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query(
      "SELECT * FROM ip_quality_services ORDER BY category, popularity DESC, id")
    return Reply.data(JSONValue.array(rows.map(Self.service)))
  }

  /// `PUT /api/ip-quality/services/{id}` (admin): a built-in takes only `enabled`; a custom
  /// service also its name, category, popularity, request (`url`, `method`, `headers`,
  /// `timeout_ms`) and `rules`, checked as on creation (``CustomServiceRules``) before anything
  /// is written, so a refused change leaves the row as it was.
  func updateService(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    let body = try context.jsonBody()
    let enabled = try body.bool("enabled")
    let name = try body.optionalString("name")
    let category = try body.optionalString("category")
    let popularity = try body.int("popularity")
    let url = try body.optionalString("url")
    let method = try body.optionalString("method")
    let headers = try Self.headers(body)
    let timeout = try body.int("timeout_ms")
    if let timeout, !(0...Int64(UInt32.max)).contains(timeout) {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: timeout_ms: invalid value")
    }
    let rules = try Self.rules(body)
    guard
      let row = try db.query("SELECT * FROM ip_quality_services WHERE id = ?", [.text(id)]).first
    else { throw APIError.notFound("Service \(id) not found") }
    let builtin = row["is_builtin"].int == 1
    var request = row["request"].text
    var storedRules = row["rules"].text
    if !builtin {
      if url != nil || method != nil || headers != nil || timeout != nil {
        let existing = request.flatMap { try? WireJSON.decode(JSONValue.self, from: Data($0.utf8)) }
        let newURL = url ?? existing?["url"]?.stringValue ?? ""
        if let url { try CustomServiceRules.check(url: url) }
        let object = JSONValue.object([
          ("url", .string(newURL)),
          ("method", .string(method ?? existing?["method"]?.stringValue ?? "GET")),
          ("headers", .array((headers ?? []).map { .array([.string($0.0), .string($0.1)]) })),
          ("timeout_ms", .integer(timeout ?? 5000)),
        ])
        request = String(decoding: try WireJSON.encode(object), as: UTF8.self)
      }
      if let rules {
        try CustomServiceRules.check(rules: rules)
        storedRules = try JSONValue.array(rules).serdeText
      }
    }
    try db.execute(
      """
      UPDATE ip_quality_services SET enabled = ?, name = ?, category = ?, popularity = ?,
        request = ?, rules = ?, updated_at = ? WHERE id = ?
      """,
      [
        .int(enabled.map { $0 ? 1 : 0 } ?? row["enabled"].int ?? 1),
        .text((builtin ? nil : name) ?? row["name"].text ?? ""),
        .text((builtin ? nil : category) ?? row["category"].text ?? ""),
        .int((builtin ? nil : popularity) ?? row["popularity"].int ?? 0),
        request.map { .text($0) } ?? .null, storedRules.map { .text($0) } ?? .null, .int(now),
        .text(id),
      ])
    let updated = try db.query("SELECT * FROM ip_quality_services WHERE id = ?", [.text(id)])
    return Reply.data(updated.first.map(Self.service) ?? .null)
  }

  /// `headers` as serde reads `Option<Vec<(String, String)>>`: pairs of strings, or a 422.
  private static func headers(_ body: JSONBody) throws -> [(String, String)]? {
    guard let field = body.value["headers"], field != .null else { return nil }
    let refusal = APIError.plain(
      422, "Failed to deserialize the JSON body into the target type: headers: invalid type")
    guard case .array(let items) = field else { throw refusal }
    return try items.map { item in
      guard case .array(let pair) = item, pair.count == 2, let name = pair[0].stringValue,
        let value = pair[1].stringValue
      else { throw refusal }
      return (name, value)
    }
  }

  /// `rules` as serde reads `Option<Vec<Value>>`: any array, or a 422.
  private static func rules(_ body: JSONBody) throws -> [JSONValue]? {
    guard let field = body.value["rules"], field != .null else { return nil }
    guard case .array(let items) = field else {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: rules: invalid type")
    }
    return items
  }

  /// `DELETE /api/ip-quality/services/{id}` (admin) → `"ok"`; built-ins are refused.
  func deleteService(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard
      let row = try db.query(
        "SELECT is_builtin FROM ip_quality_services WHERE id = ?", [.text(id)]
      ).first
    else { throw APIError.notFound("Service \(id) not found") }
    guard row["is_builtin"].int != 1 else {
      throw APIError.badRequest("Cannot delete a built-in service")
    }
    try db.execute("DELETE FROM ip_quality_services WHERE id = ?", [.text(id)])
    return Reply.data("ok")
  }

  /// `GET /api/ip-quality/settings` (member).
  func settings(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let hours = try db.query("SELECT check_interval_hours FROM ip_quality_settings").first?[
      "check_interval_hours"
    ].int
    return Reply.data(JSONValue.object([("check_interval_hours", .integer(hours ?? 12))]))
  }

  /// `PUT /api/ip-quality/settings {check_interval_hours}` (admin): 1–168 → the echo.
  func updateSettings(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let hours = try context.jsonBody().requiredInt("check_interval_hours")
    guard (1...168).contains(hours) else {
      throw APIError.validation("check_interval_hours must be between 1 and 168 (one week)")
    }
    try db.execute("UPDATE ip_quality_settings SET check_interval_hours = ?", [.int(hours)])
    return Reply.data(JSONValue.object([("check_interval_hours", .integer(hours))]))
  }

  // MARK: State

  /// A service row in the wire's key order.
  static func service(_ row: Row) -> JSONValue {
    .object([
      ("id", .text(row["id"].text)), ("key", .text(row["key"].text)),
      ("name", .text(row["name"].text)), ("category", .text(row["category"].text)),
      ("popularity", .integer(row["popularity"].int ?? 0)),
      ("is_builtin", .bool(row["is_builtin"].int == 1)),
      ("enabled", .bool(row["enabled"].int == 1)),
      ("detector", .text(row["detector"].text)), ("request", .text(row["request"].text)),
      ("rules", .text(row["rules"].text)),
      ("created_at", .string(timestamp(row["created_at"].int ?? 0, .zulu).formatted(.zulu))),
      ("updated_at", .string(timestamp(row["updated_at"].int ?? 0, .zulu).formatted(.zulu))),
    ])
  }

  /// A server's check number and time, a recheck whose time has come applied first.
  func state(_ serverID: String, createdAt: Int64) throws -> (generation: Int64, checkedAt: Int64) {
    guard
      let row = try db.query(
        "SELECT * FROM ip_quality_checks WHERE server_id = ?", [.text(serverID)]
      ).first
    else { return (0, createdAt) }
    var generation = row["generation"].int ?? 0
    var checkedAt = row["checked_at"].int ?? createdAt
    if let pending = row["pending_at"].int, pending <= now {
      generation += 1
      checkedAt = pending
      try db.execute(
        """
        UPDATE ip_quality_checks SET generation = ?, checked_at = ?, pending_at = NULL
        WHERE server_id = ?
        """, [.int(generation), .int(checkedAt), .text(serverID)])
    }
    return (generation, checkedAt)
  }

  /// `ServerIpQualityData` of one server; empty for an unknown one.
  func quality(_ serverID: String) throws -> JSONValue {
    guard let server = try core.server(id: serverID) else {
      return .object([
        ("server_id", .string(serverID)), ("unlock_results", .array([])), ("ip_quality", .null),
      ])
    }
    let current = try state(serverID, createdAt: server.createdAt)
    let plan = IPQualityReportPlan(serverID: serverID, generation: current.generation)
    let services = try db.query(
      "SELECT id, key FROM ip_quality_services WHERE enabled = 1 ORDER BY category, "
        + "popularity DESC, id")
    return .object([
      ("server_id", .string(serverID)),
      (
        "unlock_results",
        .array(
          services.map {
            plan.result(
              serviceID: $0["id"].text ?? "", key: $0["key"].text ?? "",
              checkedAt: current.checkedAt)
          })
      ),
      ("ip_quality", plan.report(checkedAt: current.checkedAt)),
    ])
  }
}
