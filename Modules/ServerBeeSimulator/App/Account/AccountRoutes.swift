import ServerBeeTransport

// The account and administration area (issue 26; app routes §3.1, §3.2, §3.11): its routes,
// registered with the others in `SimulatorCore.apiRoutes`. An area is a folder: its handlers
// (one file per subject), this table, and its tables' migration in `Store/Schema.swift`.

extension SimulatorCore {
  static let accountRoutes: [Route] = [
    Route("GET", "api/auth/api-keys", .protected) { try $0.listAPIKeys($1, $2) },
    Route("POST", "api/auth/api-keys", .admin) { try $0.createAPIKey($1, $2) },
    Route("DELETE", "api/auth/api-keys/*", .protected) { try $0.deleteAPIKey($1, $2) },
    Route("GET", "api/alert-rules/*", .admin) { try $0.alertRuleDetail($1, $2) },
    Route("PUT", "api/alert-rules/*", .admin) { try $0.updateAlertRule($1, $2) },
    Route("GET", "api/users", .admin) { try $0.listUsers($1, $2) },
    Route("POST", "api/users", .admin) { try $0.createUserRoute($1, $2) },
    Route("PUT", "api/users/*", .admin) { try $0.updateUserRoute($1, $2) },
    Route("DELETE", "api/users/*", .admin) { try $0.deleteUserRoute($1, $2) },
    Route("GET", "api/audit-logs", .admin) { try $0.auditLogs($1, $2) },
    Route("GET", "api/admin/rate-limit", .admin) { try $0.rateLimits($1, $2) },
    Route("POST", "api/admin/rate-limit/reset", .admin) { try $0.resetRateLimits($1, $2) },
    Route("GET", "api/geoip/status", .protected) { core, _, _ in
      try core.geoDatabaseStatus(.geoip)
    },
    Route("GET", "api/asn/status", .protected) { core, _, _ in try core.geoDatabaseStatus(.asn) },
    Route("POST", "api/geoip/download", .admin) { try $0.downloadGeoDatabase(.geoip, $1, $2) },
    Route("POST", "api/asn/download", .admin) { try $0.downloadGeoDatabase(.asn, $1, $2) },
    Route("GET", "api/audit-logs/options", .admin) { try $0.auditLogOptions($1, $2) },
  ]
}
