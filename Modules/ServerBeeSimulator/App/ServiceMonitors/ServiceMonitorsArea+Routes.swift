import ServerBeeModels
import ServerBeeTransport

// The four service monitor routes (Protocol/AppRoutes.md §11).
//
// [inferred], as Protocol/AppRoutes.md §11 records:
// - the state members (`last_status`, `consecutive_failures`, `last_checked_at`) and
//   `updated_at` follow the latest record, as the server's checks update them;
// - a check runs within the request, so the 409 for a check already running never happens;
// - a check sends no notification (the simulator has no notification groups);
// - `type`, `from`, `to` and `limit` are read as the server's query types: an unknown type
//   lists nothing; a time that is not RFC 3339 or a limit that is not a whole number ≥ 0 is a
//   plain-text 400.

extension ServiceMonitorsArea {
  /// `GET /api/service-monitors[?type=]` (member): oldest first.
  func monitors(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let type = context.query["type"]
    let history = try history()
    let rows = try monitorRows().filter { type == nil || $0["monitor_type"].text == type }
    return Reply.data(JSONValue.array(rows.map { monitorObject($0, history) }))
  }

  /// `GET /api/service-monitors/{id}` (member): the monitor's members, then `latest_record`.
  func monitor(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let row = try monitorRows().first(where: { $0["id"].text == id }) else {
      throw APIError.notFound("Service monitor \(id) not found")
    }
    let history = try history()
    guard case .object(var members) = monitorObject(row, history) else {
      throw APIError.notFound("Service monitor \(id) not found")
    }
    let latest = history.monitor(id).flatMap(history.latest).map(Self.recordObject) ?? .null
    members.append((key: "latest_record", value: latest))
    return Reply.data(JSONValue.object(members))
  }

  /// `GET /api/service-monitors/{id}/records?[from][&to][&limit]` (member): newest first,
  /// inclusive bounds, no default limit; `[]` for an unknown monitor.
  func records(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let from = try context.queryTime("from", required: false)
    let to = try context.queryTime("to", required: false)
    let limit = context.query["limit"] == nil ? nil : try context.queryCount("limit", default: 0)
    let id = context.parameter(0)
    let history = try history()
    guard let monitor = history.monitor(id) else { return Reply.data(JSONValue.array([])) }
    let records = history.records(monitor, from: from, to: to, limit: limit)
    return Reply.data(JSONValue.array(records.map(Self.recordObject)))
  }

  /// `POST /api/service-monitors/{id}/check` (admin): runs the check now → its record.
  func check(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard try history().monitor(id) != nil else {
      throw APIError.notFound("Service monitor \(id) not found")
    }
    try db.execute(
      "INSERT INTO service_monitor_checks (monitor_id, time) VALUES (?, ?)",
      [.text(id), .int(now)])
    // The newest record is the one just made: a requested check comes after a scheduled one
    // of the same instant, and after the requested ones before it.
    let history = try history()
    guard let record = history.monitor(id).flatMap(history.latest) else {
      return Reply.error(500, .internalError, "Internal error: the check was not recorded")
    }
    return Reply.data(Self.recordObject(record))
  }

  // MARK: State

  func monitorRows() throws -> [Row] {
    try db.query("SELECT * FROM service_monitors ORDER BY created_at, id")
  }

  /// Every monitor's history on the clock.
  func history() throws -> ServiceMonitorHistory {
    let monitors = try monitorRows().enumerated().map { Self.info($1, ordinal: $0) }
    let checks = try db.query("SELECT * FROM service_monitor_checks ORDER BY time, sequence").map {
      ManualCheck(
        sequence: $0["sequence"].int ?? 0, monitorID: $0["monitor_id"].text ?? "",
        time: $0["time"].int ?? 0)
    }
    return ServiceMonitorHistory(monitors: monitors, manual: checks, now: now)
  }

  static func info(_ row: Row, ordinal: Int) -> MonitorInfo {
    MonitorInfo(
      id: row["id"].text ?? "", ordinal: ordinal, type: row["monitor_type"].text ?? "",
      target: row["target"].text ?? "", interval: row["interval"].int ?? 0,
      enabled: row["enabled"].int == 1, createdAt: row["created_at"].int ?? 0)
  }

  /// A monitor in the wire's key order, its state from its records.
  func monitorObject(_ row: Row, _ history: ServiceMonitorHistory) -> JSONValue {
    let info = history.monitor(row["id"].text ?? "")
    let latest = info.flatMap(history.latest)
    let updated = max(row["updated_at"].int ?? 0, latest?.time ?? 0)
    return .object([
      ("id", .text(row["id"].text)), ("name", .text(row["name"].text)),
      ("monitor_type", .text(row["monitor_type"].text)), ("target", .text(row["target"].text)),
      ("interval", .integer(row["interval"].int ?? 0)),
      ("config_json", .text(row["config_json"].text)),
      ("notification_group_id", .text(row["notification_group_id"].text)),
      ("retry_count", .integer(row["retry_count"].int ?? 0)),
      ("server_ids_json", .text(row["server_ids_json"].text)),
      ("enabled", .bool(row["enabled"].int == 1)),
      ("last_status", latest.map { .bool($0.outcome.success) } ?? .null),
      (
        "consecutive_failures",
        .integer(info.map { latest == nil ? 0 : history.consecutiveFailures($0) } ?? 0)
      ),
      ("last_checked_at", latest.map { Self.zulu($0.time) } ?? .null),
      ("created_at", Self.zulu(row["created_at"].int ?? 0)), ("updated_at", Self.zulu(updated)),
    ])
  }

  /// A record in the wire's key order; `detail_json` is JSON text.
  static func recordObject(_ record: MonitorRecord) -> JSONValue {
    let detail = (try? WireJSON.encode(record.outcome.detail)).map {
      String(decoding: $0, as: UTF8.self)
    }
    return .object([
      ("id", .integer(record.id)), ("monitor_id", .string(record.monitorID)),
      ("success", .bool(record.outcome.success)), ("latency", .number(record.outcome.latency)),
      ("detail_json", .string(detail ?? "null")), ("error", .text(record.outcome.error)),
      ("time", zulu(record.time)),
    ])
  }

  static func zulu(_ nanos: Int64) -> JSONValue {
    .string(timestamp(nanos, .zulu).formatted(.zulu))
  }
}
