public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/tasks[?type=…]`: one-shot and scheduled tasks, newest first (Protocol/Tasks.md §1).
  /// **Admin only, including every read**: a member gets `.forbidden` (an empty-body 403).
  ///
  /// ```swift
  /// let scheduled = try await api.tasks(type: .scheduled)
  /// ```
  /// - Parameter type: Only tasks of this type; `nil` for all.
  /// - Returns: The tasks.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func tasks(type: TaskType? = nil) async throws -> [ServerTask] {
    try await send(RouteCatalogue.Tasks.tasks, query: [("type", type?.rawValue)])
  }

  /// `GET /api/tasks/{id}`: one task (Protocol/Tasks.md §1). **Admin only**.
  ///
  /// ```swift
  /// let task = try await api.task(id: content.taskID)
  /// ```
  /// - Parameter id: The task id.
  /// - Returns: The task.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound` for an unknown id), or `CancellationError`.
  public func task(id: String) async throws -> ServerTask {
    try Self.requireNonEmpty(id, "the task id")
    return try await send(RouteCatalogue.Tasks.task, PathID(id))
  }

  /// `GET /api/tasks/{id}/results`: up to 500 result rows, newest first (Protocol/Tasks.md §3).
  /// **Admin only**. An unknown task gives an empty array.
  ///
  /// ```swift
  /// for run in TaskRun.group(try await api.taskResults(taskID: task.id)) {
  ///   print(run.runID ?? "one-shot", run.summary.failed)
  /// }
  /// ```
  /// - Parameter taskID: The task id.
  /// - Returns: The rows (every run, target and attempt).
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func taskResults(taskID: String) async throws -> [TaskResult] {
    try Self.requireNonEmpty(taskID, "the task id")
    return try await send(RouteCatalogue.Tasks.taskResults, PathID(taskID))
  }

  /// `GET /api/tasks/{id}/results?run_id=…`: the rows of one run, every target and attempt
  /// (Protocol/Tasks.md §4). **Admin only**.
  ///
  /// Every returned row has `runID == runID`. A v1 server ignores the filter and answers every
  /// run; that is reported as `.serverTooOld` instead of returning rows of other runs.
  ///
  /// ```swift
  /// let rows = try await api.taskResults(taskID: content.taskID, runID: content.runID)
  /// let summary = TaskRun(runID: content.runID, results: rows).summary
  /// ```
  /// - Parameters:
  ///   - taskID: The task id.
  ///   - runID: The run id (from a `task_run` push or a result row).
  /// - Returns: The run's rows.
  /// - Throws: ``ServerBeeAPIError``: `.notFound` for an unknown run, `.serverTooOld` from a v1
  ///   server, `.forbidden` for a member. Or `CancellationError`.
  public func taskResults(taskID: String, runID: String) async throws -> [TaskResult] {
    try Self.requireNonEmpty(taskID, "the task id")
    try Self.requireNonEmpty(runID, "the run id")
    let route = RouteCatalogue.Tasks.taskResults
    let rows = try await send(route, PathID(taskID), query: [("run_id", runID)])
    guard rows.allSatisfy({ $0.runID == runID }) else {
      throw ServerBeeAPIError(
        .serverTooOld,
        "\(Self.requestLine(route, PathID(taskID))): the server ignored run_id and answered other runs (a v1 server)",
        httpStatus: 200)
    }
    return rows
  }

  /// `POST /api/tasks`: creates a task (Protocol/Tasks.md §2). **Admin only**. A oneshot task
  /// is dispatched at once; a scheduled one runs on its cron expression (6 fields with seconds,
  /// UTC).
  ///
  /// ```swift
  /// let nightly = try await api.createTask(
  ///   CreateTaskRequest(
  ///     command: "apt-get update", serverIDs: [server.id], taskType: .scheduled,
  ///     name: "nightly", cronExpression: "0 0 3 * * *"))
  /// ```
  /// - Parameter request: The command and targets; the rest optional.
  /// - Returns: The task as stored.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for a blank command or no targets
  ///   (checked before sending), `.validation` for what the server refuses (a bad cron
  ///   expression among them), `.forbidden` for a member. Or `CancellationError`.
  public func createTask(_ request: CreateTaskRequest) async throws -> ServerTask {
    try Self.requireNonEmpty(request.command, "the task's command")
    guard !request.serverIDs.isEmpty else {
      throw ServerBeeAPIError(.invalidArgument, "a task needs at least one target server")
    }
    return try await send(RouteCatalogue.Tasks.createTask, body: request)
  }

  /// `PUT /api/tasks/{id}`: changes the members set in `change`, and only those
  /// (Protocol/Tasks.md §2). **Admin only**.
  ///
  /// ```swift
  /// _ = try await api.updateTask(id: task.id, UpdateTaskRequest(enabled: false))
  /// ```
  /// - Parameters:
  ///   - id: The task id.
  ///   - change: The members to change; at least one.
  /// - Returns: The task after the change.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty change (checked before
  ///   sending), `.notFound` for an unknown id, `.validation`, `.forbidden`. Or
  ///   `CancellationError`.
  public func updateTask(id: String, _ change: UpdateTaskRequest) async throws -> ServerTask {
    try Self.requireNonEmpty(id, "the task id")
    guard change != UpdateTaskRequest() else {
      throw ServerBeeAPIError(.invalidArgument, "nothing to change in the task")
    }
    return try await send(RouteCatalogue.Tasks.updateTask, PathID(id), body: change)
  }

  /// `POST /api/tasks/{id}/run`: runs a **scheduled** task now, without retries
  /// (Protocol/Tasks.md §2). **Admin only**.
  ///
  /// ```swift
  /// let task = try await api.runTask(id: nightly.id)
  /// let rows = try await api.taskResults(taskID: task.id)
  /// ```
  /// - Parameter id: The task id.
  /// - Returns: The task after the run was started.
  /// - Throws: ``ServerBeeAPIError``: `.badRequest` for a oneshot task, `.conflict` while it
  ///   runs, `.notFound` for an unknown id, `.forbidden`. Or `CancellationError`.
  public func runTask(id: String) async throws -> ServerTask {
    try Self.requireNonEmpty(id, "the task id")
    return try await send(RouteCatalogue.Tasks.runTask, PathID(id))
  }

  /// `DELETE /api/tasks/{id}`: deletes a task and its results (Protocol/Tasks.md §2). **Admin
  /// only**. An unknown id succeeds too: the call is idempotent.
  ///
  /// ```swift
  /// try await api.deleteTask(id: task.id)
  /// ```
  /// - Parameter id: The task id.
  /// - Throws: ``ServerBeeAPIError`` (`.forbidden` for a member), or `CancellationError`.
  public func deleteTask(id: String) async throws {
    try Self.requireNonEmpty(id, "the task id")
    _ = try await send(RouteCatalogue.Tasks.deleteTask, PathID(id))
  }

  /// `GET /api/ping-tasks`: every ping task (Protocol/Tasks.md §5). Any member may list them.
  ///
  /// ```swift
  /// for task in try await api.pingTasks() where task.enabled {
  ///   print(task.name, task.probeType.rawValue, task.target)
  /// }
  /// ```
  /// - Returns: The ping tasks.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func pingTasks() async throws -> [PingTask] {
    try await send(RouteCatalogue.Tasks.pingTasks)
  }

  /// `POST /api/ping-tasks`: creates a ping task (Protocol/Tasks.md §5). **Admin only**.
  ///
  /// ```swift
  /// let task = try await api.createPingTask(
  ///   PingTaskRequest(name: "edge", probeType: .tcp, target: "203.0.113.7:443", interval: 30))
  /// ```
  /// - Parameter request: `name`, `probeType` and `target` set; the rest optional.
  /// - Returns: The task as stored.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` when a required member is missing
  ///   (checked before sending), `.validation` for a refused probe type or a target the
  ///   server's SSRF guard blocks, `.forbidden` for a member. Or `CancellationError`.
  public func createPingTask(_ request: PingTaskRequest) async throws -> PingTask {
    for (value, name) in [
      (request.name, "the ping task's name"), (request.target, "the ping task's target"),
      (request.probeType?.rawValue, "the ping task's probe type"),
    ] {
      try Self.requireNonEmpty(value ?? "", name)
    }
    return try await send(RouteCatalogue.Tasks.createPingTask, body: request)
  }

  /// `PUT /api/ping-tasks/{id}`: changes the members set in `change`, and only those
  /// (Protocol/Tasks.md §5). **Admin only**. The app's on/off toggle is
  /// `PingTaskRequest(enabled: false)`.
  ///
  /// ```swift
  /// _ = try await api.updatePingTask(id: task.id, PingTaskRequest(interval: 120))
  /// ```
  /// - Parameters:
  ///   - id: The ping task's id.
  ///   - change: The members to change; at least one.
  /// - Returns: The task after the change.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty change (checked before
  ///   sending), `.notFound` for an unknown id, `.validation`, `.forbidden`. Or
  ///   `CancellationError`.
  public func updatePingTask(id: String, _ change: PingTaskRequest) async throws -> PingTask {
    try Self.requireNonEmpty(id, "the ping task id")
    guard change != PingTaskRequest() else {
      throw ServerBeeAPIError(.invalidArgument, "nothing to change in the ping task")
    }
    return try await send(RouteCatalogue.Tasks.updatePingTask, PathID(id), body: change)
  }

  /// `DELETE /api/ping-tasks/{id}`: deletes a ping task and its records (Protocol/Tasks.md
  /// §5). **Admin only**.
  ///
  /// ```swift
  /// try await api.deletePingTask(id: task.id)
  /// ```
  /// - Parameter id: The ping task's id.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound` for an unknown id, `.forbidden`), or
  ///   `CancellationError`.
  public func deletePingTask(id: String) async throws {
    try Self.requireNonEmpty(id, "the ping task id")
    _ = try await send(RouteCatalogue.Tasks.deletePingTask, PathID(id))
  }
}
