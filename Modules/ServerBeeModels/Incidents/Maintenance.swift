/// A maintenance window (Protocol/Incidents.md §3): while it is active and
/// `start_at ≤ now ≤ end_at`, the server sends no alerts for the servers it covers. Admin only,
/// its list included.
///
/// ``serverIDsJSON`` is JSON **text** on the wire; ``serverIDs`` reads it. `nil` or an empty
/// list means every server.
///
/// ```swift
/// let windows = try await api.maintenances()   // newest created first
/// let now = RFC3339Timestamp(Date())
/// let current = windows.filter { $0.active && $0.startAt <= now && now <= $0.endAt }
/// ```
public struct Maintenance: Codable, Hashable, Sendable, Identifiable {
  /// Window id (UUID).
  public var id: String
  /// The headline.
  public var title: String
  /// Free text, or `nil` when none was ever given.
  public var description: String?
  /// Start (`Z` form).
  public var startAt: RFC3339Timestamp
  /// End (`Z` form).
  public var endAt: RFC3339Timestamp
  /// The covered servers as JSON text (`["id",…]`), or `nil`; `nil` or `[]` covers every server.
  public var serverIDsJSON: String?
  /// Whether the public status page shows it.
  public var isPublic: Bool
  /// Whether it silences alerts during its times.
  public var active: Bool
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// Last change (`Z` form).
  public var updatedAt: RFC3339Timestamp

  /// Creates a window value.
  /// - Parameters:
  ///   - id: Window id.
  ///   - title: Headline.
  ///   - description: Free text, or `nil`.
  ///   - startAt: Start.
  ///   - endAt: End.
  ///   - serverIDsJSON: The covered servers as JSON text, or `nil`.
  ///   - isPublic: Whether the status page shows it.
  ///   - active: Whether it silences alerts.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  public init(
    id: String, title: String, description: String?, startAt: RFC3339Timestamp,
    endAt: RFC3339Timestamp, serverIDsJSON: String?, isPublic: Bool, active: Bool,
    createdAt: RFC3339Timestamp, updatedAt: RFC3339Timestamp
  ) {
    self.id = id
    self.title = title
    self.description = description
    self.startAt = startAt
    self.endAt = endAt
    self.serverIDsJSON = serverIDsJSON
    self.isPublic = isPublic
    self.active = active
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// The covered server ids read from ``serverIDsJSON``; `nil` when there is no list (every
  /// server) or the text is not a JSON array of strings. An empty array also means every server.
  public var serverIDs: [String]? { ServerIDList.decode(serverIDsJSON) }

  private enum CodingKeys: String, CodingKey {
    case id, title, description
    case startAt = "start_at"
    case endAt = "end_at"
    case serverIDsJSON = "server_ids_json"
    case isPublic = "is_public"
    case active
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }
}

/// `POST /api/maintenances` body (Protocol/Incidents.md §3.2). `end_at` must be after
/// `start_at`; members left `nil` are left out of the body and take the server's default.
///
/// ```swift
/// let body = MaintenanceCreateRequest(
///   title: "Kernel upgrade", startAt: try RFC3339Timestamp(parsing: "2026-12-06T02:00:00Z"),
///   endAt: try RFC3339Timestamp(parsing: "2026-12-06T03:00:00Z"), serverIDs: [server.id])
/// let window = try await api.createMaintenance(body)
/// ```
public struct MaintenanceCreateRequest: Encodable, Hashable, Sendable {
  /// The headline.
  public var title: String
  /// Free text, or `nil` for none.
  public var description: String?
  /// Start.
  public var startAt: RFC3339Timestamp
  /// End; after ``startAt``.
  public var endAt: RFC3339Timestamp
  /// The covered servers, sent as the **array** `server_ids_json`; `nil` or `[]` covers every
  /// server.
  public var serverIDs: [String]?
  /// Whether the status page shows it; `nil` for the server's default (`false`).
  public var isPublic: Bool?
  /// Whether it silences alerts; `nil` for the server's default (`true`).
  public var active: Bool?

  /// Creates the body.
  /// - Parameters:
  ///   - title: Headline.
  ///   - description: Free text, or `nil`.
  ///   - startAt: Start.
  ///   - endAt: End, after the start.
  ///   - serverIDs: Covered servers, or `nil` for every server.
  ///   - isPublic: Whether public, or `nil` for the default (`false`).
  ///   - active: Whether active, or `nil` for the default (`true`).
  public init(
    title: String, description: String? = nil, startAt: RFC3339Timestamp,
    endAt: RFC3339Timestamp, serverIDs: [String]? = nil, isPublic: Bool? = nil,
    active: Bool? = nil
  ) {
    self.title = title
    self.description = description
    self.startAt = startAt
    self.endAt = endAt
    self.serverIDs = serverIDs
    self.isPublic = isPublic
    self.active = active
  }

  /// `{"title", "description"?, "start_at", "end_at", "server_ids_json"?, "is_public"?,
  /// "active"?}`, times in the `Z` form.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    try c.encode(title, forKey: AnyCodingKey("title"))
    if let description { try c.encode(description, forKey: AnyCodingKey("description")) }
    try c.encode(startAt.formatted(.zulu), forKey: AnyCodingKey("start_at"))
    try c.encode(endAt.formatted(.zulu), forKey: AnyCodingKey("end_at"))
    if let serverIDs { try c.encode(serverIDs, forKey: AnyCodingKey("server_ids_json")) }
    if let isPublic { try c.encode(isPublic, forKey: AnyCodingKey("is_public")) }
    if let active { try c.encode(active, forKey: AnyCodingKey("active")) }
  }
}

/// `PUT /api/maintenances/{id}` body (Protocol/Incidents.md §3.3): only the members that are set
/// are sent; the others stay as they are. The times are not checked again.
///
/// **`nil` never clears** (Protocol/Incidents.md §1.3): the server reads a JSON `null` as
/// "unchanged", so this type leaves a `nil` member out. To blank the description send `""`
/// (`description: ""`); to cover every server again send an empty list (`serverIDs: []`).
///
/// ```swift
/// var changes = MaintenanceUpdateRequest()
/// changes.description = ""          // blanks it; nil would leave it as it is
/// changes.endAt = try RFC3339Timestamp(parsing: "2026-12-06T04:00:00Z")
/// let window = try await api.updateMaintenance(id: window.id, changes)
/// ```
public struct MaintenanceUpdateRequest: Encodable, Hashable, Sendable {
  /// A new headline, or `nil` to keep it.
  public var title: String?
  /// A new description (`""` blanks it), or `nil` to keep it.
  public var description: String?
  /// A new start, or `nil` to keep it.
  public var startAt: RFC3339Timestamp?
  /// A new end, or `nil` to keep it.
  public var endAt: RFC3339Timestamp?
  /// A new list of covered servers (`[]` covers every server), or `nil` to keep it.
  public var serverIDs: [String]?
  /// Whether public, or `nil` to keep it.
  public var isPublic: Bool?
  /// Whether active, or `nil` to keep it.
  public var active: Bool?

  /// Creates the body.
  /// - Parameters:
  ///   - title: New headline.
  ///   - description: New description; `""` blanks it.
  ///   - startAt: New start.
  ///   - endAt: New end.
  ///   - serverIDs: New covered servers; `[]` for every server.
  ///   - isPublic: Whether public.
  ///   - active: Whether active.
  public init(
    title: String? = nil, description: String? = nil, startAt: RFC3339Timestamp? = nil,
    endAt: RFC3339Timestamp? = nil, serverIDs: [String]? = nil, isPublic: Bool? = nil,
    active: Bool? = nil
  ) {
    self.title = title
    self.description = description
    self.startAt = startAt
    self.endAt = endAt
    self.serverIDs = serverIDs
    self.isPublic = isPublic
    self.active = active
  }

  /// Whether no member is set (the body would be `{}`).
  public var isEmpty: Bool { self == Self() }

  /// Only the members that are set, with the keys of the create body.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    if let title { try c.encode(title, forKey: AnyCodingKey("title")) }
    if let description { try c.encode(description, forKey: AnyCodingKey("description")) }
    if let startAt { try c.encode(startAt.formatted(.zulu), forKey: AnyCodingKey("start_at")) }
    if let endAt { try c.encode(endAt.formatted(.zulu), forKey: AnyCodingKey("end_at")) }
    if let serverIDs { try c.encode(serverIDs, forKey: AnyCodingKey("server_ids_json")) }
    if let isPublic { try c.encode(isPublic, forKey: AnyCodingKey("is_public")) }
    if let active { try c.encode(active, forKey: AnyCodingKey("active")) }
  }
}
