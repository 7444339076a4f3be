import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// The control API under `/__simulator/` (guarded by the `X-Simulator-Token` header).
extension SimulatorCore {
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
}

/// The control answer to `POST /__simulator/security-events`: the stored event as the REST
/// detail shows it, then how many pushes were queued.
struct SecurityEventAnswer: Encodable {
  var data: SecurityEvent
  var pushes: Int
}
