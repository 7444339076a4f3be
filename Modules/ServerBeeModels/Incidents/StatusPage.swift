/// The status page's settings (Protocol/Incidents.md §4): one row per server, read by any
/// member and changed by an admin. ``serverIDsJSON`` is JSON **text** on the wire; ``serverIDs``
/// reads it.
///
/// ```swift
/// let page = try await api.statusPage()
/// print(page.title, page.enabled ? "on" : "off", page.serverIDs ?? [])
/// ```
public struct StatusPageConfig: Codable, Hashable, Sendable, Identifiable {
  /// The row's id.
  public var id: String
  /// The page's title.
  public var title: String
  /// Free text, or `nil` when none was ever set.
  public var description: String?
  /// The listed servers as JSON text (`["id",…]`).
  public var serverIDsJSON: String
  /// Whether servers are grouped by their server group (not changeable through the API).
  public var groupByServerGroup: Bool
  /// Whether the public page is served.
  public var enabled: Bool
  /// Uptime (percent) below which a server shows yellow; stored as given.
  public var uptimeYellowThreshold: Double
  /// Uptime (percent) below which a server shows red; stored as given.
  public var uptimeRedThreshold: Double
  /// Whether IP quality is shown.
  public var showIPQuality: Bool
  /// `"list"` or `"grid"` in the web app; stored as given.
  public var defaultLayout: String
  /// Whether server details are shown.
  public var showServerDetail: Bool
  /// Whether network probes are shown.
  public var showNetwork: Bool
  /// Whether public incidents are shown.
  public var showIncidents: Bool
  /// Whether public maintenance windows are shown.
  public var showMaintenance: Bool
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// Last change (`Z` form).
  public var updatedAt: RFC3339Timestamp

  /// Creates a value.
  /// - Parameters:
  ///   - id: Row id.
  ///   - title: Title.
  ///   - description: Free text, or `nil`.
  ///   - serverIDsJSON: Listed servers as JSON text.
  ///   - groupByServerGroup: Grouping.
  ///   - enabled: Whether served.
  ///   - uptimeYellowThreshold: Yellow threshold.
  ///   - uptimeRedThreshold: Red threshold.
  ///   - showIPQuality: IP quality shown.
  ///   - defaultLayout: Layout.
  ///   - showServerDetail: Details shown.
  ///   - showNetwork: Network shown.
  ///   - showIncidents: Incidents shown.
  ///   - showMaintenance: Maintenance shown.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  public init(
    id: String, title: String, description: String?, serverIDsJSON: String,
    groupByServerGroup: Bool, enabled: Bool, uptimeYellowThreshold: Double,
    uptimeRedThreshold: Double, showIPQuality: Bool, defaultLayout: String,
    showServerDetail: Bool, showNetwork: Bool, showIncidents: Bool, showMaintenance: Bool,
    createdAt: RFC3339Timestamp, updatedAt: RFC3339Timestamp
  ) {
    self.id = id
    self.title = title
    self.description = description
    self.serverIDsJSON = serverIDsJSON
    self.groupByServerGroup = groupByServerGroup
    self.enabled = enabled
    self.uptimeYellowThreshold = uptimeYellowThreshold
    self.uptimeRedThreshold = uptimeRedThreshold
    self.showIPQuality = showIPQuality
    self.defaultLayout = defaultLayout
    self.showServerDetail = showServerDetail
    self.showNetwork = showNetwork
    self.showIncidents = showIncidents
    self.showMaintenance = showMaintenance
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// The listed server ids read from ``serverIDsJSON``, or `nil` when it is not a JSON array of
  /// strings.
  public var serverIDs: [String]? { ServerIDList.decode(serverIDsJSON) }

  private enum CodingKeys: String, CodingKey {
    case id, title, description
    case serverIDsJSON = "server_ids_json"
    case groupByServerGroup = "group_by_server_group"
    case enabled
    case uptimeYellowThreshold = "uptime_yellow_threshold"
    case uptimeRedThreshold = "uptime_red_threshold"
    case showIPQuality = "show_ip_quality"
    case defaultLayout = "default_layout"
    case showServerDetail = "show_server_detail"
    case showNetwork = "show_network"
    case showIncidents = "show_incidents"
    case showMaintenance = "show_maintenance"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }
}

/// `PUT /api/status-page` body (Protocol/Incidents.md §4.2): only the members that are set are
/// sent; the server checks no value (thresholds and layout are stored as given).
///
/// **`nil` never clears** (Protocol/Incidents.md §1.3): a JSON `null` description means
/// "unchanged" on the server, so this type leaves `nil` out. Send `description: ""` to blank it.
/// `serverIDs` goes out as the **array** `server_ids` and replaces the list.
///
/// ```swift
/// var changes = StatusPageUpdate()
/// changes.title = "Acme status"
/// changes.description = ""            // blank; nil would keep the old text
/// changes.serverIDs = [web.id, db.id]
/// let page = try await api.updateStatusPage(changes)
/// ```
public struct StatusPageUpdate: Encodable, Hashable, Sendable {
  /// New title, or `nil` to keep it.
  public var title: String?
  /// New description (`""` blanks it), or `nil` to keep it.
  public var description: String?
  /// New list of servers (replaces the old one), or `nil` to keep it.
  public var serverIDs: [String]?
  /// Whether the page is served, or `nil` to keep it.
  public var enabled: Bool?
  /// New yellow threshold, or `nil` to keep it.
  public var uptimeYellowThreshold: Double?
  /// New red threshold, or `nil` to keep it.
  public var uptimeRedThreshold: Double?
  /// Whether IP quality is shown, or `nil` to keep it.
  public var showIPQuality: Bool?
  /// New layout (`"list"` or `"grid"`), or `nil` to keep it.
  public var defaultLayout: String?
  /// Whether server details are shown, or `nil` to keep it.
  public var showServerDetail: Bool?
  /// Whether network probes are shown, or `nil` to keep it.
  public var showNetwork: Bool?
  /// Whether incidents are shown, or `nil` to keep it.
  public var showIncidents: Bool?
  /// Whether maintenance windows are shown, or `nil` to keep it.
  public var showMaintenance: Bool?

  /// Creates an empty change; set the members to send.
  public init() {}

  /// Whether no member is set (the body would be `{}`).
  public var isEmpty: Bool { self == Self() }

  /// Only the members that are set, in the server's field order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    if let title { try c.encode(title, forKey: AnyCodingKey("title")) }
    if let description { try c.encode(description, forKey: AnyCodingKey("description")) }
    if let serverIDs { try c.encode(serverIDs, forKey: AnyCodingKey("server_ids")) }
    if let enabled { try c.encode(enabled, forKey: AnyCodingKey("enabled")) }
    if let uptimeYellowThreshold {
      try c.encode(uptimeYellowThreshold, forKey: AnyCodingKey("uptime_yellow_threshold"))
    }
    if let uptimeRedThreshold {
      try c.encode(uptimeRedThreshold, forKey: AnyCodingKey("uptime_red_threshold"))
    }
    if let showIPQuality { try c.encode(showIPQuality, forKey: AnyCodingKey("show_ip_quality")) }
    if let defaultLayout { try c.encode(defaultLayout, forKey: AnyCodingKey("default_layout")) }
    if let showServerDetail {
      try c.encode(showServerDetail, forKey: AnyCodingKey("show_server_detail"))
    }
    if let showNetwork { try c.encode(showNetwork, forKey: AnyCodingKey("show_network")) }
    if let showIncidents { try c.encode(showIncidents, forKey: AnyCodingKey("show_incidents")) }
    if let showMaintenance {
      try c.encode(showMaintenance, forKey: AnyCodingKey("show_maintenance"))
    }
  }
}
