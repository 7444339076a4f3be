/// `POST /api/incidents` body (Protocol/Incidents.md §2.2). Members left `nil` are left out of
/// the body and take the server's default.
///
/// ```swift
/// let body = IncidentCreateRequest(
///   title: "API latency", severity: .major, serverIDs: [server.id], isPublic: true)
/// let incident = try await api.createIncident(body)
/// ```
public struct IncidentCreateRequest: Encodable, Hashable, Sendable {
  /// The headline (the server does not check it).
  public var title: String
  /// The first status, or `nil` for the server's default (`investigating`). Created as
  /// `resolved`, the incident is stamped resolved at once.
  public var status: IncidentStatus?
  /// The severity, or `nil` for the server's default (`minor`).
  public var severity: IncidentSeverity?
  /// The affected servers, sent as the **array** `server_ids_json`; `nil` means every server.
  public var serverIDs: [String]?
  /// Whether the status page shows it; `nil` for the server's default (`false`).
  public var isPublic: Bool?

  /// Creates the body.
  /// - Parameters:
  ///   - title: Headline.
  ///   - status: First status, or `nil` for `investigating`.
  ///   - severity: Severity, or `nil` for `minor`.
  ///   - serverIDs: Affected servers, or `nil` for every server.
  ///   - isPublic: Whether public, or `nil` for `false`.
  public init(
    title: String, status: IncidentStatus? = nil, severity: IncidentSeverity? = nil,
    serverIDs: [String]? = nil, isPublic: Bool? = nil
  ) {
    self.title = title
    self.status = status
    self.severity = severity
    self.serverIDs = serverIDs
    self.isPublic = isPublic
  }

  /// `{"title", "status"?, "severity"?, "server_ids_json"?, "is_public"?}`.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    try c.encode(title, forKey: AnyCodingKey("title"))
    if let status { try c.encode(status, forKey: AnyCodingKey("status")) }
    if let severity { try c.encode(severity, forKey: AnyCodingKey("severity")) }
    if let serverIDs { try c.encode(serverIDs, forKey: AnyCodingKey("server_ids_json")) }
    if let isPublic { try c.encode(isPublic, forKey: AnyCodingKey("is_public")) }
  }
}

/// `POST /api/incidents/{id}/updates` body (Protocol/Incidents.md §2.3): both keys required.
/// The update also sets the incident's status; `resolved` stamps `resolved_at` again each time.
///
/// ```swift
/// let body = IncidentUpdateRequest(status: .monitoring, message: "A fix is deployed.")
/// ```
public struct IncidentUpdateRequest: Codable, Hashable, Sendable {
  /// The incident's new status.
  public var status: IncidentStatus
  /// The text to post.
  public var message: String

  /// Creates the body.
  /// - Parameters:
  ///   - status: New status.
  ///   - message: Text.
  public init(status: IncidentStatus, message: String) {
    self.status = status
    self.message = message
  }
}
