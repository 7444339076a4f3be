import ServerBeeTransport

/// The account and administration area (issue 26; app routes §3.1, §3.2): two-factor sign-in,
/// API keys, users,
/// the audit log, rate limits and the GeoIP and ASN databases, with the control API's users
/// and API keys.
///
/// Its tables are `api_keys` and `audit_logs` (migration 8) and `users.updated_at`
/// (migration 9); `users` itself is in ``Schema/baseMigrations``, shared with every area
/// through ``SimulatorCore``'s account helpers.
struct AccountArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route("GET", "api/auth/2fa/status", .protected, Self.twoFactorStatus),
    route("POST", "api/auth/2fa/setup", .protected, Self.setUpTwoFactor),
    route("POST", "api/auth/2fa/enable", .protected, Self.enableTwoFactor),
    route("POST", "api/auth/2fa/disable", .protected, Self.disableTwoFactor),
    route("GET", "api/auth/api-keys", .protected, Self.listAPIKeys),
    route("POST", "api/auth/api-keys", .admin, Self.createAPIKey),
    route("DELETE", "api/auth/api-keys/*", .protected, Self.deleteAPIKey),
    route("GET", "api/users", .admin, Self.listUsers),
    route("POST", "api/users", .admin, Self.createUserRoute),
    route("PUT", "api/users/*", .admin, Self.updateUserRoute),
    route("DELETE", "api/users/*", .admin, Self.deleteUserRoute),
    route("GET", "api/audit-logs", .admin, Self.auditLogs),
    route("GET", "api/audit-logs/options", .admin, Self.auditLogOptions),
    route("GET", "api/admin/rate-limit", .admin, Self.rateLimits),
    route("POST", "api/admin/rate-limit/reset", .admin, Self.resetRateLimits),
    route("GET", "api/geoip/status", .protected) { area, _, _ in
      try area.geoDatabaseStatus(.geoip)
    },
    route("GET", "api/asn/status", .protected) { area, _, _ in try area.geoDatabaseStatus(.asn) },
    route("POST", "api/geoip/download", .admin) { area, context, caller in
      try area.downloadGeoDatabase(.geoip, context, caller)
    },
    route("POST", "api/asn/download", .admin) { area, context, caller in
      try area.downloadGeoDatabase(.asn, context, caller)
    },
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/users", Self.controlCreateUser),
    control("PATCH", "__simulator/users/*", Self.controlUpdateUser),
    control("DELETE", "__simulator/users/*", Self.controlDeleteUser),
    control("POST", "__simulator/users/*/api-key", Self.controlAPIKey),
  ]

  static let migrations: [Migration] = [
    Migration(
      version: 8,
      [
        // Named API keys (app routes §3.1 #14–#16). The key authenticates through its
        // `access_sessions` row (source `api_key`, same hash); this row gives it a name, an id
        // and a prefix, and deleting it deletes that row too.
        """
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL,
          key_prefix TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL)
        """,
        "CREATE INDEX api_keys_user ON api_keys(user_id)",
        // The audit log (app routes §3.2 #115), newest first by id.
        """
        CREATE TABLE audit_logs (
          id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, action TEXT NOT NULL,
          detail TEXT, ip TEXT NOT NULL, created_at INTEGER NOT NULL)
        """,
      ]),
    Migration(
      version: 9,
      [
        // `UserResponse.updated_at` (app routes §3.2 #111); NULL reads as `created_at`.
        "ALTER TABLE users ADD COLUMN updated_at INTEGER"
      ]),
  ]
}
