import Foundation
import ServerBeeCore
import ServerBeeModels

/// A stored alert rule with the parameters the push events read (wire contract v1 §6.5, §8.5).
struct AlertRuleRow: Sendable, Equatable {
  var id: String
  var name: String
  var ruleType: String
  var enabled: Bool
  var triggerMode: String
  /// The covered servers; empty covers every server.
  var serverIDs: [String]
  var excludeUsers: [String]
  var excludeCIDRs: [String]
  var minFailedCount: Int64?
  var minDistinctPorts: Int64?
  var dedupeWindowSeconds: Int64

  init(_ row: Row) {
    id = row["id"].text ?? ""
    name = row["name"].text ?? ""
    ruleType = row["rule_type"].text ?? ""
    enabled = row["enabled"].bool
    triggerMode = row["trigger_mode"].text ?? "always"
    serverIDs = Self.strings(row["server_ids_json"].text)
    excludeUsers = Self.strings(row["exclude_users_json"].text)
    excludeCIDRs = Self.strings(row["exclude_cidrs_json"].text)
    minFailedCount = row["min_failed_count"].int
    minDistinctPorts = row["min_distinct_ports"].int
    dedupeWindowSeconds = row["dedupe_window_seconds"].int ?? SimulatorCore.defaultDedupeWindow
  }

  private static func strings(_ json: String?) -> [String] {
    json.flatMap { try? WireJSON.decode([String].self, from: Data($0.utf8)) } ?? []
  }

  var isSecurity: Bool { SimulatorCore.securityRuleTypes.contains(ruleType) }

  func covers(serverID: String) -> Bool { serverIDs.isEmpty || serverIDs.contains(serverID) }
}

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
  /// `always` rules notify again only this long after the last notification (wire contract v1 §6.3).
  static let alertDebounce: Int64 = 300 * second
  /// A security rule's `dedupe_window_seconds` when none is set (wire contract v1 §8.5).
  static let defaultDedupeWindow: Int64 = 600
  /// Names in alert content are cut to this many Unicode scalars (wire contract v2 §4.4).
  static let pushNameLimit = 120

  /// The security rule type that watches each raw event type (wire contract v1 §8.5).
  static let securityRuleForEvent: [String: String] = [
    "ssh_login": "ssh_new_ip_login", "ssh_brute_force": "ssh_brute_force_detected",
    "port_scan": "port_scan_detected",
  ]

  func alertRule(id: String) throws -> AlertRuleRow? {
    try db.query("SELECT * FROM alert_rules WHERE id = ?", [.text(id)]).first
      .map(AlertRuleRow.init)
  }

  private func alertState(ruleID: String, serverID: String, eventKey: String) throws
    -> AlertStateRow?
  {
    try db.query(
      Self.alertStateSelect + " WHERE s.rule_id = ? AND s.server_id = ? AND s.event_key = ?",
      [.text(ruleID), .text(serverID), .text(eventKey)]
    ).first.map(Self.alertState)
  }

  /// Whether a maintenance window covers `serverID` at Unix second `at` (`[starts_at, ends_at)`).
  func isInMaintenance(serverID: String, at seconds: Int64) throws -> Bool {
    try !db.query(
      """
      SELECT id FROM maintenance_windows WHERE (server_id IS NULL OR server_id = ?)
        AND starts_at <= ? AND ends_at > ? LIMIT 1
      """, [.text(serverID), .int(seconds), .int(seconds)]
    ).isEmpty
  }

  // MARK: Alerts

  /// Records one trigger of `rule` for a state: a new cycle when there is none or it is
  /// resolved (first trigger now, count 1), else one more tick. `decide` sees the firing state
  /// of the current cycle (`nil` at the first trigger) and says whether this trigger notifies;
  /// only then is `last_notified_at` set to now.
  private func recordTrigger(
    _ rule: AlertRuleRow, serverID: String, eventKey: String,
    decide: (AlertStateRow?) throws -> Bool
  ) throws -> (state: AlertStateRow?, notified: Bool) {
    let existing = try alertState(ruleID: rule.id, serverID: serverID, eventKey: eventKey)
    let firing = existing.flatMap { $0.resolved ? nil : $0 }
    let notified = try decide(firing)
    let notifiedAt: SQLValue = notified ? .int(now) : .null
    if existing == nil {
      try db.execute(
        """
        INSERT INTO alert_states (rule_id, server_id, event_key, first_triggered_at,
          last_notified_at, count, resolved, resolved_at, updated_at)
        VALUES (?, ?, ?, ?, ?, 1, 0, NULL, ?)
        """,
        [.text(rule.id), .text(serverID), .text(eventKey), .int(now), notifiedAt, .int(now)])
    } else if firing == nil {
      try db.execute(
        """
        UPDATE alert_states SET first_triggered_at = ?, last_notified_at = ?, count = 1,
          resolved = 0, resolved_at = NULL, updated_at = ?
        WHERE rule_id = ? AND server_id = ? AND event_key = ?
        """,
        [.int(now), notifiedAt, .int(now), .text(rule.id), .text(serverID), .text(eventKey)])
    } else {
      try db.execute(
        """
        UPDATE alert_states SET count = count + 1, updated_at = ?,
          last_notified_at = CASE WHEN ? THEN ? ELSE last_notified_at END
        WHERE rule_id = ? AND server_id = ? AND event_key = ?
        """,
        [
          .int(now), notified.sql, .int(now), .text(rule.id), .text(serverID), .text(eventKey),
        ])
    }
    return (try alertState(ruleID: rule.id, serverID: serverID, eventKey: eventKey), notified)
  }

  /// `POST /__simulator/alerts/fire`: the rule evaluated as firing now for one state. An
  /// enabled non-security rule outside maintenance notifies at the first trigger of a cycle;
  /// an `always` rule again once 300 s passed since its last notification (`once` never again).
  func fireAlert(_ rule: AlertRuleRow, serverID: String, eventKey: String) throws
    -> (state: AlertStateRow?, pushes: Int)
  {
    let (state, notified) = try recordTrigger(rule, serverID: serverID, eventKey: eventKey) {
      firing in
      guard rule.enabled, !rule.isSecurity,
        try !isInMaintenance(serverID: serverID, at: nowSeconds)
      else { return false }
      guard let firing else { return true }
      guard rule.triggerMode != "once" else { return false }
      guard let last = firing.lastNotifiedAt else { return true }
      return now - last >= Self.alertDebounce
    }
    guard notified, let state else { return (state, 0) }
    return (state, try admitAlertPush(state, rule: rule, status: .firing, at: now))
  }

  /// `POST /__simulator/alerts/resolve`: every firing state of the rule and server resolves now;
  /// each firing→resolved edge of an enabled non-security rule pushes once (maintenance never
  /// suppresses a recovery).
  func resolveAlerts(ruleID: String, serverID: String) throws -> (resolved: Int, pushes: Int) {
    let firing = try db.query(
      Self.alertStateSelect + " WHERE s.rule_id = ? AND s.server_id = ? AND s.resolved = 0",
      [.text(ruleID), .text(serverID)]
    ).map(Self.alertState)
    let rule = try alertRule(id: ruleID)
    var pushes = 0
    for state in firing {
      try db.execute(
        """
        UPDATE alert_states SET resolved = 1, resolved_at = ?, updated_at = ?
        WHERE rule_id = ? AND server_id = ? AND event_key = ? AND resolved = 0
        """,
        [.int(now), .int(now), .text(ruleID), .text(serverID), .text(state.eventKey)])
      if let rule, rule.enabled, !rule.isSecurity {
        pushes += try admitAlertPush(state, rule: rule, status: .resolved, at: now)
      }
    }
    return (firing.count, pushes)
  }

  /// Seals an alert push for everyone subscribed to alerts (admins and members alike).
  /// `event_id` is the wire contract v2 §5 formula; `repeat` is the trigger time for firing pushes of
  /// non-`once` rules, in the `+00:00` form of the `v1.` key (what chrono's `to_rfc3339` writes).
  private func admitAlertPush(
    _ state: AlertStateRow, rule: AlertRuleRow, status: PushAlertStatus, at nanos: Int64
  ) throws -> Int {
    let key = state.alertKey
    let repeatTime =
      status == .firing && rule.triggerMode != "once"
      ? timestamp(nanos, .utcOffset).formatted(.utcOffset) : ""
    let eventID = try Self.alertEventID(alertKey: key, status: status, repeat: repeatTime)
    let content = PushContent(
      kind: .alert, deploymentID: "", userID: "", installationID: "", eventID: eventID,
      createdAt: Self.seconds(nanos), expiresAt: 0,
      alert: PushAlertSummary(
        alertKey: key, status: status, ruleName: Self.pushName(rule.name),
        serverName: Self.pushName(state.serverName ?? "Unknown")))
    return try admitEverywhere(content, category: .alerts, adminOnly: false)
  }

  /// The first 16 bytes of SHA-256 of `["alert", alert_key, status, repeat]` (compact,
  /// `/` unescaped) as a lowercase hyphenated UUID; the version bits are left as they fall.
  static func alertEventID(alertKey: String, status: PushAlertStatus, repeat: String) throws
    -> String
  {
    let json = try WireJSON.encode(["alert", alertKey, status.rawValue, `repeat`])
    let hex = Array(Hex.encode(Array(SHA256.digest(Array(json)).prefix(16))))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
      .joined(separator: "-")
  }

  static func pushName(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.prefix(pushNameLimit)))
  }

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
