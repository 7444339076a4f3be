import Foundation
import ServerBeeCore
import ServerBeeModels

// An agent self-upgrade as a state machine on the simulator clock (Protocol/Agents.md §11):
// started (`upgrade_progress` `downloading` at once), one stage a second (`verifying`,
// `pre_flight`, `installing`, `restarting`), then `upgrade_result` `succeeded` a second after
// `restarting`, the server's agent version changed and `agent_info_updated` broadcast.
//
// [inferred], as Protocol/Agents.md §11 records:
// - a stage lasts one second of the simulator clock; a clock advanced past several stages
//   broadcasts each of them, in order, then the result;
// - the simulator's release source has nothing newer than its latest release: a target above it
//   fails one second in, at `downloading`, with `release v<version> not found`;
// - an agent that is cut off or goes offline while upgrading ends the job `failed` at the
//   stage it reached, with `agent disconnected`;
// - jobs live in memory (lost on restart); `full_sync.upgrades` lists the jobs in flight, each
//   `running` at the stage last broadcast, oldest first (``upgradeJobsInFlight()``).

/// One running agent self-upgrade.
struct UpgradeRun: Sendable, Hashable {
  /// The job id the frames carry.
  var jobID: String
  /// The server being upgraded.
  var serverID: String
  /// The version being installed (no leading `v`).
  var targetVersion: String
  /// When it started (stored nanoseconds).
  var startedAt: Int64
  /// The index in ``SimulatorCore/upgradeStages`` of the stage last broadcast.
  var stage: Int = 0
  /// Whether the download fails (a version the release source does not have).
  var fails: Bool = false
}

extension SimulatorCore {
  /// The stages of a self-upgrade, in order (Protocol/LiveStream.md §4).
  static let upgradeStages: [UpgradeStage] = [
    .downloading, .verifying, .preFlight, .installing, .restarting,
  ]

  /// How long each stage lasts on the simulator clock.
  static let upgradeStageLength: Int64 = second

  /// Where a succeeded upgrade says the previous binary went.
  static let upgradeBackupPath = "/usr/local/bin/serverbee-agent.bak"

  /// Starts a self-upgrade and broadcasts its first stage.
  /// - Returns: The run.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) when the frame cannot be written.
  func startUpgrade(serverID: String, targetVersion: String, fails: Bool) throws -> UpgradeRun {
    let run = UpgradeRun(
      jobID: Crypto.uuid(random), serverID: serverID, targetVersion: targetVersion,
      startedAt: now, fails: fails)
    upgrades.withLock { $0[serverID] = run }
    try broadcastProgress(run)
    return run
  }

  /// The jobs in flight as `full_sync.upgrades` lists them (Protocol/Agents.md §11): each
  /// `running`, at the stage last broadcast, with no error, backup path or end, oldest first.
  /// The caller moves them to the clock first (``advanceUpgrades()``).
  func upgradeJobsInFlight() -> [UpgradeJob] {
    upgrades.withLock { Array($0.values) }
      .sorted { ($0.startedAt, $0.serverID) < ($1.startedAt, $1.serverID) }
      .map { run in
        UpgradeJob(
          serverID: run.serverID, jobID: run.jobID, targetVersion: run.targetVersion,
          stage: Self.upgradeStages[run.stage], status: .running,
          startedAt: timestamp(run.startedAt, .zulu))
      }
  }

  /// The running upgrade of a server, if any.
  func runningUpgrade(_ serverID: String) -> UpgradeRun? {
    upgrades.withLock { $0[serverID] }
  }

  /// Moves every running upgrade to where the clock says it is, broadcasting each stage
  /// passed and each result. Nothing (not even the database lock) when none runs.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) from SQLite.
  func advanceUpgrades() throws {
    guard !upgrades.withLock({ $0.isEmpty }) else { return }
    try db.serial {
      for run in upgrades.withLock({ Array($0.values) }).sorted(by: { $0.startedAt < $1.startedAt })
      {
        try advance(run)
      }
    }
  }

  private func advance(_ run: UpgradeRun) throws {
    var run = run
    let steps = Int(min(max((now - run.startedAt) / Self.upgradeStageLength, 0), 100))
    let online =
      try db.scalar(
        "SELECT online FROM servers WHERE id = ?", [.text(run.serverID)]
      ).int == 1
    if !online {
      try finish(run, .failed, error: "agent disconnected")
      return
    }
    if run.fails {
      if steps >= 1 {
        try finish(run, .failed, error: "release v\(run.targetVersion) not found")
      }
      return
    }
    let last = Self.upgradeStages.count - 1
    while run.stage < min(steps, last) {
      run.stage += 1
      try broadcastProgress(run)
    }
    upgrades.withLock { $0[run.serverID] = run }
    guard steps > last else { return }
    try db.execute(
      "UPDATE servers SET agent_version = ?, updated_at = ? WHERE id = ?",
      [.text(run.targetVersion), .int(now), .text(run.serverID)])
    try finish(run, .succeeded, error: nil)
    let protocolVersion = try db.scalar(
      "SELECT protocol_version FROM servers WHERE id = ?", [.text(run.serverID)]
    ).int
    hub.broadcast(
      try WireJSON.encode(
        LiveStreamMessage.agentInfoUpdated(
          AgentInfoUpdate(
            serverID: run.serverID, protocolVersion: Int(protocolVersion ?? 3),
            agentVersion: run.targetVersion))))
  }

  private func broadcastProgress(_ run: UpgradeRun) throws {
    hub.broadcast(
      try WireJSON.encode(
        LiveStreamMessage.upgradeProgress(
          UpgradeProgress(
            serverID: run.serverID, jobID: run.jobID, targetVersion: run.targetVersion,
            stage: Self.upgradeStages[run.stage]))))
  }

  private func finish(_ run: UpgradeRun, _ status: UpgradeStatus, error: String?) throws {
    upgrades.withLock { _ = $0.removeValue(forKey: run.serverID) }
    hub.broadcast(
      try WireJSON.encode(
        LiveStreamMessage.upgradeResult(
          UpgradeResult(
            serverID: run.serverID, jobID: run.jobID, targetVersion: run.targetVersion,
            status: status, stage: Self.upgradeStages[run.stage], error: error,
            backupPath: status == .succeeded ? Self.upgradeBackupPath : nil))))
  }
}
