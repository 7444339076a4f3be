/// The `event` object of a `security_event` stream frame (Protocol/Security.md §4).
///
/// The same values as ``SecurityEvent`` without `id`, `server_id` and `created_at` (those are in
/// ``LiveSecurityEvent``), and with ``startedAt`` and ``endedAt`` as **Unix-second integers**.
public struct SecurityEventPayload: Codable, Hashable, Sendable {
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
  /// Start, Unix seconds.
  public var startedAt: Int64
  /// End, Unix seconds.
  public var endedAt: Int64
  /// Whether the source IP is new.
  public var firstSeen: Bool
  /// Which detector reported it.
  public var detectorSource: SecurityDetectorSource
  /// Details by kind, if any.
  public var evidence: SecurityEventEvidence?

  /// Creates a payload.
  /// - Parameters:
  ///   - eventType: Event type.
  ///   - severity: Severity.
  ///   - sourceIP: Remote IP.
  ///   - sourcePort: Remote port.
  ///   - username: User name.
  ///   - startedAt: Unix seconds.
  ///   - endedAt: Unix seconds.
  ///   - firstSeen: New source IP.
  ///   - detectorSource: Detector.
  ///   - evidence: Details.
  public init(
    eventType: SecurityEventType, severity: SecuritySeverity, sourceIP: String,
    sourcePort: Int? = nil, username: String? = nil, startedAt: Int64, endedAt: Int64,
    firstSeen: Bool, detectorSource: SecurityDetectorSource, evidence: SecurityEventEvidence? = nil
  ) {
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
  }

  private enum CodingKeys: String, CodingKey {
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
  }
}

/// A `security_event` stream frame: `{server_id, event_id, event}` (Protocol/LiveStream.md §4,
/// Protocol/Security.md §4).
public struct LiveSecurityEvent: Codable, Hashable, Sendable {
  /// The server it was seen on.
  public var serverID: String
  /// The stored event's id (``SecurityEvent/id``).
  public var eventID: String
  /// The event.
  public var event: SecurityEventPayload

  /// Creates a frame payload.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - eventID: Event id.
  ///   - event: The event.
  public init(serverID: String, eventID: String, event: SecurityEventPayload) {
    self.serverID = serverID
    self.eventID = eventID
    self.event = event
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case eventID = "event_id"
    case event
  }
}
