public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/security/events`, page by page: newest first (`created_at`, then `id`),
  /// following `next_cursor` (Protocol/Security.md §1). Any authenticated user.
  ///
  /// ```swift
  /// for try await page in api.securityEvents(SecurityEventQuery(severity: .high)) {
  ///   for event in page.items { print(event.eventType, event.sourceIP) }
  /// }
  /// ```
  /// - Parameter query: Filters and page size; every event by default.
  /// - Returns: A sequence that fetches one page per iteration step.
  public func securityEvents(_ query: SecurityEventQuery = SecurityEventQuery())
    -> SecurityEventPages
  {
    SecurityEventPages(client: self, query: query)
  }

  /// `GET /api/security/events?cursor=…`: one page of security events (Protocol/Security.md §1).
  ///
  /// ```swift
  /// let first = try await api.securityEventPage(query)
  /// if let cursor = first.nextCursor {
  ///   let second = try await api.securityEventPage(query, cursor: cursor)
  /// }
  /// ```
  /// - Parameters:
  ///   - query: Filters and page size.
  ///   - cursor: A previous page's `next_cursor`, unchanged; `nil` for the first page.
  /// - Returns: The page.
  /// - Throws: ``ServerBeeAPIError`` (`.badRequest` for a cursor the server cannot read), or
  ///   `CancellationError`.
  public func securityEventPage(
    _ query: SecurityEventQuery = SecurityEventQuery(), cursor: String? = nil
  ) async throws -> SecurityEventPage {
    try await send(RouteCatalogue.Security.securityEvents, query: query.items(cursor: cursor))
  }

  /// `GET /api/security/events/{id}`: one security event (Protocol/Security.md §3).
  ///
  /// ```swift
  /// let event = try await api.securityEvent(id: content.eventID)
  /// guard event.serverID == content.serverID else { return showUnavailable() }
  /// ```
  /// - Parameter id: The event id.
  /// - Returns: The event.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound` for an unknown id), or `CancellationError`.
  public func securityEvent(id: String) async throws -> SecurityEvent {
    try Self.requireNonEmpty(id, "the security event id")
    return try await send(RouteCatalogue.Security.securityEvent, PathID(id))
  }

  /// `GET /api/security/stats?group_by=…`: event counts per group, largest first
  /// (Protocol/Security.md §3).
  ///
  /// ```swift
  /// let topSources = try await api.securityStats(groupedBy: .sourceIP, limit: 10)
  /// let perDay = try await api.securityStats(groupedBy: .day, serverID: id)
  /// ```
  /// - Parameters:
  ///   - grouping: What to count by: event type, source IP or UTC day.
  ///   - serverID: Only events of this server.
  ///   - since: Only events stored at or after this time.
  ///   - until: Only events stored at or before this time.
  ///   - limit: The most groups; `nil` leaves it to the server (50, at most 500).
  /// - Returns: The groups.
  /// - Throws: ``ServerBeeAPIError`` (`.badRequest` for a grouping the server does not know),
  ///   or `CancellationError`.
  public func securityStats(
    groupedBy grouping: SecurityStatsGrouping, serverID: String? = nil,
    since: RFC3339Timestamp? = nil, until: RFC3339Timestamp? = nil, limit: Int? = nil
  ) async throws -> [SecurityStatsEntry] {
    try await send(
      RouteCatalogue.Security.securityStats,
      query: [
        ("server_id", serverID), ("since", since?.formatted(.zulu)),
        ("until", until?.formatted(.zulu)), ("group_by", grouping.rawValue),
        ("limit", limit.map(String.init)),
      ])
  }

  /// `DELETE /api/security/events/{id}`: deletes a security event (Protocol/Security.md §3).
  /// **Admin only**.
  ///
  /// ```swift
  /// try await api.deleteSecurityEvent(id: event.id)
  /// ```
  /// - Parameter id: The event id.
  /// - Throws: ``ServerBeeAPIError`` (`.forbidden` for a member, `.notFound` for an unknown
  ///   id), or `CancellationError`.
  public func deleteSecurityEvent(id: String) async throws {
    try Self.requireNonEmpty(id, "the security event id")
    _ = try await send(RouteCatalogue.Security.deleteSecurityEvent, PathID(id))
  }
}
