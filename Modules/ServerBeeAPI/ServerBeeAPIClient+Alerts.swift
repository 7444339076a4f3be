public import ServerBeeModels
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/alert-events?limit=N`: the latest cycle of each alert state, firing first, then
  /// by last change (wire contract v1 §6.2, wire contract v2 §9.1). Any authenticated user.
  ///
  /// ```swift
  /// let events = try await api.alertEvents(limit: 50)
  /// for event in events where event.status == .firing {
  ///   let detail = try await api.alertEvent(key: event.detailKey)
  /// }
  /// ```
  /// - Parameter limit: The most rows to return; `nil` leaves it to the server (20). The server
  ///   has no upper cap.
  /// - Returns: The events.
  /// - Throws: ``ServerBeeAPIError`` (`.invalidArgument` for a negative limit), or
  ///   `CancellationError`.
  public func alertEvents(limit: Int? = nil) async throws -> [AlertEvent] {
    if let limit, limit < 0 {
      throw ServerBeeAPIError(.invalidArgument, "the alert event limit must not be negative")
    }
    return try await send(
      Endpoint(.get, "alert-events", query: [("limit", limit.map(String.init))]))
  }

  /// `GET /api/alert-events/{alert_key}`: one alert's current cycle (wire contract v1 §6.3, wire contract v2 §9.1).
  ///
  /// The key is either an opaque `v1.` key (from a v2 list row or a push) or the legacy
  /// `rule_id:server_id`; both go into the path unchanged. Use `AlertEvent.detailKey`.
  ///
  /// ```swift
  /// let detail = try await api.alertEvent(key: event.detailKey)
  /// print(detail.message) // "Alert firing — triggered 4 time(s)"
  /// ```
  /// - Parameter key: The alert key.
  /// - Returns: The detail; its `alertKey` echoes the request.
  /// - Throws: ``ServerBeeAPIError``: `.notFound` when the state is gone, the alert re-armed into
  ///   a new cycle (`v1.` keys never open a later cycle) or the legacy key names a security
  ///   rule; `.serverTooOld` for a `v1.` key sent to a v1 server; `.badRequest` for a legacy
  ///   key without `:`. Or `CancellationError`.
  public func alertEvent(key: String) async throws -> AlertEventDetail {
    try Self.requireNonEmpty(key, "the alert key")
    return try await send(
      Endpoint(
        .get, "alert-events", key, v2Requirement: key.hasPrefix("v1.") ? .v1AlertKey : .none))
  }

  /// `GET /api/alert-events/{alert_key}` for a parsed key (either form).
  ///
  /// ```swift
  /// let key = try AlertKey(parsingV1: content.alertKey)
  /// let detail = try await api.alertEvent(key)
  /// ```
  /// - Parameter key: The alert key.
  /// - Returns: The detail.
  /// - Throws: As ``alertEvent(key:)``.
  public func alertEvent(_ key: AlertKey) async throws -> AlertEventDetail {
    try await alertEvent(key: key.text)
  }

  /// `GET /api/alert-rules`: every alert rule (wire contract v1 §6.5). **Admin only**: a member gets
  /// `.forbidden`.
  ///
  /// ```swift
  /// let rules = try await api.alertRules()
  /// let disabled = rules.filter { !$0.enabled }
  /// ```
  /// - Returns: The rules.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func alertRules() async throws -> [AlertRule] {
    try await send(Endpoint(.get, "alert-rules"))
  }

  /// `GET /api/alert-rules/{id}`: one alert rule (wire contract v1 §6.5). **Admin only**.
  ///
  /// ```swift
  /// let rule = try await api.alertRule(id: event.ruleID)
  /// ```
  /// - Parameter id: The rule id.
  /// - Returns: The rule.
  /// - Throws: ``ServerBeeAPIError`` (`.forbidden` for a member, `.notFound`), or
  ///   `CancellationError`.
  public func alertRule(id: String) async throws -> AlertRule {
    try Self.requireNonEmpty(id, "the alert rule id")
    return try await send(Endpoint(.get, "alert-rules", id))
  }

  /// `GET /api/alert-rules/{id}/states`: the rule's current cycle on each server (wire contract v1 §6.5).
  /// **Admin only**.
  ///
  /// ```swift
  /// let states = try await api.alertRuleStates(ruleID: rule.id)
  /// let firingOn = states.filter { !$0.resolved }.map(\.serverName)
  /// ```
  /// - Parameter ruleID: The rule id.
  /// - Returns: The states.
  /// - Throws: ``ServerBeeAPIError`` (`.forbidden` for a member), or `CancellationError`.
  public func alertRuleStates(ruleID: String) async throws -> [AlertRuleState] {
    try Self.requireNonEmpty(ruleID, "the alert rule id")
    return try await send(Endpoint(.get, "alert-rules", ruleID, "states"))
  }
}
