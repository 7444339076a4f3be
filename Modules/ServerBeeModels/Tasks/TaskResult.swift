/// One result row of `GET /api/tasks/{id}/results` (Protocol/Tasks.md §3, §4): one attempt on one
/// target.
///
/// There is no status field: ``exitCode`` carries it, and ``outcome`` names it. Rows of one
/// scheduled run share ``runID``; group them with ``TaskRun/group(_:)``.
///
/// ```swift
/// let rows = try APIResponse<[TaskResult]>.payload(status: status, body: body)
/// for run in TaskRun.group(rows) {
///   print(run.runID ?? "one-shot", run.summary.failed, "failed of", run.summary.total)
/// }
/// ```
public struct TaskResult: Codable, Hashable, Sendable, Identifiable {
  /// Row id.
  public var id: Int64
  /// The task.
  public var taskID: String
  /// The target server.
  public var serverID: String
  /// Stdout, a newline, then stderr; capped at 512 KiB.
  public var output: String
  /// The exit code, or a negative server convention; see ``outcome``.
  public var exitCode: Int
  /// The scheduled run this attempt belongs to; `nil` for one-shot tasks.
  public var runID: String?
  /// 1-based attempt number (retries add rows).
  public var attempt: Int
  /// Start time; `nil` for one-shot and synthetic rows.
  public var startedAt: RFC3339Timestamp?
  /// End time.
  public var finishedAt: RFC3339Timestamp

  /// Creates a row.
  /// - Parameters:
  ///   - id: Row id.
  ///   - taskID: Task id.
  ///   - serverID: Target.
  ///   - output: Output text.
  ///   - exitCode: Exit code.
  ///   - runID: Run id.
  ///   - attempt: Attempt number.
  ///   - startedAt: Start time.
  ///   - finishedAt: End time.
  public init(
    id: Int64, taskID: String, serverID: String, output: String, exitCode: Int,
    runID: String? = nil, attempt: Int = 1, startedAt: RFC3339Timestamp? = nil,
    finishedAt: RFC3339Timestamp
  ) {
    self.id = id
    self.taskID = taskID
    self.serverID = serverID
    self.output = output
    self.exitCode = exitCode
    self.runID = runID
    self.attempt = attempt
    self.startedAt = startedAt
    self.finishedAt = finishedAt
  }

  /// What ``exitCode`` means.
  public var outcome: TaskOutcome { TaskOutcome(exitCode: exitCode) }

  private enum CodingKeys: String, CodingKey {
    case id
    case taskID = "task_id"
    case serverID = "server_id"
    case output
    case exitCode = "exit_code"
    case runID = "run_id"
    case attempt
    case startedAt = "started_at"
    case finishedAt = "finished_at"
  }
}

/// The meaning of a task result's exit code (Protocol/Tasks.md §3).
public enum TaskOutcome: Hashable, Sendable {
  /// `0`.
  case success
  /// `> 0`: the command failed with that code.
  case failed(exitCode: Int)
  /// `-1`: the agent could not spawn the command, or hit its own timeout.
  case agentError
  /// `-2`: rejected, the exec capability is not allowed.
  case denied
  /// `-3`: the target was offline or dispatch failed.
  case offline
  /// `-4`: no answer within timeout + 10 s.
  case timedOut
  /// Any other negative code.
  case unrecognized(exitCode: Int)

  /// Classifies an exit code.
  /// - Parameter exitCode: The `exit_code` value.
  public init(exitCode: Int) {
    switch exitCode {
    case 0: self = .success
    case 1...: self = .failed(exitCode: exitCode)
    case -1: self = .agentError
    case -2: self = .denied
    case -3: self = .offline
    case -4: self = .timedOut
    default: self = .unrecognized(exitCode: exitCode)
    }
  }
}

/// The rows of one task run: every target and attempt sharing a `run_id`.
public struct TaskRun: Hashable, Sendable {
  /// The run id; `nil` for the rows of a one-shot task.
  public var runID: String?
  /// The rows, in the order received (newest `finished_at` first).
  public var results: [TaskResult]

  /// Creates a run.
  /// - Parameters:
  ///   - runID: Run id.
  ///   - results: Rows.
  public init(runID: String?, results: [TaskResult]) {
    self.runID = runID
    self.results = results
  }

  /// Groups rows by ``TaskResult/runID``, runs ordered by their first row (newest first when the
  /// rows come from the server). Rows without a run id form one group.
  /// - Parameter results: Rows as received.
  /// - Returns: One ``TaskRun`` per distinct run id.
  public static func group(_ results: [TaskResult]) -> [TaskRun] {
    var order: [String?] = []
    var rows: [String?: [TaskResult]] = [:]
    for result in results {
      if rows[result.runID] == nil { order.append(result.runID) }
      rows[result.runID, default: []].append(result)
    }
    return order.map { TaskRun(runID: $0, results: rows[$0] ?? []) }
  }

  /// The last attempt of each target (highest ``TaskResult/attempt``), in order of first
  /// appearance.
  public var finalResults: [TaskResult] {
    var order: [String] = []
    var best: [String: TaskResult] = [:]
    for result in results {
      guard let current = best[result.serverID] else {
        order.append(result.serverID)
        best[result.serverID] = result
        continue
      }
      if result.attempt > current.attempt { best[result.serverID] = result }
    }
    return order.compactMap { best[$0] }
  }

  /// Counts of ``finalResults`` by outcome.
  public var summary: TaskRunSummary {
    var summary = TaskRunSummary()
    for result in finalResults {
      summary.total += 1
      switch result.outcome {
      case .success: summary.succeeded += 1
      case .failed, .agentError, .unrecognized: summary.failed += 1
      case .denied: summary.denied += 1
      case .offline: summary.offline += 1
      case .timedOut: summary.timedOut += 1
      }
    }
    return summary
  }
}

/// Per-target outcome counts of a ``TaskRun`` (the same split as a `task_run` push summary).
public struct TaskRunSummary: Hashable, Sendable {
  /// Targets.
  public var total = 0
  /// Targets whose last attempt exited 0.
  public var succeeded = 0
  /// Targets whose last attempt failed (exit code > 0, -1 or unrecognised).
  public var failed = 0
  /// Targets that timed out on the server side (-4).
  public var timedOut = 0
  /// Targets that were offline (-3).
  public var offline = 0
  /// Targets that refused the command (-2).
  public var denied = 0

  /// Creates an all-zero summary.
  public init() {}
}
