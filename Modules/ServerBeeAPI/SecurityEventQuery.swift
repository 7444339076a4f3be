public import ServerBeeModels
import ServerBeeTransport

/// The filters and page size of `GET /api/security/events` (Protocol/Security.md §1); every member
/// is optional.
///
/// Filters are exact matches, except `since`/`until`, which bound the event's `created_at`
/// (sent in the `Z` form).
///
/// ```swift
/// let query = SecurityEventQuery(
///   serverID: server.id, eventType: .sshBruteForce, since: RFC3339Timestamp(lastWeek),
///   pageSize: 100)
/// for try await page in api.securityEvents(query) { show(page.items) }
/// ```
public struct SecurityEventQuery: Hashable, Sendable {
  /// Only events of this server.
  public var serverID: String?
  /// Only events of this type.
  public var eventType: SecurityEventType?
  /// Only events from this address.
  public var sourceIP: String?
  /// Only events of this severity.
  public var severity: SecuritySeverity?
  /// Only events stored at or after this time.
  public var since: RFC3339Timestamp?
  /// Only events stored at or before this time.
  public var until: RFC3339Timestamp?
  /// Events per page; `nil` leaves it to the server (50). The server clamps it to 1…200.
  public var pageSize: Int?

  /// Creates a query; with no arguments, every event.
  /// - Parameters:
  ///   - serverID: Server filter.
  ///   - eventType: Type filter.
  ///   - sourceIP: Source address filter.
  ///   - severity: Severity filter.
  ///   - since: Lower bound on `created_at`.
  ///   - until: Upper bound on `created_at`.
  ///   - pageSize: Events per page.
  public init(
    serverID: String? = nil, eventType: SecurityEventType? = nil, sourceIP: String? = nil,
    severity: SecuritySeverity? = nil, since: RFC3339Timestamp? = nil,
    until: RFC3339Timestamp? = nil, pageSize: Int? = nil
  ) {
    self.serverID = serverID
    self.eventType = eventType
    self.sourceIP = sourceIP
    self.severity = severity
    self.since = since
    self.until = until
    self.pageSize = pageSize
  }

  /// The query items in contract order, with the cursor of the page to fetch.
  func items(cursor: String?) -> [(String, String?)] {
    [
      ("server_id", serverID), ("event_type", eventType?.rawValue), ("source_ip", sourceIP),
      ("severity", severity?.rawValue), ("since", since?.formatted(.zulu)),
      ("until", until?.formatted(.zulu)), ("cursor", cursor), ("limit", pageSize.map(String.init)),
    ]
  }
}
