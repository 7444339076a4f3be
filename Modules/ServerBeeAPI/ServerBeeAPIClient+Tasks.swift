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
}
