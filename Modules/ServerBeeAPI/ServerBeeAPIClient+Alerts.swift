public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/alert-events?limit=N`: the latest cycle of each alert state, firing first, then
  /// by last change (Protocol/Alerts.md §2, §5). Any authenticated user.
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
      RouteCatalogue.Alerts.alertEvents, query: [("limit", limit.map(String.init))])
  }

  /// `GET /api/alert-events/{alert_key}`: one alert's current cycle (Protocol/Alerts.md §3, §5).
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
      RouteCatalogue.Alerts.alertEvent, PathID(key), body: NoBody(), query: [],
      sendsV1AlertKey: key.hasPrefix("v1."))
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

  /// `GET /api/alert-rules`: every alert rule (Protocol/Alerts.md §6.1). **Admin only**: a member
  /// gets `.forbidden`.
  ///
  /// ```swift
  /// let rules = try await api.alertRules()
  /// let disabled = rules.filter { !$0.enabled }
  /// ```
  /// - Returns: The rules.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func alertRules() async throws -> [AlertRule] {
    try await send(RouteCatalogue.Alerts.alertRules)
  }

  /// `GET /api/alert-rules/{id}`: one alert rule (Protocol/Alerts.md §6.1). **Admin only**.
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
    return try await send(RouteCatalogue.Alerts.alertRule, PathID(id))
  }

  /// `GET /api/alert-rules/{id}/states`: the rule's current cycle on each server
  /// (Protocol/Alerts.md §6.1). **Admin only**.
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
    return try await send(RouteCatalogue.Alerts.alertRuleStates, PathID(ruleID))
  }
}

// MARK: Alert configuration (Protocol/Alerts.md §6.2–§7, admin only)

extension ServerBeeAPIClient {
  /// `PUT /api/alert-rules/{id}` with `{"enabled": …}`: turns a rule on or off
  /// (Protocol/Alerts.md §6.2). Admin only.
  ///
  /// ```swift
  /// let rule = try await api.setAlertRule(id: rule.id, enabled: false)
  /// ```
  /// - Parameters:
  ///   - id: The rule id.
  ///   - enabled: Whether the rule is evaluated.
  /// - Returns: The rule after the change.
  /// - Throws: ``ServerBeeAPIError``: `.notFound`, `.forbidden`. Or `CancellationError`.
  public func setAlertRule(id: String, enabled: Bool) async throws -> AlertRule {
    try Self.requireNonEmpty(id, "the alert rule id")
    return try await send(
      RouteCatalogue.Alerts.setAlertRule, PathID(id), body: AlertRuleToggle(enabled: enabled))
  }

  /// `GET /api/notifications`: every notification channel (Protocol/Alerts.md §7.1). Admin only.
  ///
  /// Channels carry secrets in `NotificationChannel.configJSON`: do not show or log it.
  ///
  /// ```swift
  /// let channels = try await api.notificationChannels()
  /// ```
  /// - Returns: The channels, in the server's (unspecified) order.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func notificationChannels() async throws -> [NotificationChannel] {
    try await send(RouteCatalogue.Alerts.notificationChannels)
  }

  /// `PUT /api/notifications/{id}` with `{"enabled": …}` (Protocol/Alerts.md §7.2). Admin only.
  ///
  /// The server re-validates the stored configuration even for this toggle: a configuration
  /// that no longer parses fails with `.validation`.
  ///
  /// ```swift
  /// _ = try await api.setNotificationChannel(id: channel.id, enabled: true)
  /// ```
  /// - Parameters:
  ///   - id: The channel id.
  ///   - enabled: Whether alerts go through it.
  /// - Returns: The channel after the change.
  /// - Throws: ``ServerBeeAPIError``: `.notFound`, `.validation`. Or `CancellationError`.
  public func setNotificationChannel(id: String, enabled: Bool) async throws
    -> NotificationChannel
  {
    try Self.requireNonEmpty(id, "the channel id")
    return try await send(
      RouteCatalogue.Alerts.setNotificationChannel, PathID(id),
      body: NotificationChannelToggle(enabled: enabled))
  }

  /// `POST /api/notifications/{id}/test`: sends a synthetic alert through the channel, even a
  /// disabled one (Protocol/Alerts.md §7.3). Admin only.
  ///
  /// ```swift
  /// try await api.testNotificationChannel(id: channel.id)
  /// ```
  /// - Parameter id: The channel id.
  /// - Throws: ``ServerBeeAPIError``: `.server` with the delivery error (HTTP 502, for
  ///   example `Webhook request failed: …`), `.validation` (e-mail without a Resend key),
  ///   `.notFound`. Or `CancellationError`.
  public func testNotificationChannel(id: String) async throws {
    try Self.requireNonEmpty(id, "the channel id")
    _ = try await send(RouteCatalogue.Alerts.testNotificationChannel, PathID(id))
  }
}
