/// The routes and sockets the official ServerBee iOS app calls (its networking code at upstream
/// commit `42b94155`): number, area, method, path, the screen or feature that calls it, and the
/// credential the server asks for. `Documentation/Coverage.md` is computed from this table, the
/// route catalogue, the simulator's route table and the command line's command table.
enum AppInventory {
  struct Entry: Sendable {
    /// The inventory number: `1`…`122` for HTTP routes, `W1`, `W2` for sockets.
    var number: String
    var area: String
    var method: String
    /// The path template as the app spells it (placeholders in braces).
    var path: String
    var feature: String
    var auth: String

    /// `METHOD shape`, as `AnyAPIRoute.key`: placeholders written `{}`.
    var key: String {
      let shape = path.split(separator: "/").map { $0.hasPrefix("{") ? "{}" : String($0) }
      return method + " /" + shape.joined(separator: "/")
    }
  }

  static let entries: [Entry] = [
    Entry(
      number: "1", area: "Auth, account, push", method: "POST",
      path: "/api/mobile/auth/login", feature: "LoginView (credentials, then a TOTP step on 422)",
      auth: "public"),
    Entry(
      number: "2", area: "Auth, account, push", method: "POST",
      path: "/api/mobile/auth/pair", feature: "QRScannerView (QR pairing)", auth: "public"),
    Entry(
      number: "3", area: "Auth, account, push", method: "POST",
      path: "/api/mobile/auth/refresh", feature: "AuthManager (launch, any 401)", auth: "public"),
    Entry(
      number: "4", area: "Auth, account, push", method: "POST",
      path: "/api/mobile/auth/logout", feature: "Settings → Log Out", auth: "member (mobile Bearer)"
    ),
    Entry(
      number: "5", area: "Auth, account, push", method: "GET",
      path: "/api/mobile/auth/devices", feature: "Settings → Devices", auth: "member"),
    Entry(
      number: "6", area: "Auth, account, push", method: "DELETE",
      path: "/api/mobile/auth/devices/{id}", feature: "Devices (sign out a device)", auth: "member"),
    Entry(
      number: "7", area: "Auth, account, push", method: "POST",
      path: "/api/mobile/push/register",
      feature: "PushNotificationManager, after APNs gives a token", auth: "member (mobile Bearer)"),
    Entry(
      number: "8", area: "Auth, account, push", method: "POST",
      path: "/api/mobile/push/unregister", feature: "Logout", auth: "member (mobile Bearer)"),
    Entry(
      number: "9", area: "Auth, account, push", method: "PUT",
      path: "/api/auth/password", feature: "Settings → Change Password", auth: "member"),
    Entry(
      number: "10", area: "Auth, account, push", method: "GET",
      path: "/api/auth/2fa/status", feature: "Settings → Two-Factor Auth", auth: "member"),
    Entry(
      number: "11", area: "Auth, account, push", method: "POST",
      path: "/api/auth/2fa/setup", feature: "Two-Factor Auth (enrol)", auth: "member"),
    Entry(
      number: "12", area: "Auth, account, push", method: "POST",
      path: "/api/auth/2fa/enable", feature: "Two-Factor Auth (confirm)", auth: "member"),
    Entry(
      number: "13", area: "Auth, account, push", method: "POST",
      path: "/api/auth/2fa/disable", feature: "Two-Factor Auth (disable)", auth: "member"),
    Entry(
      number: "14", area: "Auth, account, push", method: "GET",
      path: "/api/auth/api-keys", feature: "Settings → API Keys", auth: "member"),
    Entry(
      number: "15", area: "Auth, account, push", method: "POST",
      path: "/api/auth/api-keys", feature: "API Keys (create)", auth: "admin (iOS assumes member)"),
    Entry(
      number: "16", area: "Auth, account, push", method: "DELETE",
      path: "/api/auth/api-keys/{id}", feature: "API Keys (revoke)", auth: "member (own keys)"),
    Entry(
      number: "17", area: "Servers, groups, onboarding and lifecycle", method: "GET",
      path: "/api/servers", feature: "Servers list", auth: "member"),
    Entry(
      number: "18", area: "Servers, groups, onboarding and lifecycle", method: "GET",
      path: "/api/server-groups", feature: "Servers list grouping, Edit Server, Server Groups",
      auth: "member"),
    Entry(
      number: "19", area: "Servers, groups, onboarding and lifecycle", method: "GET",
      path: "/api/servers/{id}", feature: "Server detail, Edit prefill", auth: "member"),
    Entry(
      number: "20", area: "Servers, groups, onboarding and lifecycle", method: "GET",
      path: "/api/servers/{id}/records",
      feature: "Server detail → Metrics (1h, 6h, 24h raw; 7d hourly)", auth: "member"),
    Entry(
      number: "21", area: "Servers, groups, onboarding and lifecycle", method: "PUT",
      path: "/api/servers/{id}", feature: "Edit Server sheet", auth: "admin"),
    Entry(
      number: "22", area: "Servers, groups, onboarding and lifecycle", method: "GET",
      path: "/api/servers/{id}/tags", feature: "Edit Server sheet", auth: "member"),
    Entry(
      number: "23", area: "Servers, groups, onboarding and lifecycle", method: "PUT",
      path: "/api/servers/{id}/tags", feature: "Edit Server sheet (only when tags changed)",
      auth: "admin"),
    Entry(
      number: "24", area: "Servers, groups, onboarding and lifecycle", method: "POST",
      path: "/api/server-groups", feature: "Settings → Server Groups", auth: "admin"),
    Entry(
      number: "25", area: "Servers, groups, onboarding and lifecycle", method: "PUT",
      path: "/api/server-groups/{id}", feature: "Server Groups (rename)", auth: "admin"),
    Entry(
      number: "26", area: "Servers, groups, onboarding and lifecycle", method: "DELETE",
      path: "/api/server-groups/{id}", feature: "Server Groups", auth: "admin"),
    Entry(
      number: "27", area: "Servers, groups, onboarding and lifecycle", method: "POST",
      path: "/api/servers", feature: "Servers list → Add Server", auth: "admin"),
    Entry(
      number: "28", area: "Servers, groups, onboarding and lifecycle", method: "POST",
      path: "/api/servers/{id}/agent-authority/offers",
      feature: "ServerLifecycleCard: issue install code", auth: "admin"),
    Entry(
      number: "29", area: "Servers, groups, onboarding and lifecycle", method: "POST",
      path: "/api/servers/{id}/agent-authority/offers/{offer_id}/replace",
      feature: "Lifecycle card: new code", auth: "admin"),
    Entry(
      number: "30", area: "Servers, groups, onboarding and lifecycle", method: "POST",
      path: "/api/servers/{id}/agent-authority/re-enrollment",
      feature: "Lifecycle card: re-enrol (graceful or emergency)", auth: "admin"),
    Entry(
      number: "31", area: "Servers, groups, onboarding and lifecycle", method: "DELETE",
      path: "/api/servers/{id}/agent-authority/offers/{offer_id}",
      feature: "Lifecycle card: revoke code", auth: "admin"),
    Entry(
      number: "32", area: "Servers, groups, onboarding and lifecycle", method: "DELETE",
      path: "/api/servers/{id}/agent-authority", feature: "Lifecycle card: revoke agent",
      auth: "admin"),
    Entry(
      number: "33", area: "Servers, groups, onboarding and lifecycle", method: "GET",
      path: "/api/agent/latest-version", feature: "Lifecycle card: upgrade affordance",
      auth: "member"),
    Entry(
      number: "34", area: "Servers, groups, onboarding and lifecycle", method: "POST",
      path: "/api/servers/{id}/upgrade",
      feature: "Lifecycle card: upgrade agent (progress comes over the WS)", auth: "admin"),
    Entry(
      number: "35", area: "Servers, groups, onboarding and lifecycle", method: "DELETE",
      path: "/api/servers/{id}", feature: "Lifecycle card: delete server", auth: "admin"),
    Entry(
      number: "36", area: "Traffic, cost, uptime", method: "GET",
      path: "/api/servers/{id}/traffic", feature: "Server detail → Traffic", auth: "member"),
    Entry(
      number: "37", area: "Traffic, cost, uptime", method: "GET",
      path: "/api/servers/{id}/cost-insights", feature: "Traffic → Cost card", auth: "member"),
    Entry(
      number: "38", area: "Traffic, cost, uptime", method: "GET",
      path: "/api/servers/{id}/uptime-daily", feature: "Traffic → uptime timeline bar",
      auth: "member"),
    Entry(
      number: "39", area: "Traffic, cost, uptime", method: "GET",
      path: "/api/traffic/overview", feature: "Insights → Fleet Traffic", auth: "member"),
    Entry(
      number: "40", area: "Traffic, cost, uptime", method: "GET",
      path: "/api/traffic/overview/daily", feature: "Fleet Traffic chart", auth: "member"),
    Entry(
      number: "41", area: "Traffic, cost, uptime", method: "GET",
      path: "/api/cost/overview", feature: "Insights hub → Cost card", auth: "member"),
    Entry(
      number: "42", area: "Network probes and traceroute", method: "GET",
      path: "/api/servers/{id}/network-probes/summary", feature: "Server detail → Network",
      auth: "member"),
    Entry(
      number: "43", area: "Network probes and traceroute", method: "GET",
      path: "/api/servers/{id}/network-probes/targets", feature: "Network", auth: "member"),
    Entry(
      number: "44", area: "Network probes and traceroute", method: "GET",
      path: "/api/servers/{id}/network-probes/records", feature: "Network chart (1h, 6h, 24h, 7d)",
      auth: "member"),
    Entry(
      number: "45", area: "Network probes and traceroute", method: "GET",
      path: "/api/servers/{id}/network-probes/anomalies", feature: "Network anomalies list",
      auth: "member"),
    Entry(
      number: "46", area: "Network probes and traceroute", method: "GET",
      path: "/api/network-probes/overview", feature: "Insights → Fleet Network", auth: "member"),
    Entry(
      number: "47", area: "Network probes and traceroute", method: "GET",
      path: "/api/network-probes/targets", feature: "Settings → Network Probes", auth: "member"),
    Entry(
      number: "48", area: "Network probes and traceroute", method: "POST",
      path: "/api/network-probes/targets", feature: "Network Probes (add custom target)",
      auth: "admin"),
    Entry(
      number: "49", area: "Network probes and traceroute", method: "PUT",
      path: "/api/network-probes/targets/{id}", feature: "Network Probes (edit)", auth: "admin"),
    Entry(
      number: "50", area: "Network probes and traceroute", method: "DELETE",
      path: "/api/network-probes/targets/{id}", feature: "Network Probes", auth: "admin"),
    Entry(
      number: "51", area: "Network probes and traceroute", method: "GET",
      path: "/api/network-probes/setting", feature: "Network Probes", auth: "member"),
    Entry(
      number: "52", area: "Network probes and traceroute", method: "PUT",
      path: "/api/network-probes/setting", feature: "Network Probes", auth: "admin"),
    Entry(
      number: "53", area: "Network probes and traceroute", method: "GET",
      path: "/api/servers/{id}/traceroute", feature: "Network → Traceroute history", auth: "member"),
    Entry(
      number: "54", area: "Network probes and traceroute", method: "POST",
      path: "/api/servers/{id}/traceroute", feature: "Traceroute (run)",
      auth: "admin (iOS assumes member)"),
    Entry(
      number: "55", area: "Network probes and traceroute", method: "GET",
      path: "/api/servers/{id}/traceroute/{request_id}", feature: "Traceroute (live result)",
      auth: "member"),
    Entry(
      number: "56", area: "Network probes and traceroute", method: "DELETE",
      path: "/api/servers/{id}/traceroute/{request_id}", feature: "Traceroute (delete one)",
      auth: "admin"),
    Entry(
      number: "57", area: "Network probes and traceroute", method: "DELETE",
      path: "/api/servers/{id}/traceroute", feature: "Traceroute (clear history)", auth: "admin"),
    Entry(
      number: "58", area: "Docker", method: "GET",
      path: "/api/servers/{id}/docker/containers", feature: "Server detail → Docker", auth: "member"
    ),
    Entry(
      number: "59", area: "Docker", method: "GET",
      path: "/api/servers/{id}/docker/stats", feature: "Docker", auth: "member"),
    Entry(
      number: "60", area: "Docker", method: "GET",
      path: "/api/servers/{id}/docker/info", feature: "Docker header (best effort)", auth: "member"),
    Entry(
      number: "61", area: "Docker", method: "GET",
      path: "/api/servers/{id}/docker/events", feature: "Docker → Events sheet", auth: "member"),
    Entry(
      number: "62", area: "Docker", method: "GET",
      path: "/api/servers/{id}/docker/networks", feature: "Docker → Networks sheet", auth: "member"),
    Entry(
      number: "63", area: "Docker", method: "GET",
      path: "/api/servers/{id}/docker/volumes", feature: "Docker → Volumes sheet", auth: "member"),
    Entry(
      number: "64", area: "Docker", method: "POST",
      path: "/api/servers/{id}/docker/containers/{cid}/action",
      feature: "Container detail: start, stop, restart, remove", auth: "admin"),
    Entry(
      number: "65", area: "IP quality, security, firewall", method: "GET",
      path: "/api/ip-quality/overview", feature: "Insights → Fleet IP Quality", auth: "member"),
    Entry(
      number: "66", area: "IP quality, security, firewall", method: "GET",
      path: "/api/ip-quality/services",
      feature: "Fleet IP Quality, server IP section, IP Quality config", auth: "member"),
    Entry(
      number: "67", area: "IP quality, security, firewall", method: "GET",
      path: "/api/ip-quality/servers/{id}", feature: "Server detail → IP", auth: "member"),
    Entry(
      number: "68", area: "IP quality, security, firewall", method: "POST",
      path: "/api/ip-quality/servers/{id}/check",
      feature: "Server IP → Recheck (then 6 polls of #67, 2 s apart)", auth: "admin"),
    Entry(
      number: "69", area: "IP quality, security, firewall", method: "GET",
      path: "/api/ip-quality/settings", feature: "Settings → IP Quality", auth: "member"),
    Entry(
      number: "70", area: "IP quality, security, firewall", method: "PUT",
      path: "/api/ip-quality/settings", feature: "IP Quality config", auth: "admin"),
    Entry(
      number: "71", area: "IP quality, security, firewall", method: "PUT",
      path: "/api/ip-quality/services/{id}", feature: "IP Quality config (toggle)", auth: "admin"),
    Entry(
      number: "72", area: "IP quality, security, firewall", method: "DELETE",
      path: "/api/ip-quality/services/{id}", feature: "IP Quality config (delete custom)",
      auth: "admin"),
    Entry(
      number: "73", area: "IP quality, security, firewall", method: "GET",
      path: "/api/security/events", feature: "Server → Security, Insights → Fleet Security",
      auth: "member"),
    Entry(
      number: "74", area: "IP quality, security, firewall", method: "GET",
      path: "/api/security/stats", feature: "same", auth: "member"),
    Entry(
      number: "75", area: "IP quality, security, firewall", method: "DELETE",
      path: "/api/security/events/{id}", feature: "Security event detail (delete)", auth: "admin"),
    Entry(
      number: "76", area: "IP quality, security, firewall", method: "GET",
      path: "/api/firewall/blocks", feature: "Settings → Firewall Blocklist", auth: "member"),
    Entry(
      number: "77", area: "IP quality, security, firewall", method: "POST",
      path: "/api/firewall/blocks",
      feature: "Blocklist (add), Security event detail → \"Block IP\"", auth: "admin"),
    Entry(
      number: "78", area: "IP quality, security, firewall", method: "DELETE",
      path: "/api/firewall/blocks/{id}", feature: "Blocklist", auth: "admin"),
    Entry(
      number: "79", area: "IP quality, security, firewall", method: "GET",
      path: "/api/firewall/stats", feature: "Blocklist header", auth: "member"),
    Entry(
      number: "80", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/alert-events", feature: "Alerts tab", auth: "member"),
    Entry(
      number: "81", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/alert-events/{alert_key}", feature: "Alert detail", auth: "member"),
    Entry(
      number: "82", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/alert-rules", feature: "Alerts → Alert config", auth: "admin"),
    Entry(
      number: "83", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "PUT",
      path: "/api/alert-rules/{id}", feature: "Alert config (toggle rule)", auth: "admin"),
    Entry(
      number: "84", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/notifications", feature: "Alert config (channels)", auth: "admin"),
    Entry(
      number: "85", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "PUT",
      path: "/api/notifications/{id}", feature: "Alert config (toggle channel)", auth: "admin"),
    Entry(
      number: "86", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/notifications/{id}/test", feature: "Alert config (send test)", auth: "admin"),
    Entry(
      number: "87", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/service-monitors", feature: "Insights hub, Service Monitors list", auth: "member"),
    Entry(
      number: "88", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/service-monitors/{id}", feature: "Service monitor detail", auth: "member"),
    Entry(
      number: "89", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/service-monitors/{id}/records", feature: "Monitor detail history", auth: "member"),
    Entry(
      number: "90", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/service-monitors/{id}/check", feature: "Monitor detail → Check now", auth: "admin"
    ),
    Entry(
      number: "91", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/incidents", feature: "Insights hub, Incidents", auth: "admin (iOS assumes member)"
    ),
    Entry(
      number: "92", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/incidents", feature: "Incidents (create)", auth: "admin"),
    Entry(
      number: "93", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/incidents/{id}/updates", feature: "Incidents (post update / resolve)",
      auth: "admin"),
    Entry(
      number: "94", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "DELETE",
      path: "/api/incidents/{id}", feature: "Incidents", auth: "admin"),
    Entry(
      number: "95", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/maintenances", feature: "Insights hub, Incidents → Maintenance",
      auth: "admin (iOS assumes member)"),
    Entry(
      number: "96", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/maintenances", feature: "Maintenance form", auth: "admin"),
    Entry(
      number: "97", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "PUT",
      path: "/api/maintenances/{id}", feature: "Maintenance form (edit)", auth: "admin"),
    Entry(
      number: "98", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "DELETE",
      path: "/api/maintenances/{id}", feature: "Maintenance", auth: "admin"),
    Entry(
      number: "99", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/tasks", feature: "Settings → Scheduled Commands", auth: "admin"),
    Entry(
      number: "100", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/tasks/{id}/results", feature: "Task detail", auth: "admin"),
    Entry(
      number: "101", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/tasks", feature: "Task form (create)", auth: "admin"),
    Entry(
      number: "102", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "PUT",
      path: "/api/tasks/{id}", feature: "Task form (edit), enable toggle", auth: "admin"),
    Entry(
      number: "103", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/tasks/{id}/run", feature: "Task detail → Run now", auth: "admin"),
    Entry(
      number: "104", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "DELETE",
      path: "/api/tasks/{id}", feature: "Tasks list", auth: "admin"),
    Entry(
      number: "105", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/ping-tasks", feature: "Settings → Ping Tasks", auth: "member"),
    Entry(
      number: "106", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/ping-tasks", feature: "Ping task form", auth: "admin"),
    Entry(
      number: "107", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "PUT",
      path: "/api/ping-tasks/{id}", feature: "Ping task form, toggle", auth: "admin"),
    Entry(
      number: "108", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "DELETE",
      path: "/api/ping-tasks/{id}", feature: "Ping Tasks", auth: "admin"),
    Entry(
      number: "109", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/status-page", feature: "Settings → Status Page", auth: "member"),
    Entry(
      number: "110", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "PUT",
      path: "/api/status-page", feature: "Status Page config", auth: "admin"),
    Entry(
      number: "111", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/users", feature: "Settings → Users", auth: "admin"),
    Entry(
      number: "112", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/users", feature: "Users (create)", auth: "admin"),
    Entry(
      number: "113", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "PUT",
      path: "/api/users/{id}", feature: "Users (change role, reset password)", auth: "admin"),
    Entry(
      number: "114", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "DELETE",
      path: "/api/users/{id}", feature: "Users", auth: "admin"),
    Entry(
      number: "115", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/audit-logs", feature: "Settings → Audit Log", auth: "admin"),
    Entry(
      number: "116", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/audit-logs/options", feature: "Audit Log filter", auth: "admin"),
    Entry(
      number: "117", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/admin/rate-limit", feature: "Settings → Rate Limits", auth: "admin"),
    Entry(
      number: "118", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/admin/rate-limit/reset", feature: "Rate Limits (reset all)", auth: "admin"),
    Entry(
      number: "119", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/geoip/status", feature: "Settings → GeoIP & ASN", auth: "member"),
    Entry(
      number: "120", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "GET",
      path: "/api/asn/status", feature: "GeoIP & ASN", auth: "member"),
    Entry(
      number: "121", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/geoip/download", feature: "GeoIP & ASN (download)", auth: "admin"),
    Entry(
      number: "122", area: "Alerts, notifications, insights, tasks, ping, status page, admin",
      method: "POST",
      path: "/api/asn/download", feature: "GeoIP & ASN (download)", auth: "admin"),
    Entry(
      number: "W1", area: "WebSockets", method: "GET",
      path: "/api/ws/servers", feature: "Servers list, alerts refetch, security feed, upgrade jobs",
      auth: "member"),
    Entry(
      number: "W2", area: "WebSockets", method: "GET",
      path: "/api/ws/docker/logs/{server_id}", feature: "Container detail → Logs", auth: "admin"),
  ]
}
