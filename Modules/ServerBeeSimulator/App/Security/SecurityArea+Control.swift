import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// `POST /__simulator/security-events`: a raw event as an agent reports it, stored, broadcast,
// and matched against the security rules, which may push (Protocol/Security.md §5, Protocol/Push.md
// §4).

/// The control answer to `POST /__simulator/security-events`: the stored event as the REST
/// detail shows it, then how many pushes were queued.
struct SecurityEventAnswer: Encodable {
  var data: SecurityEvent
  var pushes: Int
}

extension SecurityArea {
  /// Stores a raw security event, broadcasts it and pushes when a security rule admits it
  /// (Protocol/Push.md §4) → `{"data": SecurityEvent, "pushes": n}`.
  func controlSecurityEvent(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = Crypto.uuid(random)
    let seconds = now / Self.second
    // Through the shared model: the known kinds are written in the server's key order
    // (Protocol/Security.md §2).
    let evidence = try body.value["evidence"].flatMap {
      $0 == .null
        ? nil : try WireJSON.decode(SecurityEventEvidence.self, from: try WireJSON.encode($0))
    }
    let evidenceJSON = try evidence.map { String(decoding: try WireJSON.encode($0), as: UTF8.self) }
    let (event, pushes) = try db.transaction {
      try db.execute(
        "INSERT INTO security_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
          .text(id), .text(try body.string("server_id")),
          .text(try body.optionalString("event_type") ?? "ssh_login"),
          .text(try body.optionalString("severity") ?? "info"),
          .text(try body.optionalString("source_ip") ?? "203.0.113.7"),
          (try body.int("source_port")).sql, (try body.optionalString("username")).sql,
          .int(try body.int("started_at") ?? seconds), .int(try body.int("ended_at") ?? seconds),
          (try body.bool("first_seen") ?? false).sql,
          .text(try body.optionalString("detector_source") ?? "journal"), evidenceJSON.sql,
          .int(now),
        ])
      guard let row = try db.query("SELECT * FROM security_events WHERE id = ?", [.text(id)]).first
      else { throw APIError.notFound("security event \(id) not found") }
      let event = Self.securityEvent(row)
      return (event, try admitSecurityPush(event))
    }
    core.hub.broadcast(try WireJSON.encode(LiveStreamMessage.securityEvent(event)))
    return Reply.json(200, SecurityEventAnswer(data: event.event, pushes: pushes))
  }

  /// The security rule type that watches each raw event type (Protocol/Security.md §5).
  static let securityRuleForEvent: [String: String] = [
    "ssh_login": "ssh_new_ip_login", "ssh_brute_force": "ssh_brute_force_detected",
    "port_scan": "port_scan_detected",
  ]

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
    let eventSeconds = SimulatorCore.seconds(event.createdAt)
    let inMaintenance = try core.isInMaintenance(serverID: event.serverID, at: eventSeconds)
    var notify = false
    for rule in rules where Self.admits(rule, event) {
      let (_, notified) = try core.recordTrigger(
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
    return try core.admitEverywhere(content, category: .security, adminOnly: true)
  }

  /// Scope, thresholds and exclusions of one security rule (Protocol/Security.md §5). A threshold
  /// that is set needs evidence of the matching kind; exclusions apply to every security rule type.
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
