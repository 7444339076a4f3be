/// An agent self-upgrade job, as listed in `full_sync.upgrades` (Protocol/LiveStream.md §4).
public struct UpgradeJob: Codable, Hashable, Sendable {
  /// The server being upgraded.
  public var serverID: String
  /// The job id.
  public var jobID: String
  /// The version being installed.
  public var targetVersion: String
  /// The step reached.
  public var stage: UpgradeStage
  /// Running or finished, and how.
  public var status: UpgradeStatus
  /// The failure text, if any.
  public var error: String?
  /// Where the previous binary was saved, if anywhere.
  public var backupPath: String?
  /// Start time (`Z` form).
  public var startedAt: RFC3339Timestamp
  /// End time (`Z` form), `nil` while running.
  public var finishedAt: RFC3339Timestamp?

  /// Creates a job.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - jobID: Job id.
  ///   - targetVersion: Target version.
  ///   - stage: Stage reached.
  ///   - status: Status.
  ///   - error: Failure text.
  ///   - backupPath: Backup path.
  ///   - startedAt: Start time.
  ///   - finishedAt: End time.
  public init(
    serverID: String, jobID: String, targetVersion: String, stage: UpgradeStage,
    status: UpgradeStatus, error: String? = nil, backupPath: String? = nil,
    startedAt: RFC3339Timestamp, finishedAt: RFC3339Timestamp? = nil
  ) {
    self.serverID = serverID
    self.jobID = jobID
    self.targetVersion = targetVersion
    self.stage = stage
    self.status = status
    self.error = error
    self.backupPath = backupPath
    self.startedAt = startedAt
    self.finishedAt = finishedAt
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case jobID = "job_id"
    case targetVersion = "target_version"
    case stage, status, error
    case backupPath = "backup_path"
    case startedAt = "started_at"
    case finishedAt = "finished_at"
  }
}

/// A step of an agent self-upgrade (unknown values survive).
public struct UpgradeStage: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a stage.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Fetching the new binary.
  public static let downloading: Self = "downloading"
  /// Checking its checksum.
  public static let verifying: Self = "verifying"
  /// Checking that it runs.
  public static let preFlight: Self = "pre_flight"
  /// Replacing the binary.
  public static let installing: Self = "installing"
  /// Restarting the agent.
  public static let restarting: Self = "restarting"
}

/// The state of an agent self-upgrade (unknown values survive).
public struct UpgradeStatus: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a status.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// In progress.
  public static let running: Self = "running"
  /// Finished well.
  public static let succeeded: Self = "succeeded"
  /// Finished with an error.
  public static let failed: Self = "failed"
  /// Gave up waiting.
  public static let timeout: Self = "timeout"
}

/// An `upgrade_progress` frame: a self-upgrade reached a new stage.
public struct UpgradeProgress: Codable, Hashable, Sendable {
  /// The server being upgraded.
  public var serverID: String
  /// The job id.
  public var jobID: String
  /// The version being installed.
  public var targetVersion: String
  /// The stage reached.
  public var stage: UpgradeStage

  /// Creates a progress report.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - jobID: Job id.
  ///   - targetVersion: Target version.
  ///   - stage: Stage reached.
  public init(serverID: String, jobID: String, targetVersion: String, stage: UpgradeStage) {
    self.serverID = serverID
    self.jobID = jobID
    self.targetVersion = targetVersion
    self.stage = stage
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case jobID = "job_id"
    case targetVersion = "target_version"
    case stage
  }
}

/// An `upgrade_result` frame: a self-upgrade finished.
public struct UpgradeResult: Codable, Hashable, Sendable {
  /// The server that was upgraded.
  public var serverID: String
  /// The job id.
  public var jobID: String
  /// The version that was being installed.
  public var targetVersion: String
  /// How it ended.
  public var status: UpgradeStatus
  /// The last stage reached, if known.
  public var stage: UpgradeStage?
  /// The failure text, if any.
  public var error: String?
  /// Where the previous binary was saved, if anywhere.
  public var backupPath: String?

  /// Creates a result.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - jobID: Job id.
  ///   - targetVersion: Target version.
  ///   - status: Final status.
  ///   - stage: Last stage.
  ///   - error: Failure text.
  ///   - backupPath: Backup path.
  public init(
    serverID: String, jobID: String, targetVersion: String, status: UpgradeStatus,
    stage: UpgradeStage? = nil, error: String? = nil, backupPath: String? = nil
  ) {
    self.serverID = serverID
    self.jobID = jobID
    self.targetVersion = targetVersion
    self.status = status
    self.stage = stage
    self.error = error
    self.backupPath = backupPath
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case jobID = "job_id"
    case targetVersion = "target_version"
    case status, stage, error
    case backupPath = "backup_path"
  }
}
