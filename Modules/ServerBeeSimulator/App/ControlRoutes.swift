import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// The control API under `/__simulator/` (guarded by the `X-Simulator-Token` header).
extension SimulatorCore {
  func createServer(name: String, body: JSONBody? = nil) throws -> String {
    let id = Crypto.uuid(random)
    let online = try body?.bool("online") ?? true
    let defaults = Self.serverDefaults(index: Int(random(1)[0]))
    let features = try body?.strings("features") ?? []
    let tags = try body?.strings("tags") ?? []
    var live: (numbers: LiveNumbers, json: String)?
    if online {
      let numbers = MetricsModel.initial(random)
      live = (numbers, try liveJSON(numbers))
    }
    try db.execute(
      """
      INSERT INTO servers (id, name, cpu_name, cpu_cores, cpu_arch, os, kernel_version,
        mem_total, swap_total, disk_total, ipv4, region, country_code, group_id, weight,
        features_json, tags_json, online, live_json, live_numbers, created_at, updated_at,
        agent_version)
      VALUES (?, ?, ?, ?, 'x86_64', ?, '6.1.0', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
        '1.4.0')
      """,
      [
        .text(id), .text(name), .text(try body?.optionalString("cpu_name") ?? defaults.cpu),
        .int(try body?.int("cpu_cores") ?? defaults.cores),
        .text(try body?.optionalString("os") ?? "Debian GNU/Linux 12"),
        .int(try body?.int("mem_total") ?? defaults.memory),
        .int(try body?.int("swap_total") ?? 2 << 30),
        .int(try body?.int("disk_total") ?? defaults.disk),
        (try body?.optionalString("ipv4")).sql, (try body?.optionalString("region")).sql,
        (try body?.optionalString("country_code")).sql, (try body?.optionalString("group_id")).sql,
        .int(try body?.int("weight") ?? 0),
        .text(String(decoding: try WireJSON.encode(features), as: UTF8.self)),
        .text(String(decoding: try WireJSON.encode(tags.sorted()), as: UTF8.self)),
        online.sql, live.map { .text($0.json) } ?? .null,
        live.map { .blob($0.numbers.packed) } ?? .null,
        .int(now), .int(now),
      ])
    return id
  }

  static func serverDefaults(index: Int) -> (cpu: String, cores: Int64, memory: Int64, disk: Int64)
  {
    let options: [(String, Int64, Int64, Int64)] = [
      ("AMD EPYC 7763 64-Core Processor", 2, 4 << 30, 80 << 30),
      ("Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz", 4, 8 << 30, 160 << 30),
      ("Ampere Altra Q80-30", 8, 16 << 30, 320 << 30),
    ]
    let option = options[index % options.count]
    return (option.0, option.1, option.2, option.3)
  }

  func liveJSON(_ live: LiveNumbers) throws -> String {
    String(decoding: try JSONEncoder().encode(live), as: UTF8.self)
  }

  func controlCreateServer(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let name = try body.optionalString("name") ?? "server-\(Int(random(1)[0]))"
    let id = try createServer(name: name, body: body)
    guard let row = try server(id: id) else { throw APIError.notFound("Server not found") }
    if row.online {
      hub.broadcast(try WireJSON.encode(LiveStreamMessage.presence(online: true, serverID: id)))
    }
    return Reply.data(row.response)
  }

  /// Stores new live numbers, appends a record and broadcasts one `update` frame.
  func applyMetrics(serverID: String, _ live: LiveNumbers) throws {
    guard let row = try server(id: serverID) else { throw APIError.notFound("Server not found") }
    let wasOnline = row.online
    try db.execute(
      "UPDATE servers SET live_json = ?, live_numbers = ?, online = 1 WHERE id = ?",
      [.text(try liveJSON(live)), .blob(live.packed), .text(serverID)])
    try db.execute(
      """
      INSERT INTO records (server_id, time, cpu, mem_used, swap_used, disk_used, net_in_speed,
        net_out_speed, net_in_transfer, net_out_transfer, load1, load5, load15, tcp_conn,
        udp_conn, process_count, disk_io_json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(serverID), .int(now), .real(live.cpu), .int(live.memUsed), .int(live.swapUsed),
        .int(live.diskUsed), .int(live.netInSpeed), .int(live.netOutSpeed),
        .int(live.netInTransfer), .int(live.netOutTransfer), .real(live.load1),
        .real(live.load5), .real(live.load15), .int(live.tcpConn), .int(live.udpConn),
        .int(live.processCount),
        .text(
          "[{\"name\":\"sda\",\"read_bytes_per_sec\":\(live.diskReadBytesPerSec),"
            + "\"write_bytes_per_sec\":\(live.diskWriteBytesPerSec)}]"),
      ])
    if !wasOnline {
      hub.broadcast(
        try WireJSON.encode(LiveStreamMessage.presence(online: true, serverID: serverID)))
    }
    let metrics = live.metrics(id: row.id, name: row.name, nowSeconds: now / Self.second)
    hub.broadcast(try WireJSON.encode(LiveStreamMessage.update(metrics)))
  }

  func controlMetrics(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    guard let row = try server(id: context.parameter(0)) else {
      throw APIError.notFound("Server not found")
    }
    var live = row.live ?? LiveNumbers()
    live.cpu = try body.double("cpu") ?? live.cpu
    live.memUsed = try body.int("mem_used") ?? live.memUsed
    live.swapUsed = try body.int("swap_used") ?? live.swapUsed
    live.diskUsed = try body.int("disk_used") ?? live.diskUsed
    live.netInSpeed = try body.int("net_in_speed") ?? live.netInSpeed
    live.netOutSpeed = try body.int("net_out_speed") ?? live.netOutSpeed
    live.netInTransfer = try body.int("net_in_transfer") ?? live.netInTransfer
    live.netOutTransfer = try body.int("net_out_transfer") ?? live.netOutTransfer
    live.load1 = try body.double("load1") ?? live.load1
    live.load5 = try body.double("load5") ?? live.load5
    live.load15 = try body.double("load15") ?? live.load15
    live.uptime = try body.int("uptime") ?? live.uptime
    live.tcpConn = try body.int("tcp_conn") ?? live.tcpConn
    live.udpConn = try body.int("udp_conn") ?? live.udpConn
    live.processCount = try body.int("process_count") ?? live.processCount
    try applyMetrics(serverID: row.id, live)
    return Reply.object([("ok", .bool(true))])
  }

  func setPresence(serverID: String, online: Bool) throws {
    let changed = try db.execute(
      "UPDATE servers SET online = ?, updated_at = ? WHERE id = ? AND online != ?",
      [online.sql, .int(now), .text(serverID), online.sql])
    if changed == 1 {
      hub.broadcast(
        try WireJSON.encode(LiveStreamMessage.presence(online: online, serverID: serverID)))
    }
  }

  func controlPresence(_ context: RequestContext, _ online: Bool) throws -> HTTPResponse {
    guard try server(id: context.parameter(0)) != nil else {
      throw APIError.notFound("Server not found")
    }
    try setPresence(serverID: context.parameter(0), online: online)
    return Reply.object([("online", .bool(online))])
  }

  func controlCreateGroup(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = Crypto.uuid(random)
    try db.execute(
      "INSERT INTO server_groups VALUES (?, ?, ?, ?)",
      [.text(id), .text(try body.string("name")), .int(try body.int("weight") ?? 0), .int(now)])
    return Reply.object([("id", .string(id))])
  }

  /// The rule evaluated as firing now (created on first use); pushes as wire contract v2 §5 says
  /// (PushEvents.swift).
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

  func controlDeleteRule(_ context: RequestContext) throws -> HTTPResponse {
    try db.execute("DELETE FROM alert_rules WHERE id = ?", [.text(context.parameter(0))])
    return Reply.object([("deleted", .bool(true))])
  }

  func controlCreateTask(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = Crypto.uuid(random)
    let type = try body.optionalString("task_type") ?? "oneshot"
    let servers = try body.strings("server_ids") ?? []
    try db.execute(
      """
      INSERT INTO tasks (id, command, server_ids_json, created_at, task_type, name,
        cron_expression, enabled, timeout, retry_count, retry_interval, created_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
      """,
      [
        .text(id), .text(try body.string("command")),
        .text(String(decoding: try WireJSON.encode(servers), as: UTF8.self)), .int(now),
        .text(type), (try body.optionalString("name")).sql,
        (try body.optionalString("cron_expression")).sql, (try body.int("timeout")).sql,
        .int(try body.int("retry_count") ?? 0), .int(try body.int("retry_interval") ?? 60),
        (try body.optionalString("created_by")).sql,
      ])
    guard let row = try db.query("SELECT * FROM tasks WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("Task \(id) not found")
    }
    return Reply.data(Self.task(row))
  }

  /// Finishes one run: one result row per target attempt (`attempts` rows, the last with the
  /// given exit code, earlier ones failed with 1). Scheduled runs get a `run_id`; oneshot null.
  /// A complete, uninterrupted scheduled run pushes its summary to the run owner (wire contract v2 §5).
  func controlFinishRun(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let taskID = context.parameter(0)
    guard let task = try db.query("SELECT * FROM tasks WHERE id = ?", [.text(taskID)]).first
    else { throw APIError.notFound("Task \(taskID) not found") }
    let scheduled = task["task_type"].text == "scheduled"
    guard case .array(let outcomes) = body.value["outcomes"] ?? .array([]) else {
      throw APIError.validation("outcomes must be an array")
    }
    let trigger = try body.optionalString("trigger") ?? "automatic"
    guard trigger == "manual" || trigger == "automatic" else {
      throw APIError.validation("trigger must be manual or automatic")
    }
    let initiator = try body.optionalString("initiator_id")
    if trigger == "manual", initiator == nil {
      throw APIError.validation("initiator_id is required for a manual run")
    }
    let complete = try body.bool("complete") ?? true
    let interrupted = try body.bool("interrupted") ?? false
    let runID: String? = scheduled ? Crypto.uuid(random) : nil
    return try db.transaction {
      var finals: [(server: String, exit: Int64)] = []
      var completedAt = now
      for outcome in outcomes {
        let item = JSONBody(value: outcome)
        let serverID = try item.string("server_id")
        let exit = try item.int("exit_code") ?? 0
        let attempts = max(try item.int("attempts") ?? 1, 1)
        for attempt in 1...attempts {
          let last = attempt == attempts
          let code = last ? exit : 1
          try db.execute(
            "INSERT INTO task_results VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
              .text(taskID), .text(serverID),
              .text(try item.optionalString("output") ?? Self.defaultOutput(code)), .int(code),
              runID.sql, .int(attempt), scheduled ? .int(now) : .null, .int(now + attempt),
            ])
          completedAt = max(completedAt, now + attempt)
        }
        finals.removeAll { $0.server == serverID }
        finals.append((serverID, exit))
      }
      try db.execute("UPDATE tasks SET last_run_at = ? WHERE id = ?", [.int(now), .text(taskID)])
      // Every target of the task needs its final attempt; a missing one leaves the run incomplete.
      let targets =
        (task["server_ids_json"].text).flatMap {
          try? WireJSON.decode([String].self, from: Data($0.utf8))
        } ?? []
      let reachedAll = targets.allSatisfy { target in finals.contains { $0.server == target } }
      var pushes = 0
      if let runID, complete, !interrupted, reachedAll {
        pushes = try admitTaskRunPush(
          taskID: taskID, runID: runID,
          ownerID: trigger == "manual" ? initiator : task["created_by"].text,
          finalExitCodes: finals.map(\.exit), completedAt: completedAt)
      }
      return Reply.object([
        ("run_id", runID.map(JSONValue.string) ?? .null), ("pushes", .number(Double(pushes))),
      ])
    }
  }

  static func defaultOutput(_ exitCode: Int64) -> String {
    switch exitCode {
    case 0: return "ok\n"
    case -1: return "Command timed out after 300s"
    case -2: return "Capability denied: exec"
    case -3: return "Server offline"
    case -4: return "No response within 310s"
    default: return "command failed\n"
    }
  }

  /// Stores a raw security event, broadcasts it and pushes when a security rule admits it
  /// (wire contract v2 §5) → `{"data": SecurityEvent, "pushes": n}`.
  func controlSecurityEvent(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = Crypto.uuid(random)
    let seconds = now / Self.second
    // Through the shared model: the known kinds are written in the server's key order (v1 §8.2).
    let evidence = try body.value["evidence"].flatMap {
      $0 == .null
        ? nil : try WireJSON.decode(SecurityEventEvidence.self, from: try WireJSON.encode($0))
    }
    let evidenceJSON = try evidence.map { String(decoding: try WireJSON.encode($0), as: UTF8.self) }
    let (event, pushes) = try db.transaction {
      try db.execute(
        "INSERT INTO security_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
          .text(id), .text(try body.string("server_id")),
          .text(try body.optionalString("event_type") ?? "ssh_login"),
          .text(try body.optionalString("severity") ?? "info"),
          .text(try body.optionalString("source_ip") ?? "203.0.113.7"),
          (try body.int("source_port")).sql, (try body.optionalString("username")).sql,
          .int(try body.int("started_at") ?? seconds), .int(try body.int("ended_at") ?? seconds),
          (try body.bool("first_seen") ?? false).sql,
          .text(try body.optionalString("detector_source") ?? "journal"), evidenceJSON.sql,
          .int(now),
        ])
      guard let row = try db.query("SELECT * FROM security_events WHERE id = ?", [.text(id)]).first
      else { throw APIError.notFound("security event \(id) not found") }
      let event = Self.securityEvent(row)
      return (event, try admitSecurityPush(event))
    }
    hub.broadcast(try WireJSON.encode(LiveStreamMessage.securityEvent(event)))
    return Reply.json(200, SecurityEventAnswer(data: event.event, pushes: pushes))
  }

  func controlAdvanceClock(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    clock.advance(by: try body.double("seconds") ?? 0)
    return Reply.object([("now", .string(timestamp(now, .zulu).formatted(.zulu)))])
  }

  func controlTick(_ context: RequestContext) throws -> HTTPResponse {
    try tick()
    return Reply.object([("ok", .bool(true))])
  }

  /// One simulated agent report for every online server.
  func tick() throws {
    for row in try allServers() where row.online {
      try applyMetrics(serverID: row.id, MetricsModel.next(row, random))
    }
    // The next session then finds every `full_sync` object rewritten (issue 24).
    try serverCache.fragments.refreshIfKept(db)
  }
}

/// The control answer to `POST /__simulator/security-events`: the stored event as the REST
/// detail shows it, then how many pushes were queued.
struct SecurityEventAnswer: Encodable {
  var data: SecurityEvent
  var pushes: Int
}

/// Realistic-looking agent numbers: a bounded random walk per server.
enum MetricsModel {
  static func unit(_ random: RandomBytes) -> Double {
    let bytes = random(4)
    let value = bytes.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
    return Double(value) / Double(UInt32.max)
  }

  static func initial(_ random: RandomBytes) -> LiveNumbers {
    var live = LiveNumbers()
    live.uptime = 86_400 + Int64(unit(random) * 1_000_000)
    live.cpu = (unit(random) * 30).rounded(toPlaces: 1)
    live.memUsed = Int64(1 << 30) + Int64(unit(random) * Double(1 << 30))
    live.diskUsed = Int64(20 << 30) + Int64(unit(random) * Double(10 << 30))
    live.load1 = (unit(random) * 2).rounded(toPlaces: 2)
    live.load5 = (live.load1 * 0.9).rounded(toPlaces: 2)
    live.load15 = (live.load1 * 0.8).rounded(toPlaces: 2)
    live.tcpConn = 20 + Int64(unit(random) * 40)
    live.udpConn = 2 + Int64(unit(random) * 6)
    live.processCount = 120 + Int64(unit(random) * 80)
    return live
  }

  static func next(_ row: ServerRow, _ random: RandomBytes) -> LiveNumbers {
    var live = row.live ?? initial(random)
    let memTotal = row.memTotal ?? (4 << 30)
    live.uptime += 3
    live.cpu = min(100, max(0, live.cpu + (unit(random) - 0.5) * 10)).rounded(toPlaces: 1)
    let memStep = Int64((unit(random) - 0.5) * Double(64 << 20))
    live.memUsed = min(memTotal, max(256 << 20, live.memUsed + memStep))
    live.netInSpeed = Int64(unit(random) * 200_000)
    live.netOutSpeed = Int64(unit(random) * 80_000)
    live.netInTransfer += live.netInSpeed * 3
    live.netOutTransfer += live.netOutSpeed * 3
    live.load1 = max(0, live.load1 + (unit(random) - 0.5) * 0.4).rounded(toPlaces: 2)
    live.load5 = ((live.load5 * 4 + live.load1) / 5).rounded(toPlaces: 2)
    live.load15 = ((live.load15 * 14 + live.load1) / 15).rounded(toPlaces: 2)
    live.tcpConn = max(0, live.tcpConn + Int64((unit(random) - 0.5) * 6))
    live.diskReadBytesPerSec = Int64(unit(random) * 50_000)
    live.diskWriteBytesPerSec = Int64(unit(random) * 120_000)
    return live
  }
}

extension Double {
  fileprivate func rounded(toPlaces places: Int) -> Double {
    let factor = pow(10, Double(places))
    return (self * factor).rounded() / factor
  }
}
