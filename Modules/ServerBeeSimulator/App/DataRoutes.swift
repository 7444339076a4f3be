import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

extension ServerRow {
  /// Reads a `SELECT *` row by column name, the JSON columns with `JSONDecoder`: how every row
  /// was read before ``init(_:)-(Database.Columns)``, kept as its reference in tests.
  init(_ row: Row) {
    func strings(_ column: String) -> [String] {
      (try? WireJSON.decode([String].self, from: Data((row[column].text ?? "[]").utf8))) ?? []
    }
    id = row["id"].text ?? ""
    name = row["name"].text ?? ""
    cpuName = row["cpu_name"].text
    cpuCores = row["cpu_cores"].int
    cpuArch = row["cpu_arch"].text
    os = row["os"].text
    kernelVersion = row["kernel_version"].text
    memTotal = row["mem_total"].int
    swapTotal = row["swap_total"].int
    diskTotal = row["disk_total"].int
    ipv4 = row["ipv4"].text
    ipv6 = row["ipv6"].text
    region = row["region"].text
    countryCode = row["country_code"].text
    virtualization = row["virtualization"].text
    agentVersion = row["agent_version"].text
    groupID = row["group_id"].text
    weight = row["weight"].int ?? 0
    hidden = row["hidden"].bool
    remark = row["remark"].text
    publicRemark = row["public_remark"].text
    capabilities = row["capabilities"].int ?? 1852
    protocolVersion = row["protocol_version"].int ?? 3
    features = strings("features_json")
    tags = strings("tags_json")
    online = row["online"].bool
    live = row["live_json"].text.flatMap {
      try? JSONDecoder().decode(LiveNumbers.self, from: Data($0.utf8))
    }
    createdAt = row["created_at"].int ?? 0
    updatedAt = row["updated_at"].int ?? 0
  }
}

/// Data routes: servers, groups, alerts, tasks, security events (wire contract v1 §5–§8, wire contract v2 §9).
extension SimulatorCore {
  /// Every server in list order; from ``serverCache`` while the database is unchanged.
  func allServers() throws -> [ServerRow] {
    let version = db.version
    if let version, let rows = serverCache.rows(at: version) { return rows }
    let rows = try db.read(
      "SELECT \(ServerRow.columns) FROM servers ORDER BY weight DESC, created_at DESC"
    ) { ServerRow($0) }
    if let version { serverCache.store(rows, at: version) }
    return rows
  }

  func server(id: String) throws -> ServerRow? {
    try db.read("SELECT \(ServerRow.columns) FROM servers WHERE id = ?", [.text(id)]) {
      ServerRow($0)
    }.first
  }

  /// Brings the servers' kept objects up to date (under the lock); the returned function joins
  /// them into a `full_sync` (after). The frame is kept for the rest of the second while
  /// nothing changes: sessions that connect together (a reconnecting fleet of apps) share one.
  ///
  /// The objects are ``ServerCache/fragments`` (issue 24): only rows written since the last
  /// frame are read, so the lock is held for the changes alone. Inside a transaction the frame
  /// is written from the rows, under the lock, as before. The rows cache is neither used nor
  /// filled here.
  func fullSyncSource() throws -> () throws -> String {
    let seconds = now / Self.second
    let version = db.version
    if let version, let frame = serverCache.fullSync(at: version, seconds: seconds) {
      return { frame }
    }
    guard let version, let fragments = try serverCache.fragments.current(db) else {
      let frame = try WireWriter.fullSync(rowsOf: db, nowSeconds: seconds)
      return { frame }
    }
    return { [serverCache] in
      let frame = WireWriter.fullSync(fragments, nowSeconds: seconds)
      serverCache.store(fullSync: frame, seconds: seconds, at: version)
      return frame
    }
  }

  /// A `full_sync` frame, read and written in one go.
  func fullSync() throws -> String { try db.serial { try fullSyncSource() }() }

  /// `GET /api/servers`: the cached body while nothing changed, else rows read under the lock
  /// and written after it.
  func listServers(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    let version = db.version
    if let version, let body = serverCache.listBody(at: version) {
      return .response(Reply.json(body: body))
    }
    let rows = try allServers()
    return .finish { [serverCache] in
      let body = try WireWriter.serverList(rows.map(\.response))
      if let version { serverCache.store(listBody: body, at: version) }
      return Reply.json(body: body)
    }
  }

  func serverDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let row = try server(id: context.parameter(0)) else {
      throw APIError.notFound("Server not found")
    }
    return Reply.data(row.response)
  }

  func serverRecords(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let from = try context.queryTime("from", required: true),
      let to = try context.queryTime("to", required: true)
    else { throw APIError.plain(400, "Failed to deserialize query string") }
    let interval = context.query["interval"] ?? "auto"
    let hourly = interval == "hourly" || (interval != "raw" && to - from > 24 * 3600 * Self.second)
    let rows = try db.query(
      "SELECT * FROM records WHERE server_id = ? AND time >= ? AND time <= ? ORDER BY time, id",
      [.text(context.parameter(0)), .int(from), .int(to)]
    ).map(Self.record)
    guard hourly else { return Reply.data(rows.map(\.record)) }
    let hour = 3600 * Self.second
    var buckets: [(Int64, [Stored])] = []
    for row in rows {
      let start = row.time - row.time % hour
      if buckets.last?.0 == start {
        buckets[buckets.count - 1].1.append(row)
      } else {
        buckets.append((start, [row]))
      }
    }
    return Reply.data(buckets.map { Self.aggregate(hourStart: $0.0, $0.1).record })
  }

  /// A stored record row; written as the shared `ServerRecord`.
  private struct Stored {
    let id: Int64
    let serverID: String
    let time: Int64
    let live: LiveNumbers
    let diskIOJSON: String?

    var record: ServerRecord {
      live.record(id: id, serverID: serverID, time: time, diskIOJSON: diskIOJSON)
    }
  }

  private static func record(_ row: Row) -> Stored {
    var live = LiveNumbers()
    live.cpu = row["cpu"].real ?? 0
    live.memUsed = row["mem_used"].int ?? 0
    live.swapUsed = row["swap_used"].int ?? 0
    live.diskUsed = row["disk_used"].int ?? 0
    live.netInSpeed = row["net_in_speed"].int ?? 0
    live.netOutSpeed = row["net_out_speed"].int ?? 0
    live.netInTransfer = row["net_in_transfer"].int ?? 0
    live.netOutTransfer = row["net_out_transfer"].int ?? 0
    live.load1 = row["load1"].real ?? 0
    live.load5 = row["load5"].real ?? 0
    live.load15 = row["load15"].real ?? 0
    live.tcpConn = row["tcp_conn"].int ?? 0
    live.udpConn = row["udp_conn"].int ?? 0
    live.processCount = row["process_count"].int ?? 0
    return Stored(
      id: row["id"].int ?? 0, serverID: row["server_id"].text ?? "", time: row["time"].int ?? 0,
      live: live, diskIOJSON: row["disk_io_json"].text)
  }

  /// Hourly rows: gauges averaged, cumulative counters at their maximum (wire contract v1 §5.2).
  private static func aggregate(hourStart: Int64, _ rows: [Stored]) -> Stored {
    let n = Double(rows.count)
    func average(_ value: (LiveNumbers) -> Double) -> Double {
      rows.map { value($0.live) }.reduce(0, +) / n
    }
    func averageInt(_ value: (LiveNumbers) -> Int64) -> Int64 {
      Int64((Double(rows.map { value($0.live) }.reduce(0, +)) / n).rounded())
    }
    var live = LiveNumbers()
    live.cpu = average(\.cpu)
    live.memUsed = averageInt(\.memUsed)
    live.swapUsed = averageInt(\.swapUsed)
    live.diskUsed = averageInt(\.diskUsed)
    live.netInSpeed = averageInt(\.netInSpeed)
    live.netOutSpeed = averageInt(\.netOutSpeed)
    live.netInTransfer = rows.map(\.live.netInTransfer).max() ?? 0
    live.netOutTransfer = rows.map(\.live.netOutTransfer).max() ?? 0
    live.load1 = average(\.load1)
    live.load5 = average(\.load5)
    live.load15 = average(\.load15)
    live.tcpConn = averageInt(\.tcpConn)
    live.udpConn = averageInt(\.udpConn)
    live.processCount = averageInt(\.processCount)
    return Stored(
      id: rows.first?.id ?? 0, serverID: rows.first?.serverID ?? "", time: hourStart, live: live,
      diskIOJSON: rows.last?.diskIOJSON)
  }

  func serverGroups(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM server_groups ORDER BY weight DESC, created_at")
    return Reply.data(
      rows.map {
        ServerGroup(
          id: $0["id"].text ?? "", name: $0["name"].text ?? "", weight: Int($0["weight"].int ?? 0),
          createdAt: timestamp($0["created_at"].int ?? 0, .zulu))
      })
  }

  // MARK: Alerts

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
    // Legacy keys name no security dimension (v2 §9.1).
    if let type = row.ruleType, Self.securityRuleTypes.contains(type) { throw notFound }
    return Reply.data(row.detail(key: key))
  }

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

  // MARK: Tasks

  static func task(_ row: Row) -> ServerTask {
    ServerTask(
      id: row["id"].text ?? "", command: row["command"].text ?? "",
      serverIDs: (try? WireJSON.decode(
        [String].self, from: Data((row["server_ids_json"].text ?? "[]").utf8))) ?? [],
      createdAt: timestamp(row["created_at"].int ?? 0, .zulu),
      taskType: TaskType(rawValue: row["task_type"].text ?? "oneshot"),
      name: row["name"].text, cronExpression: row["cron_expression"].text,
      enabled: row["enabled"].bool, timeout: row["timeout"].int.map(Int.init),
      retryCount: Int(row["retry_count"].int ?? 0),
      retryInterval: Int(row["retry_interval"].int ?? 60),
      lastRunAt: timestamp(row["last_run_at"].int, .zulu),
      nextRunAt: timestamp(row["next_run_at"].int, .zulu))
  }

  func tasks(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    var sql = "SELECT * FROM tasks"
    var bindings: [SQLValue] = []
    if let type = context.query["type"] {
      sql += " WHERE task_type = ?"
      bindings.append(.text(type))
    }
    return Reply.data(try db.query(sql + " ORDER BY created_at DESC", bindings).map(Self.task))
  }

  func taskDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let row = try db.query("SELECT * FROM tasks WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("Task \(id) not found")
    }
    return Reply.data(Self.task(row))
  }

  func taskResults(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    var sql = "SELECT * FROM task_results WHERE task_id = ?"
    var bindings: [SQLValue] = [.text(context.parameter(0))]
    if let runID = context.query["run_id"] {
      sql += " AND run_id = ?"
      bindings.append(.text(runID))
    }
    let rows = try db.query(sql + " ORDER BY finished_at DESC, id DESC LIMIT 500", bindings)
    if let runID = context.query["run_id"], rows.isEmpty {
      throw APIError.notFound("Task run \(runID) not found")
    }
    return Reply.data(
      rows.map {
        TaskResult(
          id: $0["id"].int ?? 0, taskID: $0["task_id"].text ?? "",
          serverID: $0["server_id"].text ?? "", output: $0["output"].text ?? "",
          exitCode: Int($0["exit_code"].int ?? 0), runID: $0["run_id"].text,
          attempt: Int($0["attempt"].int ?? 1), startedAt: timestamp($0["started_at"].int, .zulu),
          finishedAt: timestamp($0["finished_at"].int ?? 0, .zulu))
      })
  }

  // MARK: Security events

  static func securityEvent(_ row: Row) -> SecurityEventRow {
    SecurityEventRow(
      id: row["id"].text ?? "", serverID: row["server_id"].text ?? "",
      eventType: row["event_type"].text ?? "", severity: row["severity"].text ?? "",
      sourceIP: row["source_ip"].text ?? "", sourcePort: row["source_port"].int,
      username: row["username"].text, startedAt: row["started_at"].int ?? 0,
      endedAt: row["ended_at"].int ?? 0, firstSeen: row["first_seen"].bool,
      detectorSource: row["detector_source"].text ?? "",
      evidence: row["evidence_json"].text.flatMap {
        try? WireJSON.decode(SecurityEventEvidence.self, from: Data($0.utf8))
      }, createdAt: row["created_at"].int ?? 0)
  }

  /// The security filters present in the query (wire contract v1 §8.1): exact matches on `columns` (query
  /// names equal column names) and `since`/`until` on `created_at`.
  static func securityFilters(_ context: RequestContext, columns: [String]) throws
    -> (clauses: [String], bindings: [SQLValue])
  {
    var clauses: [String] = []
    var bindings: [SQLValue] = []
    for column in columns {
      if let value = context.query[column] {
        clauses.append("\(column) = ?")
        bindings.append(.text(value))
      }
    }
    if let since = try context.queryTime("since", required: false) {
      clauses.append("created_at >= ?")
      bindings.append(.int(since))
    }
    if let until = try context.queryTime("until", required: false) {
      clauses.append("created_at <= ?")
      bindings.append(.int(until))
    }
    return (clauses, bindings)
  }

  func securityEvents(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    var (clauses, bindings) = try Self.securityFilters(
      context, columns: ["server_id", "event_type", "source_ip", "severity"])
    if let cursor = context.query["cursor"] {
      guard let bytes = Base64URL.decode(cursor),
        let text = String(bytes: bytes, encoding: .utf8), let bar = text.firstIndex(of: "|")
      else { throw APIError.badRequest("invalid cursor") }
      guard let time = try? RFC3339Timestamp(parsing: String(text[..<bar])) else {
        throw APIError.badRequest("invalid cursor timestamp")
      }
      let nanos = time.secondsSince1970 * Self.second + Int64(time.nanoseconds)
      clauses.append("(created_at < ? OR (created_at = ? AND id < ?))")
      bindings += [.int(nanos), .int(nanos), .text(String(text[text.index(after: bar)...]))]
    }
    var limit = Int64(context.query["limit"] ?? "50") ?? 50
    limit = min(max(limit, 1), 200)
    let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
    let rows = try db.query(
      "SELECT * FROM security_events\(filter) ORDER BY created_at DESC, id DESC LIMIT ?",
      bindings + [.int(limit + 1)]
    ).map(Self.securityEvent)
    let page = Array(rows.prefix(Int(limit)))
    var next: String?
    if rows.count > page.count, let last = page.last {
      let text = timestamp(last.createdAt, .zulu).formatted(.zulu) + "|" + last.id
      next = Base64URL.encode(Array(text.utf8))
    }
    return Reply.data(SecurityEventPage(items: page.map(\.event), nextCursor: next))
  }

  /// `GET /api/security/stats` (wire contract v1 §8.3): `server_id`, `since`, `until` filter as for the event
  /// list; rows by `group_by`, largest count first (ties by key), at most `limit` (default 50,
  /// clamped to 1…500). `day` groups by the UTC date of `created_at`. A missing or unknown
  /// `group_by` is a framework rejection (plain-text 400, wire contract v1 §1.3), as for a serde enum.
  func securityStats(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let text = context.query["group_by"] else {
      throw APIError.plain(400, "Failed to deserialize query string: missing field `group_by`")
    }
    let key: String
    switch SecurityStatsGrouping(rawValue: text) {
    case .eventType: key = "event_type"
    case .sourceIP: key = "source_ip"
    case .day: key = "strftime('%Y-%m-%d', created_at / 1000000000, 'unixepoch')"
    default:
      throw APIError.plain(
        400,
        "Failed to deserialize query string: group_by: unknown variant `\(text)`, expected one of "
          + "`event_type`, `source_ip`, `day`")
    }
    let limit = min(max(try context.queryCount("limit", default: 50), 1), 500)
    let (clauses, bindings) = try Self.securityFilters(context, columns: ["server_id"])
    let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
    let rows = try db.query(
      """
      SELECT \(key) AS key, COUNT(*) AS count FROM security_events\(filter)
      GROUP BY 1 ORDER BY count DESC, key ASC LIMIT ?
      """, bindings + [.int(limit)])
    return Reply.data(
      rows.map { SecurityStatsEntry(key: $0["key"].text ?? "", count: Int($0["count"].int ?? 0)) })
  }

  func securityEventDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let row = try db.query("SELECT * FROM security_events WHERE id = ?", [.text(id)]).first
    else { throw APIError.notFound("security event \(id) not found") }
    return Reply.data(Self.securityEvent(row).event)
  }

  func deleteSecurityEvent(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard try db.execute("DELETE FROM security_events WHERE id = ?", [.text(id)]) == 1 else {
      throw APIError.notFound("security event \(id) not found")
    }
    return Reply.data(true)
  }
}
