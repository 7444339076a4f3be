/// One row of `GET /api/alert-events` (Protocol/Alerts.md §2, §5): the latest cycle of one alert
/// state.
///
/// v2 servers send ``alertKey`` (an opaque `v1.` key naming the exact dimension and cycle) as the
/// first member; v1 servers do not send it. Use ``detailKey`` for the detail route and ``id`` as
/// the list identity. Encoding writes `alert_key` only when it is set, so both server
/// generations are reproduced byte for byte.
///
/// ```swift
/// let events = try APIResponse<[AlertEvent]>.payload(status: status, body: body)
/// for event in events where event.status == .firing {
///   print(event.ruleName, event.serverName, event.count)
///   // detail: GET /api/alert-events/\(event.detailKey)
/// }
/// ```
public struct AlertEvent: Codable, Hashable, Sendable, Identifiable {
  /// The v2 `v1.` key; `nil` from v1 servers.
  public var alertKey: String?
  /// The rule id.
  public var ruleID: String
  /// The rule name (`"Unknown"` when the rule is gone).
  public var ruleName: String
  /// The server id.
  public var serverID: String
  /// The server name (`"Unknown"` when the server is gone).
  public var serverName: String
  /// Firing or resolved.
  public var status: AlertStatus
  /// First trigger when firing; resolution (or first trigger) when resolved. `+00:00` form.
  public var eventAt: RFC3339Timestamp
  /// When it resolved, if it did.
  public var resolvedAt: RFC3339Timestamp?
  /// Evaluation ticks in the current cycle.
  public var count: Int

  /// Creates a row.
  /// - Parameters:
  ///   - alertKey: The v2 key, `nil` to write a v1 row.
  ///   - ruleID: Rule id.
  ///   - ruleName: Rule name.
  ///   - serverID: Server id.
  ///   - serverName: Server name.
  ///   - status: Status.
  ///   - eventAt: Event time.
  ///   - resolvedAt: Resolution time.
  ///   - count: Tick count.
  public init(
    alertKey: String? = nil, ruleID: String, ruleName: String, serverID: String,
    serverName: String, status: AlertStatus, eventAt: RFC3339Timestamp,
    resolvedAt: RFC3339Timestamp? = nil, count: Int
  ) {
    self.alertKey = alertKey
    self.ruleID = ruleID
    self.ruleName = ruleName
    self.serverID = serverID
    self.serverName = serverName
    self.status = status
    self.eventAt = eventAt
    self.resolvedAt = resolvedAt
    self.count = count
  }

  /// The key for `GET /api/alert-events/{alert_key}`: ``alertKey`` when the server sent one,
  /// otherwise the legacy `"<rule_id>:<server_id>"`.
  public var detailKey: String { alertKey ?? "\(ruleID):\(serverID)" }

  /// The list identity `"<detailKey>#<status>#<event_at>"` (Protocol/Alerts.md §4): it tells a
  /// firing row from the resolved row of the same key.
  ///
  /// On v1 servers two security-rule rows can still share it (same rule, server and time, other
  /// source IP); ``listIdentities(_:)`` adds a tie-breaker.
  public var id: String { "\(detailKey)#\(status.rawValue)#\(eventAt.description)" }

  /// Identities for a whole list, unique even when rows clash: the second and later rows with an
  /// ``id`` already seen get `#2`, `#3`… appended, in list order.
  /// - Parameter events: The list as received.
  /// - Returns: One identity per row, in the same order.
  public static func listIdentities(_ events: [AlertEvent]) -> [String] {
    var seen: [String: Int] = [:]
    return events.map { event in
      let base = event.id
      let occurrence = (seen[base] ?? 0) + 1
      seen[base] = occurrence
      return occurrence == 1 ? base : "\(base)#\(occurrence)"
    }
  }

  private enum CodingKeys: String, CodingKey {
    case alertKey = "alert_key"
    case ruleID = "rule_id"
    case ruleName = "rule_name"
    case serverID = "server_id"
    case serverName = "server_name"
    case status
    case eventAt = "event_at"
    case resolvedAt = "resolved_at"
    case count
  }

  /// Encodes in wire order; `alert_key` is written (first) only when set.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeUnlessNil(alertKey, forKey: .alertKey)
    try c.encode(ruleID, forKey: .ruleID)
    try c.encode(ruleName, forKey: .ruleName)
    try c.encode(serverID, forKey: .serverID)
    try c.encode(serverName, forKey: .serverName)
    try c.encode(status, forKey: .status)
    try c.encode(eventAt, forKey: .eventAt)
    try c.encodeIfPresent(resolvedAt, forKey: .resolvedAt)
    try c.encode(count, forKey: .count)
  }
}

/// An alert's state (unknown values survive).
public struct AlertStatus: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a status.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The condition holds.
  public static let firing: Self = "firing"
  /// The condition cleared.
  public static let resolved: Self = "resolved"
}

/// An alert rule's notification mode (unknown values survive).
public struct AlertTriggerMode: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a mode.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Notify on every trigger, debounced to one per 5 minutes (the default).
  public static let always: Self = "always"
  /// Notify once per cycle.
  public static let once: Self = "once"
}

/// The response of `GET /api/alert-events/{alert_key}` (Protocol/Alerts.md §3).
///
/// ```swift
/// let detail = try APIResponse<AlertEventDetail>.payload(status: status, body: body)
/// print(detail.message) // "Alert firing — triggered 4 time(s)"
/// ```
public struct AlertEventDetail: Codable, Hashable, Sendable {
  /// The key, echoing the request.
  public var alertKey: String
  /// The rule id.
  public var ruleID: String
  /// The rule name.
  public var ruleName: String
  /// The server id.
  public var serverID: String
  /// The server name (`"Unknown"` when the server is gone).
  public var serverName: String
  /// Firing or resolved.
  public var status: AlertStatus
  /// `Alert firing — triggered N time(s)` (U+2014 dash) or `Alert resolved after N trigger(s)`.
  public var message: String
  /// Evaluation ticks in the current cycle (the list's `count`).
  public var triggerCount: Int
  /// Start of the current cycle.
  public var firstTriggeredAt: RFC3339Timestamp
  /// When it resolved, if it did.
  public var resolvedAt: RFC3339Timestamp?
  /// Whether the rule is enabled.
  public var ruleEnabled: Bool
  /// The rule's notification mode.
  public var ruleTriggerMode: AlertTriggerMode

  /// Creates a detail.
  /// - Parameters:
  ///   - alertKey: The key.
  ///   - ruleID: Rule id.
  ///   - ruleName: Rule name.
  ///   - serverID: Server id.
  ///   - serverName: Server name.
  ///   - status: Status.
  ///   - message: Message.
  ///   - triggerCount: Tick count.
  ///   - firstTriggeredAt: Cycle start.
  ///   - resolvedAt: Resolution time.
  ///   - ruleEnabled: Rule enabled.
  ///   - ruleTriggerMode: Notification mode.
  public init(
    alertKey: String, ruleID: String, ruleName: String, serverID: String, serverName: String,
    status: AlertStatus, message: String, triggerCount: Int, firstTriggeredAt: RFC3339Timestamp,
    resolvedAt: RFC3339Timestamp? = nil, ruleEnabled: Bool,
    ruleTriggerMode: AlertTriggerMode = .always
  ) {
    self.alertKey = alertKey
    self.ruleID = ruleID
    self.ruleName = ruleName
    self.serverID = serverID
    self.serverName = serverName
    self.status = status
    self.message = message
    self.triggerCount = triggerCount
    self.firstTriggeredAt = firstTriggeredAt
    self.resolvedAt = resolvedAt
    self.ruleEnabled = ruleEnabled
    self.ruleTriggerMode = ruleTriggerMode
  }

  /// The server's message text for a status and count (what a simulator should send).
  /// - Parameters:
  ///   - status: Firing or resolved.
  ///   - triggerCount: The tick count.
  /// - Returns: `Alert firing — triggered N time(s)` or `Alert resolved after N trigger(s)`.
  public static func message(status: AlertStatus, triggerCount: Int) -> String {
    status == .resolved
      ? "Alert resolved after \(triggerCount) trigger(s)"
      : "Alert firing \u{2014} triggered \(triggerCount) time(s)"
  }

  private enum CodingKeys: String, CodingKey {
    case alertKey = "alert_key"
    case ruleID = "rule_id"
    case ruleName = "rule_name"
    case serverID = "server_id"
    case serverName = "server_name"
    case status, message
    case triggerCount = "trigger_count"
    case firstTriggeredAt = "first_triggered_at"
    case resolvedAt = "resolved_at"
    case ruleEnabled = "rule_enabled"
    case ruleTriggerMode = "rule_trigger_mode"
  }
}
