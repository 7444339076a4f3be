import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Tasks over `/api` (Protocol/Tasks.md), admin only: the list, one task and its results.

extension TasksArea {
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
}
