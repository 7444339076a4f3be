/// A stored security event (Protocol/Security.md §2): an SSH login, an SSH brute-force attempt or a
/// port scan seen on a server.
///
/// Served by `GET /api/security/events` (inside a ``SecurityEventPage``) and
/// `GET /api/security/events/{id}`. Times are RFC 3339 with `+00:00`; ``startedAt`` and
/// ``endedAt`` come from Unix seconds and carry no fraction. The live-stream form of the same
/// event is ``SecurityEventPayload``.
///
/// ```swift
/// let page = try APIResponse<SecurityEventPage>.payload(status: status, body: body)
/// for event in page.items where event.severity == .critical { alert(event.sourceIP) }
/// ```
public struct SecurityEvent: Codable, Hashable, Sendable, Identifiable {
  /// Event id (UUID); the `event_id` of the live-stream message.
  public var id: String
  /// The server it was seen on.
  public var serverID: String
  /// What was detected.
  public var eventType: SecurityEventType
  /// How serious it is.
  public var severity: SecuritySeverity
  /// The remote IP address.
  public var sourceIP: String
  /// The remote port, if known.
  public var sourcePort: Int?
  /// The user name involved, if any.
  public var username: String?
  /// When the activity began.
  public var startedAt: RFC3339Timestamp
  /// When the activity ended.
  public var endedAt: RFC3339Timestamp
  /// Whether the source IP had not been seen before (drives "new IP login").
  public var firstSeen: Bool
  /// Which detector reported it.
  public var detectorSource: SecurityDetectorSource
  /// Details by kind; `nil` when the server could not parse them.
  public var evidence: SecurityEventEvidence?
  /// When the server stored it.
  public var createdAt: RFC3339Timestamp

  /// Creates an event.
  /// - Parameters:
  ///   - id: Event id.
  ///   - serverID: Server id.
  ///   - eventType: Event type.
  ///   - severity: Severity.
  ///   - sourceIP: Remote IP.
  ///   - sourcePort: Remote port.
  ///   - username: User name.
  ///   - startedAt: Start.
  ///   - endedAt: End.
  ///   - firstSeen: New source IP.
  ///   - detectorSource: Detector.
  ///   - evidence: Details.
  ///   - createdAt: Storage time.
  public init(
    id: String, serverID: String, eventType: SecurityEventType, severity: SecuritySeverity,
    sourceIP: String, sourcePort: Int? = nil, username: String? = nil,
    startedAt: RFC3339Timestamp, endedAt: RFC3339Timestamp, firstSeen: Bool,
    detectorSource: SecurityDetectorSource, evidence: SecurityEventEvidence? = nil,
    createdAt: RFC3339Timestamp
  ) {
    self.id = id
    self.serverID = serverID
    self.eventType = eventType
    self.severity = severity
    self.sourceIP = sourceIP
    self.sourcePort = sourcePort
    self.username = username
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.firstSeen = firstSeen
    self.detectorSource = detectorSource
    self.evidence = evidence
    self.createdAt = createdAt
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case serverID = "server_id"
    case eventType = "event_type"
    case severity
    case sourceIP = "source_ip"
    case sourcePort = "source_port"
    case username
    case startedAt = "started_at"
    case endedAt = "ended_at"
    case firstSeen = "first_seen"
    case detectorSource = "detector_source"
    case evidence
    case createdAt = "created_at"
  }
}

/// A security event's type (unknown values survive).
public struct SecurityEventType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a type.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A successful SSH login.
  public static let sshLogin: Self = "ssh_login"
  /// Repeated failed SSH logins.
  public static let sshBruteForce: Self = "ssh_brute_force"
  /// Connections to many ports.
  public static let portScan: Self = "port_scan"
}

/// A security event's severity (unknown values survive).
public struct SecuritySeverity: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a severity.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Informational.
  public static let info: Self = "info"
  /// Low.
  public static let low: Self = "low"
  /// Medium.
  public static let medium: Self = "medium"
  /// High.
  public static let high: Self = "high"
  /// Critical.
  public static let critical: Self = "critical"
}

/// The detector that reported a security event (unknown values survive).
public struct SecurityDetectorSource: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a source.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The systemd journal.
  public static let journal: Self = "journal"
  /// `/var/log/auth.log`.
  public static let authLog: Self = "auth_log"
  /// Connection tracking.
  public static let conntrack: Self = "conntrack"
  /// The firewall log.
  public static let firewallLog: Self = "firewall_log"
}

/// One page of `GET /api/security/events` (Protocol/Security.md §1): `{"items": […], "next_cursor":
/// …}`.
public struct SecurityEventPage: Codable, Hashable, Sendable {
  /// Events, newest `created_at` first.
  public var items: [SecurityEvent]
  /// The opaque cursor of the next page; `nil` on the last page. Send it back unchanged.
  public var nextCursor: String?

  /// Creates a page.
  /// - Parameters:
  ///   - items: Events.
  ///   - nextCursor: Next-page cursor.
  public init(items: [SecurityEvent], nextCursor: String? = nil) {
    self.items = items
    self.nextCursor = nextCursor
  }

  private enum CodingKeys: String, CodingKey {
    case items
    case nextCursor = "next_cursor"
  }
}

/// One row of `GET /api/security/stats` (Protocol/Security.md §3): `{"key": …, "count": …}`.
public struct SecurityStatsEntry: Codable, Hashable, Sendable {
  /// The group: an event type, a source IP or a day such as `2026-05-20`.
  public var key: String
  /// Events in the group.
  public var count: Int

  /// Creates a row.
  /// - Parameters:
  ///   - key: Group key.
  ///   - count: Event count.
  public init(key: String, count: Int) {
    self.key = key
    self.count = count
  }
}

/// The `group_by` query value of `GET /api/security/stats` (unknown values survive).
public struct SecurityStatsGrouping: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a grouping.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// By ``SecurityEventType``.
  public static let eventType: Self = "event_type"
  /// By source IP.
  public static let sourceIP: Self = "source_ip"
  /// By UTC day.
  public static let day: Self = "day"
}
