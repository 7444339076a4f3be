/// The `alert` object of an `alert` push (Protocol/Push.md §3.4).
///
/// Keys in wire order: `alert_key`, `status`, `rule_name`, `server_name`. The names are shown in
/// the notification; the server truncates them to 120 characters.
public struct PushAlertSummary: Codable, Hashable, Sendable {
  /// The `v1.` alert key of the exact alert dimension and trigger cycle (Protocol/Alerts.md §5).
  public var alertKey: String
  /// `firing` or `resolved`.
  public var status: PushAlertStatus
  /// The rule's name.
  public var ruleName: String
  /// The server's name.
  public var serverName: String

  /// Creates an alert summary.
  /// - Parameters:
  ///   - alertKey: The `v1.` alert key text.
  ///   - status: `firing` or `resolved`.
  ///   - ruleName: The rule's name.
  ///   - serverName: The server's name.
  public init(alertKey: String, status: PushAlertStatus, ruleName: String, serverName: String) {
    self.alertKey = alertKey
    self.status = status
    self.ruleName = ruleName
    self.serverName = serverName
  }

  enum CodingKeys: String, CodingKey {
    case alertKey = "alert_key"
    case status
    case ruleName = "rule_name"
    case serverName = "server_name"
  }
}

/// The `task_run` object of a `task_failure` or `task_success` push (Protocol/Push.md §3.4).
///
/// Keys in wire order: `task_id`, `run_id`, `total`, `failed`, `timed_out`, `offline`,
/// `denied`. A run whose four counts are all zero succeeded everywhere.
public struct PushTaskRunSummary: Codable, Hashable, Sendable {
  /// The task's id (UUID).
  public var taskID: String
  /// The run's id (UUID); equals the push's `event_id`.
  public var runID: String
  /// How many targets the run had.
  public var total: Int64
  /// Targets that exited non-zero.
  public var failed: Int64
  /// Targets that timed out.
  public var timedOut: Int64
  /// Targets that were offline.
  public var offline: Int64
  /// Targets that refused to run the command.
  public var denied: Int64

  /// Creates a run summary.
  /// - Parameters:
  ///   - taskID: The task's id.
  ///   - runID: The run's id.
  ///   - total: The number of targets.
  ///   - failed: Failed targets.
  ///   - timedOut: Timed-out targets.
  ///   - offline: Offline targets.
  ///   - denied: Targets that refused.
  public init(
    taskID: String, runID: String, total: Int64, failed: Int64 = 0, timedOut: Int64 = 0,
    offline: Int64 = 0, denied: Int64 = 0
  ) {
    self.taskID = taskID
    self.runID = runID
    self.total = total
    self.failed = failed
    self.timedOut = timedOut
    self.offline = offline
    self.denied = denied
  }

  /// Whether every count of unsuccessful targets is zero (the success text is shown).
  public var isAllSucceeded: Bool { failed == 0 && timedOut == 0 && offline == 0 && denied == 0 }

  enum CodingKeys: String, CodingKey {
    case taskID = "task_id"
    case runID = "run_id"
    case total, failed
    case timedOut = "timed_out"
    case offline, denied
  }
}
