#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An alert rule from `GET /api/alert-rules` or `GET /api/alert-rules/{id}` (Protocol/Alerts.md
/// §6.1). Admin only.
///
/// The contract pins only part of the rule object: its id, name and `enabled` flag, the
/// notification mode, RFC 3339 `Z` timestamps, and three members that hold JSON **encoded inside
/// strings** (`rules_json`, `server_ids_json`, `actions_json`). Those are kept as raw text (and
/// written back unchanged); ``ruleTypes`` and ``serverIDs`` read them. Every member but `id`,
/// `name` and `enabled` is optional, because servers differ in what they send; members this
/// type does not know are ignored. Encoding writes the members that are set, in declaration
/// order (where `notification_group_id` and `cover_type` stand among the others is not pinned
/// by the contract: after `trigger_mode` is our choice).
///
/// ```swift
/// let rules = try APIResponse<[AlertRule]>.payload(status: status, body: body)
/// for rule in rules where rule.enabled {
///   print(rule.name, rule.ruleTypes) // "High CPU" ["cpu"]
/// }
/// ```
public struct AlertRule: Codable, Hashable, Sendable, Identifiable {
  /// Rule id (UUID).
  public var id: String
  /// Display name.
  public var name: String
  /// Whether the rule is evaluated.
  public var enabled: Bool
  /// The rule items, as JSON text (an array of objects with a `rule_type` each).
  public var rulesJSON: String?
  /// The servers the rule covers, as JSON text (an array of ids; empty means every server).
  public var serverIDsJSON: String?
  /// The rule's actions (for example a firewall block), as JSON text.
  public var actionsJSON: String?
  /// The notification mode.
  public var triggerMode: AlertTriggerMode?
  /// The notification group the rule notifies; `nil` when none (or the server did not say).
  public var notificationGroupID: String?
  /// How ``serverIDsJSON`` applies: `all`, `include` or `exclude` (text as the server sends it).
  public var coverType: String?
  /// Creation time.
  public var createdAt: RFC3339Timestamp?
  /// Last change.
  public var updatedAt: RFC3339Timestamp?

  /// Creates a rule.
  /// - Parameters:
  ///   - id: Rule id.
  ///   - name: Name.
  ///   - enabled: Whether it is evaluated.
  ///   - rulesJSON: Rule items as JSON text.
  ///   - serverIDsJSON: Covered servers as JSON text.
  ///   - actionsJSON: Actions as JSON text.
  ///   - triggerMode: Notification mode.
  ///   - notificationGroupID: Notification group.
  ///   - coverType: How the server list applies.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  public init(
    id: String, name: String, enabled: Bool, rulesJSON: String? = nil,
    serverIDsJSON: String? = nil, actionsJSON: String? = nil,
    triggerMode: AlertTriggerMode? = nil, notificationGroupID: String? = nil,
    coverType: String? = nil, createdAt: RFC3339Timestamp? = nil,
    updatedAt: RFC3339Timestamp? = nil
  ) {
    self.id = id
    self.name = name
    self.enabled = enabled
    self.rulesJSON = rulesJSON
    self.serverIDsJSON = serverIDsJSON
    self.actionsJSON = actionsJSON
    self.triggerMode = triggerMode
    self.notificationGroupID = notificationGroupID
    self.coverType = coverType
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// The `rule_type` of each rule item in ``rulesJSON`` (for example `cpu` or
  /// `ssh_brute_force_detected`); empty when the text is absent or not an array of objects.
  public var ruleTypes: [String] {
    guard let text = rulesJSON,
      let items = try? WireJSON.decode([JSONValue].self, from: Data(text.utf8))
    else { return [] }
    return items.compactMap { $0["rule_type"]?.stringValue }
  }

  /// The server ids in ``serverIDsJSON``; `nil` when the text is absent or not an array of
  /// strings. An empty array means every server.
  public var serverIDs: [String]? {
    guard let text = serverIDsJSON else { return nil }
    return try? WireJSON.decode([String].self, from: Data(text.utf8))
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, enabled
    case rulesJSON = "rules_json"
    case serverIDsJSON = "server_ids_json"
    case actionsJSON = "actions_json"
    case triggerMode = "trigger_mode"
    case notificationGroupID = "notification_group_id"
    case coverType = "cover_type"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }

  /// Writes `id`, `name`, `enabled`, then each optional member only when it is set.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(enabled, forKey: .enabled)
    try container.encodeUnlessNil(rulesJSON, forKey: .rulesJSON)
    try container.encodeUnlessNil(serverIDsJSON, forKey: .serverIDsJSON)
    try container.encodeUnlessNil(actionsJSON, forKey: .actionsJSON)
    try container.encodeUnlessNil(triggerMode, forKey: .triggerMode)
    try container.encodeUnlessNil(notificationGroupID, forKey: .notificationGroupID)
    try container.encodeUnlessNil(coverType, forKey: .coverType)
    try container.encodeUnlessNil(createdAt, forKey: .createdAt)
    try container.encodeUnlessNil(updatedAt, forKey: .updatedAt)
  }
}

/// One row of `GET /api/alert-rules/{id}/states` (Protocol/Alerts.md §6.1): the latest cycle of the
/// rule on one server. Admin only. Times are RFC 3339 with `Z`.
///
/// ```swift
/// let states = try APIResponse<[AlertRuleState]>.payload(status: status, body: body)
/// let firing = states.filter { !$0.resolved }
/// ```
public struct AlertRuleState: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// The server's name (`"Unknown"` when the server is gone).
  public var serverName: String
  /// Start of the current cycle.
  public var firstTriggeredAt: RFC3339Timestamp
  /// The last notification of the cycle, if one was sent.
  public var lastNotifiedAt: RFC3339Timestamp?
  /// Trigger ticks in the current cycle.
  public var count: Int
  /// Whether the cycle is over.
  public var resolved: Bool
  /// When it resolved.
  public var resolvedAt: RFC3339Timestamp?

  /// Creates a state row.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - serverName: Server name.
  ///   - firstTriggeredAt: Cycle start.
  ///   - lastNotifiedAt: Last notification.
  ///   - count: Trigger ticks.
  ///   - resolved: Whether it resolved.
  ///   - resolvedAt: When it resolved.
  public init(
    serverID: String, serverName: String, firstTriggeredAt: RFC3339Timestamp,
    lastNotifiedAt: RFC3339Timestamp?, count: Int, resolved: Bool, resolvedAt: RFC3339Timestamp?
  ) {
    self.serverID = serverID
    self.serverName = serverName
    self.firstTriggeredAt = firstTriggeredAt
    self.lastNotifiedAt = lastNotifiedAt
    self.count = count
    self.resolved = resolved
    self.resolvedAt = resolvedAt
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case serverName = "server_name"
    case firstTriggeredAt = "first_triggered_at"
    case lastNotifiedAt = "last_notified_at"
    case count, resolved
    case resolvedAt = "resolved_at"
  }
}

/// `PUT /api/alert-rules/{id}` body as the app sends it (Protocol/Alerts.md §6.2): only `enabled`.
/// The server accepts more optional members; this type writes just the toggle.
public struct AlertRuleToggle: Codable, Hashable, Sendable {
  /// Whether the rule is evaluated.
  public var enabled: Bool

  /// Creates the body.
  /// - Parameter enabled: Whether the rule is evaluated.
  public init(enabled: Bool) { self.enabled = enabled }
}
