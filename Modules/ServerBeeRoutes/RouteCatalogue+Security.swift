public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Security events and their statistics (`Documentation/Protocol/Security.md`).
  public enum Security {
    /// `GET /api/security/events`.
    public static let securityEvents = APIRoute<NoPath, NoBody, SecurityEventPage>(
      "securityEvents", .get, "/api/security/events", .member,
      query: [
        "server_id", "event_type", "source_ip", "severity", "since", "until", "cursor", "limit",
      ],
      summary: "one page of security events")
    /// `GET /api/security/events/{id}`.
    public static let securityEvent = APIRoute<PathID, NoBody, SecurityEvent>(
      "securityEvent", .get, "/api/security/events/{id}", .member,
      summary: "one security event")
    /// `GET /api/security/stats`.
    public static let securityStats = APIRoute<NoPath, NoBody, [SecurityStatsEntry]>(
      "securityStats", .get, "/api/security/stats", .member,
      query: ["server_id", "since", "until", "group_by", "limit"],
      summary: "security event counts by a dimension")
    /// `DELETE /api/security/events/{id}`.
    public static let deleteSecurityEvent = APIRoute<PathID, NoBody, Bool>(
      "deleteSecurityEvent", .delete, "/api/security/events/{id}", .admin,
      summary: "delete a security event")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      securityEvents.erased, securityEvent.erased, securityStats.erased,
      deleteSecurityEvent.erased,
    ]
  }
}
