import ServerBeeRoutes
import ServerBeeTransport

/// The account and administration area (Protocol/Account.md, Protocol/Administration.md):
/// two-factor sign-in, API keys, users,
/// the audit log, rate limits and the GeoIP and ASN databases, with the control API's users
/// and API keys.
///
/// Its tables are `api_keys` and `audit_logs` (migration 8) and `users.updated_at`
/// (migration 9); `users` itself is in ``Schema/baseMigrations``, shared with every area
/// through ``SimulatorCore``'s account helpers.
struct AccountArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Account.twoFactorStatus, Self.twoFactorStatus),
    route(RouteCatalogue.Account.setUpTwoFactor, Self.setUpTwoFactor),
    route(RouteCatalogue.Account.enableTwoFactor, Self.enableTwoFactor),
    route(RouteCatalogue.Account.disableTwoFactor, Self.disableTwoFactor),
    route(RouteCatalogue.Account.apiKeys, Self.listAPIKeys),
    route(RouteCatalogue.Account.createAPIKey, Self.createAPIKey),
    route(RouteCatalogue.Account.deleteAPIKey, Self.deleteAPIKey),
    route(RouteCatalogue.Administration.users, Self.listUsers),
    route(RouteCatalogue.Administration.createUser, Self.createUserRoute),
    route(RouteCatalogue.Administration.updateUser, Self.updateUserRoute),
    route(RouteCatalogue.Administration.deleteUser, Self.deleteUserRoute),
    route(RouteCatalogue.Administration.auditLog, Self.auditLogs),
    route(RouteCatalogue.Administration.auditLogOptions, Self.auditLogOptions),
    route(RouteCatalogue.Administration.rateLimits, Self.rateLimits),
    route(RouteCatalogue.Administration.resetRateLimits, Self.resetRateLimits),
    route(RouteCatalogue.Administration.geoIPStatus) { area, _, _ in
      try area.geoDatabaseStatus(.geoip)
    },
    route(RouteCatalogue.Administration.asnStatus) { area, _, _ in try area.geoDatabaseStatus(.asn)
    },
    route(RouteCatalogue.Administration.downloadGeoIP) { area, context, caller in
      try area.downloadGeoDatabase(.geoip, context, caller)
    },
    route(RouteCatalogue.Administration.downloadASN) { area, context, caller in
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
        // Named API keys (Protocol/Account.md §3). The key authenticates through its
        // `access_sessions` row (source `api_key`, same hash); this row gives it a name, an id
        // and a prefix, and deleting it deletes that row too.
        """
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL,
          key_prefix TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL)
        """,
        "CREATE INDEX api_keys_user ON api_keys(user_id)",
        // The audit log (Protocol/Administration.md §2.1), newest first by id.
        """
        CREATE TABLE audit_logs (
          id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, action TEXT NOT NULL,
          detail TEXT, ip TEXT NOT NULL, created_at INTEGER NOT NULL)
        """,
      ]),
    Migration(
      version: 9,
      [
        // `UserResponse.updated_at` (Protocol/Administration.md §1.1); NULL reads as `created_at`.
        "ALTER TABLE users ADD COLUMN updated_at INTEGER"
      ]),
  ]
}
