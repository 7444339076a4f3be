import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// The control API's tasks and runs (the simulator runs no command), and the summary push of a
// finished scheduled run (Protocol/Push.md §3.4, §4).

/// How many targets of one task run ended in each bucket (Protocol/Push.md §3.4): the final attempt
/// of each target decides.
struct TaskRunCounts: Sendable, Equatable {
  var total: Int64 = 0
  var failed: Int64 = 0
  var timedOut: Int64 = 0
  var offline: Int64 = 0
  var denied: Int64 = 0

  /// Buckets final exit codes: 0 success, −2 denied, −3 offline, −4 timed out, any other
  /// non-zero failed (so an agent-side −1 timeout counts as failed, as the stored version does).
  init(finalExitCodes: [Int64]) {
    total = Int64(finalExitCodes.count)
    for code in finalExitCodes {
      switch code {
      case 0: break
      case -2: denied += 1
      case -3: offline += 1
      case -4: timedOut += 1
      default: failed += 1
      }
    }
  }

  var allSucceeded: Bool { failed == 0 && timedOut == 0 && offline == 0 && denied == 0 }
}

extension TasksArea {
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
  /// A complete, uninterrupted scheduled run pushes its summary to the run owner (Protocol/Push.md
  /// §4).
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

  /// A scheduled run whose every target reached its final attempt: one summary for the run
  /// owner (the manual initiator, else the task's creator) while that user is an admin,
  /// `task_failure` when any target did not succeed, else `task_success` (opt-in).
  func admitTaskRunPush(
    taskID: String, runID: String, ownerID: String?, finalExitCodes: [Int64], completedAt: Int64
  ) throws -> Int {
    guard let ownerID, !finalExitCodes.isEmpty else { return 0 }
    let counts = TaskRunCounts(finalExitCodes: finalExitCodes)
    let kind: PushContentKind = counts.allSucceeded ? .taskSuccess : .taskFailure
    let content = PushContent(
      kind: kind, deploymentID: "", userID: "", installationID: "", eventID: runID,
      createdAt: SimulatorCore.seconds(completedAt), expiresAt: 0,
      taskRun: PushTaskRunSummary(
        taskID: taskID, runID: runID, total: counts.total, failed: counts.failed,
        timedOut: counts.timedOut, offline: counts.offline, denied: counts.denied))
    return try core.admitEverywhere(
      content, category: counts.allSucceeded ? .taskSuccess : .taskFailure, adminOnly: true,
      userID: ownerID)
  }
}
