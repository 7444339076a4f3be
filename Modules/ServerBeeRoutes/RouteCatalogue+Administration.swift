public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Administration: users, the audit log, rate limits, the GeoIP and ASN databases
  /// (`Documentation/Protocol/Administration.md`).
  public enum Administration {
    /// `GET /api/users`.
    public static let users = APIRoute<NoPath, NoBody, [AdminUser]>(
      "users", .get, "/api/users", .admin, summary: "every user")
    /// `POST /api/users`.
    public static let createUser = APIRoute<NoPath, UserCreateRequest, AdminUser>(
      "createUser", .post, "/api/users", .admin, summary: "create a user")
    /// `PUT /api/users/{id}`.
    public static let updateUser = APIRoute<PathID, UserUpdateRequest, AdminUser>(
      "updateUser", .put, "/api/users/{id}", .admin,
      summary: "change a user's role or reset their password")
    /// `DELETE /api/users/{id}`.
    public static let deleteUser = APIRoute<PathID, NoBody, String>(
      "deleteUser", .delete, "/api/users/{id}", .admin, summary: "delete a user")
    /// `GET /api/audit-logs`.
    public static let auditLog = APIRoute<NoPath, NoBody, AuditLogPage>(
      "auditLog", .get, "/api/audit-logs", .admin,
      query: ["limit", "offset", "action", "user_id"], summary: "one page of the audit log")
    /// `GET /api/audit-logs/options`.
    public static let auditLogOptions = APIRoute<NoPath, NoBody, AuditLogOptions>(
      "auditLogOptions", .get, "/api/audit-logs/options", .admin,
      summary: "the audit log's filter values")
    /// `GET /api/admin/rate-limit`.
    public static let rateLimits = APIRoute<NoPath, NoBody, RateLimitStatus>(
      "rateLimits", .get, "/api/admin/rate-limit", .admin, summary: "the rate limiters' state")
    /// `POST /api/admin/rate-limit/reset`.
    public static let resetRateLimits =
      APIRoute<NoPath, RateLimitResetRequest, RateLimitResetResult>(
        "resetRateLimits", .post, "/api/admin/rate-limit/reset", .admin,
        summary: "clear rate-limit counters")
    /// `GET /api/geoip/status`.
    public static let geoIPStatus = APIRoute<NoPath, NoBody, GeoDatabaseStatus>(
      "geoIPStatus", .get, "/api/geoip/status", .member, summary: "the GeoIP database")
    /// `GET /api/asn/status`.
    public static let asnStatus = APIRoute<NoPath, NoBody, GeoDatabaseStatus>(
      "asnStatus", .get, "/api/asn/status", .member, summary: "the ASN database")
    /// `POST /api/geoip/download`.
    public static let downloadGeoIP = APIRoute<NoPath, NoBody, GeoDatabaseDownloadResult>(
      "downloadGeoIP", .post, "/api/geoip/download", .admin,
      summary: "download the GeoIP database")
    /// `POST /api/asn/download`.
    public static let downloadASN = APIRoute<NoPath, NoBody, GeoDatabaseDownloadResult>(
      "downloadASN", .post, "/api/asn/download", .admin, summary: "download the ASN database")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      users.erased, createUser.erased, updateUser.erased, deleteUser.erased, auditLog.erased,
      auditLogOptions.erased, rateLimits.erased, resetRateLimits.erased, geoIPStatus.erased,
      asnStatus.erased, downloadGeoIP.erased, downloadASN.erased,
    ]
  }
}
