import Foundation
import ServerBeeCore
import ServerBeeModels

/// How many targets of one task run ended in each bucket (wire contract v2 §4.4): the final attempt of each
/// target decides.
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

/// The pushes that events produce (wire contract v2 §5): alert triggers and recoveries, finished task runs and
/// admitted security events. Each function runs inside the caller's transaction and hands the
/// sealed content to ``admitEverywhere(_:category:adminOnly:userID:)``; the returned number is
/// how many installations got a job.
///
/// Alert and security states share `alert_states`. `last_notified_at` is written only when the
/// state notifies, so it is both the `always` debounce anchor and the security dedupe anchor;
/// a cycle that never notified (maintenance, a disabled rule) keeps it `NULL`.
extension SimulatorCore {
  /// The security rule type that watches each raw event type (wire contract v1 §8.5).
  static let securityRuleForEvent: [String: String] = [
    "ssh_login": "ssh_new_ip_login", "ssh_brute_force": "ssh_brute_force_detected",
    "port_scan": "port_scan_detected",
  ]

  // MARK: Task runs

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
      createdAt: Self.seconds(completedAt), expiresAt: 0,
      taskRun: PushTaskRunSummary(
        taskID: taskID, runID: runID, total: counts.total, failed: counts.failed,
        timedOut: counts.timedOut, offline: counts.offline, denied: counts.denied))
    return try admitEverywhere(
      content, category: counts.allSucceeded ? .taskSuccess : .taskFailure, adminOnly: true,
      userID: ownerID)
  }

  // MARK: Security

  /// Matches one stored raw event against every enabled rule of the type that watches it. Each
  /// admitting rule (in scope, thresholds and exclusions passed) records its per-source-IP state;
  /// it notifies unless the server is in maintenance or its last notification for (rule,
  /// server, source IP) is younger than its dedupe window. Any notifying rule makes one push
  /// for current admins subscribed to security: ids and the type only.
  func admitSecurityPush(_ event: SecurityEventRow) throws -> Int {
    guard let ruleType = Self.securityRuleForEvent[event.eventType] else { return 0 }
    let rules = try db.query(
      "SELECT * FROM alert_rules WHERE enabled = 1 AND rule_type = ? ORDER BY created_at, id",
      [.text(ruleType)]
    ).map(AlertRuleRow.init)
    let eventSeconds = Self.seconds(event.createdAt)
    let inMaintenance = try isInMaintenance(serverID: event.serverID, at: eventSeconds)
    var notify = false
    for rule in rules where Self.admits(rule, event) {
      let (_, notified) = try recordTrigger(
        rule, serverID: event.serverID, eventKey: event.sourceIP
      ) { firing in
        guard !inMaintenance else { return false }
        guard let last = firing?.lastNotifiedAt else { return true }
        return event.createdAt - last >= rule.dedupeWindowSeconds * Self.second
      }
      notify = notify || notified
    }
    guard notify else { return 0 }
    let content = PushContent(
      kind: .security, deploymentID: "", userID: "", installationID: "", eventID: event.id,
      createdAt: eventSeconds, expiresAt: 0, serverID: event.serverID,
      securityEventID: event.id, securityEventType: PushSecurityEventType(rawValue: event.eventType)
    )
    return try admitEverywhere(content, category: .security, adminOnly: true)
  }

  /// Scope, thresholds and exclusions of one security rule (wire contract v1 §8.5). A threshold that is set
  /// needs evidence of the matching kind; exclusions apply to every security rule type.
  static func admits(_ rule: AlertRuleRow, _ event: SecurityEventRow) -> Bool {
    guard rule.isSecurity, securityRuleForEvent[event.eventType] == rule.ruleType,
      rule.covers(serverID: event.serverID)
    else { return false }
    switch rule.ruleType {
    case "ssh_new_ip_login":
      guard event.firstSeen else { return false }
    case "ssh_brute_force_detected":
      if let minimum = rule.minFailedCount {
        guard case .sshBruteForce(let evidence)? = event.evidence,
          Int64(evidence.failedCount) >= minimum
        else { return false }
      }
    default:
      if let minimum = rule.minDistinctPorts {
        guard case .portScan(let evidence)? = event.evidence,
          Int64(evidence.distinctPorts) >= minimum
        else { return false }
      }
    }
    if let username = event.username?.lowercased(),
      rule.excludeUsers.contains(where: { $0.lowercased() == username })
    {
      return false
    }
    return !rule.excludeCIDRs.contains { IPNetwork.contains($0, event.sourceIP) }
  }
}
