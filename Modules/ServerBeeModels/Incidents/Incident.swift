#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An incident (Protocol/Incidents.md §2): a problem announced to the status page and its
/// readers, with a status that moves from `investigating` to `resolved`. Admin only, its list
/// included.
///
/// ``serverIDsJSON`` is JSON **text** on the wire (an array of server ids), not an array;
/// ``serverIDs`` reads it. `nil` means every server.
///
/// ```swift
/// let open = try await api.incidents().filter { $0.status != .resolved }
/// for incident in open { print(incident.title, incident.severity, incident.serverIDs ?? []) }
/// ```
public struct Incident: Codable, Hashable, Sendable, Identifiable {
  /// Incident id (UUID).
  public var id: String
  /// The headline.
  public var title: String
  /// Where the incident stands.
  public var status: IncidentStatus
  /// How bad it is.
  public var severity: IncidentSeverity
  /// The affected servers as JSON text (`["id",…]`), or `nil` for every server.
  public var serverIDsJSON: String?
  /// Whether the public status page shows it.
  public var isPublic: Bool
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// Last change (`Z` form).
  public var updatedAt: RFC3339Timestamp
  /// When it was last resolved (`Z` form), or `nil` when it never was.
  public var resolvedAt: RFC3339Timestamp?

  /// Creates an incident value.
  /// - Parameters:
  ///   - id: Incident id.
  ///   - title: Headline.
  ///   - status: Status.
  ///   - severity: Severity.
  ///   - serverIDsJSON: The affected servers as JSON text, or `nil` for every server.
  ///   - isPublic: Whether the status page shows it.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  ///   - resolvedAt: Resolution time.
  public init(
    id: String, title: String, status: IncidentStatus, severity: IncidentSeverity,
    serverIDsJSON: String?, isPublic: Bool, createdAt: RFC3339Timestamp,
    updatedAt: RFC3339Timestamp, resolvedAt: RFC3339Timestamp?
  ) {
    self.id = id
    self.title = title
    self.status = status
    self.severity = severity
    self.serverIDsJSON = serverIDsJSON
    self.isPublic = isPublic
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.resolvedAt = resolvedAt
  }

  /// The affected server ids read from ``serverIDsJSON``: `nil` for every server (no list),
  /// and `nil` too when the text is not a JSON array of strings.
  public var serverIDs: [String]? { ServerIDList.decode(serverIDsJSON) }

  private enum CodingKeys: String, CodingKey {
    case id, title, status, severity
    case serverIDsJSON = "server_ids_json"
    case isPublic = "is_public"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case resolvedAt = "resolved_at"
  }
}

/// An incident's status; unknown values survive decoding (Protocol/Incidents.md §2).
public struct IncidentStatus: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a status from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The cause is being looked for (the default at creation).
  public static let investigating: Self = "investigating"
  /// The cause is known.
  public static let identified: Self = "identified"
  /// A fix is in place and being watched.
  public static let monitoring: Self = "monitoring"
  /// Over; setting it stamps `resolved_at`.
  public static let resolved: Self = "resolved"

  /// The four statuses a server accepts, in their usual order.
  public static let all: [Self] = [.investigating, .identified, .monitoring, .resolved]
}

/// An incident's severity; unknown values survive decoding (Protocol/Incidents.md §2).
public struct IncidentSeverity: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a severity from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Minor (the default at creation).
  public static let minor: Self = "minor"
  /// Major.
  public static let major: Self = "major"
  /// Critical.
  public static let critical: Self = "critical"

  /// The three severities a server accepts.
  public static let all: [Self] = [.minor, .major, .critical]
}

/// One update posted to an incident (Protocol/Incidents.md §2.3): it also set the incident's
/// status. There is no route that lists them.
///
/// ```swift
/// let update = try await api.postIncidentUpdate(
///   incidentID: incident.id, status: .resolved, message: "Fixed by a restart.")
/// print(update.status, update.createdAt)
/// ```
public struct IncidentUpdate: Codable, Hashable, Sendable, Identifiable {
  /// Update id (UUID).
  public var id: String
  /// The incident it belongs to.
  public var incidentID: String
  /// The status the incident was set to.
  public var status: IncidentStatus
  /// The text posted.
  public var message: String
  /// When it was posted (`Z` form).
  public var createdAt: RFC3339Timestamp

  /// Creates an update value.
  /// - Parameters:
  ///   - id: Update id.
  ///   - incidentID: The incident.
  ///   - status: The status set.
  ///   - message: The text.
  ///   - createdAt: When it was posted.
  public init(
    id: String, incidentID: String, status: IncidentStatus, message: String,
    createdAt: RFC3339Timestamp
  ) {
    self.id = id
    self.incidentID = incidentID
    self.status = status
    self.message = message
    self.createdAt = createdAt
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case incidentID = "incident_id"
    case status, message
    case createdAt = "created_at"
  }
}

/// Reads the `server_ids_json` text of incidents, maintenance windows and the status page.
enum ServerIDList {
  /// The ids in `text`, or `nil` for no text or text that is not a JSON array of strings.
  static func decode(_ text: String?) -> [String]? {
    guard let text else { return nil }
    return try? WireJSON.decode([String].self, from: Data(text.utf8))
  }
}
