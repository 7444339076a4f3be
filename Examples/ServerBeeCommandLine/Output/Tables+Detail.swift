import ServerBeeModels

/// The detail views: one alert cycle, one security event.
extension Tables {
  /// One alert's current cycle (`alerts show`, and the alert a tap opens).
  static func alertDetail(_ detail: AlertEventDetail) -> String {
    TextTable.keyValue([
      ("alert:", "\(detail.ruleName) on \(detail.serverName)"),
      ("status:", detail.status.rawValue),
      ("message:", detail.message),
      ("triggered:", "\(detail.triggerCount) time(s)"),
      ("since:", Formatting.time(detail.firstTriggeredAt)),
      ("resolved:", detail.resolvedAt.map(Formatting.time) ?? "-"),
      (
        "rule:",
        "\(detail.ruleID) (\(detail.ruleEnabled ? "enabled" : "disabled"), "
          + "trigger \(detail.ruleTriggerMode.rawValue))"
      ),
      ("server:", detail.serverID),
      ("key:", detail.alertKey),
    ])
  }

  /// One security event with its evidence (`security event`, and the event a tap opens).
  static func securityEvent(_ event: SecurityEvent, serverNames: [String: String]) -> String {
    var pairs = [
      ("event:", "\(event.eventType.rawValue) (\(event.severity.rawValue))"),
      ("server:", serverName(event.serverID, serverNames)),
      ("source:", source(event)),
    ]
    if let username = event.username { pairs.append(("user:", username)) }
    pairs += [
      ("started:", Formatting.time(event.startedAt)),
      ("ended:", Formatting.time(event.endedAt)),
      ("first seen:", event.firstSeen ? "yes (a new source for this server)" : "no"),
      ("detector:", event.detectorSource.rawValue),
    ]
    if let evidence = event.evidence { pairs.append(("evidence:", evidenceText(evidence))) }
    pairs += [("stored:", Formatting.time(event.createdAt)), ("id:", event.id)]
    return TextTable.keyValue(pairs)
  }

  /// The name of a server id when known, else the id.
  static func serverName(_ id: String, _ names: [String: String]) -> String {
    names[id].map { "\($0) (\(id))" } ?? id
  }

  /// `ip:port`, or the address alone.
  static func source(_ event: SecurityEvent) -> String {
    event.sourcePort.map { "\(event.sourceIP):\($0)" } ?? event.sourceIP
  }

  private static func evidenceText(_ evidence: SecurityEventEvidence) -> String {
    switch evidence {
    case .sshLogin(let login):
      return "SSH login, \(login.authMethod.rawValue) authentication"
    case .sshBruteForce(let attack):
      var text =
        "\(attack.failedCount) failed logins, \(attack.distinctUsers) user names "
        + "(\(attack.invalidUserCount) invalid) in \(attack.windowSeconds) s, "
        + "threshold \(attack.threshold)"
      if !attack.sampleUsers.isEmpty {
        text += "; for example " + attack.sampleUsers.prefix(5).joined(separator: ", ")
      }
      return text
    case .portScan(let scan):
      let ports = scan.samplePorts.prefix(10).map(String.init).joined(separator: ", ")
      return "\(scan.distinctPorts) ports, \(scan.totalAttempts) attempts "
        + "(\(scan.blockedCount) blocked) in \(scan.windowSeconds) s, threshold \(scan.threshold)"
        + (ports.isEmpty ? "" : "; ports \(ports)")
    case .unknown(let kind, _):
      return "\(kind ?? "unknown") (see --json)"
    }
  }
}
