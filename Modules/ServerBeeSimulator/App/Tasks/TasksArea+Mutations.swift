import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Task mutations (Protocol/Tasks.md §2), admin only: create, change, run now, delete. The
// simulator runs no command: a dispatch writes its result rows at once, on the simulator clock.
// Scheduled tasks also run when their time comes on the simulator clock
// (SimulatorCore+ScheduledRuns.swift).

extension TasksArea {
  /// `POST /api/tasks`. The checks run in the order Protocol/Tasks.md §2 lists them. A oneshot
  /// task is dispatched at once (``dispatch(taskID:targets:scheduled:)``); a scheduled one gets
  /// its `next_run_at` from the cron expression on the simulator clock. [inferred: a
  /// `cron_expression` sent with a oneshot task is checked and stored too, but gives no
  /// `next_run_at`; a `task_type` other than the two is the framework's plain-text 422.]
  func createTask(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let command = try body.string("command")
    let serverIDs = try body.strings("server_ids") ?? []
    let timeout = try body.int("timeout")
    let type = try body.optionalString("task_type") ?? "oneshot"
    guard type == "oneshot" || type == "scheduled" else {
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: task_type: unknown variant "
          + "`\(type)`, expected `oneshot` or `scheduled`")
    }
    let name = try body.optionalString("name")
    let cron = try body.optionalString("cron_expression")
    let retryCount = try body.int("retry_count")
    let retryInterval = try body.int("retry_interval")
    let scheduled = type == "scheduled"
    guard !serverIDs.isEmpty else { throw APIError.validation("server_ids cannot be empty") }
    guard !command.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw APIError.validation("command cannot be empty")
    }
    if scheduled, cron?.isEmpty ?? true {
      throw APIError.validation("cron_expression is required for scheduled tasks")
    }
    let schedule = try cron.map(Self.schedule)
    try Self.checkNumbers(timeout: timeout, retryCount: retryCount, retryInterval: retryInterval)
    let id = Crypto.uuid(random)
    let nextRun = scheduled ? schedule.flatMap(nextRun) : nil
    return try db.transaction {
      try db.execute(
        """
        INSERT INTO tasks (id, command, server_ids_json, created_at, task_type, name,
          cron_expression, enabled, timeout, retry_count, retry_interval, next_run_at, created_by)
        VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
        """,
        [
          .text(id), .text(command), .text(try Self.idsText(serverIDs)), .int(now), .text(type),
          name.sql, cron.sql, timeout.sql, .int(retryCount ?? 0), .int(retryInterval ?? 60),
          nextRun.sql, (caller?.user.id).sql,
        ])
      if !scheduled { _ = try dispatch(taskID: id, targets: serverIDs, scheduled: false) }
      core.nextScheduledRun.withLock { $0 = nil }
      if let caller { try core.audit(caller, "task_created", detail: id, context) }
      return Reply.data(Self.task(try taskRow(id)))
    }
  }

  /// `PUT /api/tasks/{id}`: the members given change; `null` leaves one as it is. A new
  /// `cron_expression` is checked and, on a scheduled task, moves `next_run_at`; `enabled: true`
  /// moves it too. [inferred: `enabled: false` leaves `next_run_at` as it was; the number
  /// checks use the create texts (`timeout must be > 0`, …); `server_ids` and `command` given
  /// empty are refused with the create texts.]
  func updateTask(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    let body = try context.jsonBody()
    let name = try body.optionalString("name")
    let command = try body.optionalString("command")
    let serverIDs = try body.strings("server_ids")
    let cron = try body.optionalString("cron_expression")
    let enabled = try body.bool("enabled")
    let timeout = try body.int("timeout")
    let retryCount = try body.int("retry_count")
    let retryInterval = try body.int("retry_interval")
    return try db.transaction {
      let row = try taskRow(id)
      if serverIDs?.isEmpty == true {
        throw APIError.validation("server_ids cannot be empty")
      }
      if let command, command.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        throw APIError.validation("command cannot be empty")
      }
      let schedule = try cron.map(Self.schedule)
      try Self.checkNumbers(timeout: timeout, retryCount: retryCount, retryInterval: retryInterval)
      var nextRun = row["next_run_at"].int
      if row["task_type"].text == "scheduled", cron != nil || enabled == true {
        let current = try (row["cron_expression"].text).map(Self.schedule)
        nextRun = (schedule ?? current).flatMap(self.nextRun)
      }
      try db.execute(
        """
        UPDATE tasks SET name = ?, command = ?, server_ids_json = ?, cron_expression = ?,
          enabled = ?, timeout = ?, retry_count = ?, retry_interval = ?, next_run_at = ?
        WHERE id = ?
        """,
        [
          (name ?? row["name"].text).sql, .text(command ?? row["command"].text ?? ""),
          .text(try serverIDs.map(Self.idsText) ?? row["server_ids_json"].text ?? "[]"),
          (cron ?? row["cron_expression"].text).sql, (enabled ?? row["enabled"].bool).sql,
          (timeout ?? row["timeout"].int).sql,
          .int(retryCount ?? row["retry_count"].int ?? 0),
          .int(retryInterval ?? row["retry_interval"].int ?? 60), nextRun.sql, .text(id),
        ])
      core.nextScheduledRun.withLock { $0 = nil }
      return Reply.data(Self.task(try taskRow(id)))
    }
  }

  /// `POST /api/tasks/{id}/run`: a scheduled task runs now, once per target, without retries,
  /// and its summary is pushed to the caller as the run's owner (Protocol/Push.md §4).
  /// [inferred: the simulator's run ends at once, so the 409 for a running task never comes; a
  /// manual run moves `last_run_at` but not `next_run_at`.]
  func runTask(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    return try db.transaction {
      let row = try taskRow(id)
      guard row["task_type"].text == "scheduled" else {
        throw APIError.badRequest("Only scheduled tasks can be manually triggered")
      }
      let targets = Self.targets(row)
      let run = try dispatch(taskID: id, targets: targets, scheduled: true)
      if let runID = run.runID, !run.finalExitCodes.isEmpty {
        _ = try admitTaskRunPush(
          taskID: id, runID: runID, ownerID: caller?.user.id, finalExitCodes: run.finalExitCodes,
          completedAt: now)
      }
      return Reply.data(Self.task(try taskRow(id)))
    }
  }

  /// `DELETE /api/tasks/{id}` → `null`, for an unknown id too; the results go with the task.
  func deleteTask(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    return try db.transaction {
      try db.execute("DELETE FROM task_results WHERE task_id = ?", [.text(id)])
      try db.execute("DELETE FROM tasks WHERE id = ?", [.text(id)])
      return Reply.data(JSONValue.null)
    }
  }

  /// Writes one result row per target, finished now, and moves `last_run_at`.
  ///
  /// An online target answers exit code 0 with ``defaultOutput(_:)`` (the simulator runs no
  /// command). An offline or unknown target: on a scheduled run a `-3` `Server offline` row
  /// (Protocol/Tasks.md §3); on a oneshot dispatch no row at all (Protocol/Tasks.md §3,
  /// [inferred] there). Scheduled rows share a new `run_id` and have `started_at`; oneshot rows
  /// have neither.
  func dispatch(taskID: String, targets: [String], scheduled: Bool) throws -> (
    runID: String?, finalExitCodes: [Int64]
  ) {
    let online = Set(
      try db.query("SELECT id FROM servers WHERE online = 1").compactMap { $0["id"].text })
    let runID: String? = scheduled ? Crypto.uuid(random) : nil
    var finals: [Int64] = []
    for target in targets {
      let code: Int64 = online.contains(target) ? 0 : -3
      if code != 0, !scheduled { continue }
      try db.execute(
        "INSERT INTO task_results VALUES (NULL, ?, ?, ?, ?, ?, 1, ?, ?)",
        [
          .text(taskID), .text(target), .text(Self.defaultOutput(code)), .int(code), runID.sql,
          scheduled ? .int(now) : .null, .int(now),
        ])
      finals.append(code)
    }
    try db.execute("UPDATE tasks SET last_run_at = ? WHERE id = ?", [.int(now), .text(taskID)])
    return (runID, finals)
  }

  private func taskRow(_ id: String) throws -> Row {
    guard let row = try db.query("SELECT * FROM tasks WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("Task \(id) not found")
    }
    return row
  }

  /// The next run after the simulator's now, in its nanosecond time.
  private func nextRun(_ schedule: CronSchedule) -> Int64? {
    schedule.next(after: now / SimulatorCore.second).map { $0 * SimulatorCore.second }
  }

  static func targets(_ row: Row) -> [String] {
    (try? WireJSON.decode([String].self, from: Data((row["server_ids_json"].text ?? "[]").utf8)))
      ?? []
  }

  static func schedule(_ expression: String) throws -> CronSchedule {
    do {
      return try CronSchedule.parse(expression)
    } catch {
      throw APIError.validation("Invalid cron expression: \(error.description)")
    }
  }

  private static func checkNumbers(timeout: Int64?, retryCount: Int64?, retryInterval: Int64?)
    throws
  {
    if let timeout, timeout <= 0 { throw APIError.validation("timeout must be > 0") }
    if let retryCount, !(0...10).contains(retryCount) {
      throw APIError.validation("retry_count must be between 0 and 10")
    }
    if let retryInterval, retryInterval < 1 {
      throw APIError.validation("retry_interval must be >= 1")
    }
  }

  private static func idsText(_ ids: [String]) throws -> String {
    String(decoding: try WireJSON.encode(ids), as: UTF8.self)
  }
}
