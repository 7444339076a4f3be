import Foundation

/// The wire fixture of each catalogue route: which files under
/// `Tests/ServerBeeModelsTests/Fixtures/` document its success payload (`data`), where in them,
/// and whether the documents fix the key order. Every file was written from the documented
/// example or field table of the section named (never from our own code's output); see
/// `Fixtures/README.md` for what was inferred.
///
/// The facts are restated in `Documentation/Protocol/`.
/// Protocol/README.md §6 fixes the key order of every v1 table ("serde field order"); v2 says "keys
/// in (wire) order" for its tables; the app-routes document never fixes an order, so its fixtures
/// are written in table order and their order is not checked.
struct FixtureSpec {
  /// Which part of a file's `data` is an example.
  enum Selection {
    /// `data` itself.
    case data
    /// Every element of the array `data` (a route answering one element of a list route).
    case elements
    /// Every element of the array `data.<key>` (one item of a page).
    case elementsOf(String)
  }

  /// The example files, relative to `Fixtures/`; together they document the shape.
  var files: [String]
  var selection: Selection = .data
  var rules: ShapeRules
  /// Where the facts are.
  var source: String

  init(
    _ files: [String], _ selection: Selection = .data, orderFixed: Bool,
    mustHaveElements: Set<String> = [], maps: Set<String> = [], _ source: String
  ) {
    self.files = files
    self.selection = selection
    self.rules = ShapeRules(
      orderFixed: orderFixed, mustHaveElements: mustHaveElements, maps: maps)
    self.source = source
  }
}

enum FixtureIndex {
  /// `Tests/ServerBeeModelsTests/Fixtures`, found from this file (the fixtures are the model
  /// tests' resources; this target reads them from the source tree).
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("ServerBeeModelsTests/Fixtures")

  private static let ok = FixtureSpec(
    ["common/ok.json"], orderFixed: false, "Protocol/README.md §3 (\"ok\")")
  private static let token = FixtureSpec(
    ["auth/mobile_token_response.json"], orderFixed: true,
    "Protocol/Auth.md §2 (example), Protocol/Auth.md §2")
  private static let adminUser = FixtureSpec(
    ["admin/users.json"], .elements, orderFixed: false, "Protocol/Administration.md §1 UserResponse"
  )
  private static let geoStatus = FixtureSpec(
    ["admin/geo_status_installed.json", "admin/geo_status_not_installed.json"], orderFixed: false,
    "Protocol/Administration.md §4.1/#120 (last three keys omitted when not installed)")
  private static let geoDownload = FixtureSpec(
    ["admin/geo_download.json"], orderFixed: false, "Protocol/Administration.md §4.2/#122")
  private static let alertRule = FixtureSpec(
    ["alerts/alert_rules_entity.json"], .elements, orderFixed: false,
    "Protocol/Alerts.md §6.1 + Protocol/Alerts.md §6.2 (key set partly inferred)")
  private static let pushSettings = FixtureSpec(
    ["push/settings.json"], orderFixed: true, "Protocol/Push.md §2.2 (example)")
  private static let testPush = FixtureSpec(
    ["push/test-response.json"], orderFixed: true, "Protocol/Push.md §2.6 (example)")

  private static let enrollment = FixtureSpec(
    ["agents/enrollment_offer.json"], orderFixed: false, "Protocol/Agents.md §1, §3")

  private static let maintenance = FixtureSpec(
    ["incidents/maintenances.json"], .elements, orderFixed: false,
    "Protocol/Incidents.md §3 Maintenance")
  private static let statusPage = FixtureSpec(
    ["incidents/status_page.json", "incidents/status_page_no_description.json"],
    orderFixed: false, "Protocol/Incidents.md §4.1 (description str|null)")

  /// Route name → fixture.
  static let specs: [String: FixtureSpec] = [
    // Auth (Protocol/Auth.md).
    "login": token,
    "pair": token,
    // The recipe sends a revocation_proof, so the answer carries revocation_token (Protocol/Auth.md
    // §4).
    "refresh": token,
    "revoke": FixtureSpec(["common/ok.json"], orderFixed: false, "Protocol/Auth.md §8 (\"ok\")"),
    "recover": FixtureSpec(
      ["auth/recovery_selection_required.json"], orderFixed: true, "Protocol/Auth.md §9 (example)"),
    "devices": FixtureSpec(
      ["auth/devices.json"], orderFixed: true, "Protocol/Auth.md §7.1 (example)"),
    "revokeDevice": ok,
    "createPairingCode": FixtureSpec(
      ["auth/pair_code.json"], orderFixed: true, "Protocol/Auth.md §5.1"),
    // Account (Protocol/Auth.md §11, Protocol/Account.md).
    "currentUser": FixtureSpec(
      ["account/current_user.json"], orderFixed: true, "Protocol/Auth.md §11 (keys listed in order)"
    ),
    "changePassword": ok,
    "twoFactorStatus": FixtureSpec(
      ["account/two_factor_status.json"], orderFixed: false, "Protocol/Account.md §2.1"),
    "setUpTwoFactor": FixtureSpec(
      ["account/two_factor_setup.json"], orderFixed: false, "Protocol/Account.md §2.2"),
    "enableTwoFactor": ok,
    "disableTwoFactor": ok,
    "apiKeys": FixtureSpec(
      ["account/api_keys.json"], orderFixed: false, "Protocol/Account.md §3.1"),
    "createAPIKey": FixtureSpec(
      ["account/api_key_created.json"], orderFixed: false, "Protocol/Account.md §3.2"),
    "deleteAPIKey": ok,
    // Administration (Protocol/Administration.md).
    "users": FixtureSpec(
      ["admin/users.json"], orderFixed: false, "Protocol/Administration.md §1.1"),
    "createUser": adminUser,
    "updateUser": adminUser,
    "deleteUser": ok,
    "auditLog": FixtureSpec(
      ["admin/audit_log_page.json"], orderFixed: false, "Protocol/Administration.md §2.1"),
    "auditLogOptions": FixtureSpec(
      ["admin/audit_log_options.json"], orderFixed: false, "Protocol/Administration.md §2.2"),
    "rateLimits": FixtureSpec(
      ["admin/rate_limits.json"], orderFixed: false, "Protocol/Administration.md §3.1"),
    "resetRateLimits": FixtureSpec(
      ["admin/rate_limit_reset.json"], orderFixed: false, "Protocol/Administration.md §3.2"),
    "geoIPStatus": geoStatus,
    "asnStatus": geoStatus,
    "downloadGeoIP": geoDownload,
    "downloadASN": geoDownload,
    // Network probes (Protocol/AppRoutes.md §6): the lists' target DTO and the stored row
    // that create and update answer are two shapes (Protocol/AppRoutes.md §2.6).
    "serverProbeSummary": FixtureSpec(
      ["network_probes/probe_summary.json", "network_probes/probe_summary_no_records.json"],
      orderFixed: true, "Protocol/AppRoutes.md §6"),
    "serverProbeTargets": FixtureSpec(
      ["network_probes/probe_targets.json"], orderFixed: true, "Protocol/AppRoutes.md §6"),
    "serverProbeRecords": FixtureSpec(
      ["network_probes/probe_records_raw.json", "network_probes/probe_records_hourly.json"],
      orderFixed: true, "Protocol/AppRoutes.md §6"),
    "serverProbeAnomalies": FixtureSpec(
      ["network_probes/probe_anomalies.json"], orderFixed: true, "Protocol/AppRoutes.md §6"),
    "probeOverview": FixtureSpec(
      ["network_probes/probe_overview.json"], orderFixed: true,
      mustHaveElements: ["data.targets"], "Protocol/AppRoutes.md §6"),
    "probeTargets": FixtureSpec(
      ["network_probes/probe_targets.json"], orderFixed: true, "Protocol/AppRoutes.md §6"),
    "createProbeTarget": FixtureSpec(
      ["network_probes/probe_target_row.json"], orderFixed: true, "Protocol/AppRoutes.md §6"),
    "updateProbeTarget": FixtureSpec(
      ["network_probes/probe_target_row.json"], orderFixed: true, "Protocol/AppRoutes.md §6"),
    "probeSetting": FixtureSpec(
      ["network_probes/probe_setting.json"], orderFixed: true, "Protocol/AppRoutes.md §6"),
    "updateProbeSetting": FixtureSpec(
      ["network_probes/probe_setting.json"], orderFixed: true, "Protocol/AppRoutes.md §6"),
    // Traffic, cost and uptime (Protocol/AppRoutes.md §5).
    "serverTraffic": FixtureSpec(
      ["insights/server_traffic.json", "insights/server_traffic_no_limit.json"],
      orderFixed: false, "Protocol/AppRoutes.md §5"),
    "serverCostInsights": FixtureSpec(
      [
        "insights/cost_insights.json", "insights/cost_insights_no_limit.json",
        "insights/cost_insights_unconfigured.json",
      ],
      orderFixed: false, "Protocol/AppRoutes.md §5"),
    "serverUptimeDaily": FixtureSpec(
      ["insights/uptime_daily.json"], orderFixed: false, "Protocol/AppRoutes.md §5"),
    "trafficOverview": FixtureSpec(
      ["insights/traffic_overview.json"], orderFixed: false, "Protocol/AppRoutes.md §5"),
    "trafficOverviewDaily": FixtureSpec(
      ["insights/traffic_overview_daily.json"], orderFixed: false, "Protocol/AppRoutes.md §5"),
    "costOverview": FixtureSpec(
      ["insights/cost_overview.json"], orderFixed: false, "Protocol/AppRoutes.md §5"),
    // Docker (Protocol/AppRoutes.md §8).
    "dockerContainers": FixtureSpec(
      ["docker/containers.json", "docker/containers_empty.json"], orderFixed: false,
      mustHaveElements: ["containers"], maps: ["containers.labels"], "Protocol/AppRoutes.md §8.2"),
    "dockerStats": FixtureSpec(
      ["docker/stats.json"], orderFixed: false, "Protocol/AppRoutes.md §8.2"),
    "dockerInfo": FixtureSpec(
      ["docker/info.json"], orderFixed: false, "Protocol/AppRoutes.md §8.2"),
    "dockerEvents": FixtureSpec(
      ["docker/events.json"], orderFixed: false, maps: ["events.attributes"],
      "Protocol/AppRoutes.md §8.2"),
    "dockerNetworks": FixtureSpec(
      ["docker/networks.json"], orderFixed: false, maps: ["networks.containers"],
      "Protocol/AppRoutes.md §8.2"),
    "dockerVolumes": FixtureSpec(
      ["docker/volumes.json"], orderFixed: false, maps: ["volumes.labels"],
      "Protocol/AppRoutes.md §8.2"),
    "dockerContainerAction": FixtureSpec(
      ["docker/action_ok.json", "docker/action_failed.json"], orderFixed: false,
      "Protocol/AppRoutes.md §8.3"),
    // Traceroute (Protocol/AppRoutes.md §7).
    "startTraceroute": FixtureSpec(
      ["traceroute/started.json"], orderFixed: false, "Protocol/AppRoutes.md §7.1"),
    "traceroute": FixtureSpec(
      [
        "traceroute/snapshot_done.json", "traceroute/snapshot_running.json",
        "traceroute/snapshot_legacy_failed.json",
      ], orderFixed: false, mustHaveElements: ["hops"], "Protocol/AppRoutes.md §7.2"),
    "tracerouteHistory": FixtureSpec(
      ["traceroute/history.json"], orderFixed: false, "Protocol/AppRoutes.md §7.3"),
    "clearTraceroutes": FixtureSpec(
      ["traceroute/cleared.json"], orderFixed: false, "Protocol/AppRoutes.md §7.4"),
    // IP quality (Protocol/AppRoutes.md §9).
    "ipQualityOverview": FixtureSpec(
      ["ip_quality/overview.json"], orderFixed: false, mustHaveElements: ["unlock_results"],
      "Protocol/AppRoutes.md §9"),
    "serverIPQuality": FixtureSpec(
      [
        "ip_quality/server.json", "ip_quality/server_sparse.json",
        "ip_quality/server_unchecked.json",
      ], orderFixed: false, mustHaveElements: ["unlock_results"], "Protocol/AppRoutes.md §9"),
    "unlockServices": FixtureSpec(
      ["ip_quality/services.json"], orderFixed: false, "Protocol/AppRoutes.md §9"),
    "updateUnlockService": FixtureSpec(
      ["ip_quality/services.json"], .elements, orderFixed: false, "Protocol/AppRoutes.md §9"),
    "checkIPQuality": ok,
    "deleteUnlockService": ok,
    "ipQualitySettings": FixtureSpec(
      ["ip_quality/settings.json"], orderFixed: false, "Protocol/AppRoutes.md §9"),
    "updateIPQualitySettings": FixtureSpec(
      ["ip_quality/settings.json"], orderFixed: false, "Protocol/AppRoutes.md §9"),
    // Service monitors (Protocol/AppRoutes.md §11).
    "serviceMonitors": FixtureSpec(
      ["service_monitors/monitors.json"], orderFixed: false, "Protocol/AppRoutes.md §11"),
    "serviceMonitor": FixtureSpec(
      [
        "service_monitors/monitor.json", "service_monitors/monitor_up.json",
        "service_monitors/monitor_unchecked.json",
      ],
      orderFixed: false, "Protocol/AppRoutes.md §11 (MonitorWithRecord)"),
    "serviceMonitorRecords": FixtureSpec(
      ["service_monitors/records.json"], orderFixed: false, "Protocol/AppRoutes.md §11"),
    "checkServiceMonitor": FixtureSpec(
      ["service_monitors/records.json"], .elements, orderFixed: false,
      "Protocol/AppRoutes.md §11"),
    // Servers (Protocol/Servers.md).
    "servers": FixtureSpec(["servers/servers.json"], orderFixed: true, "Protocol/Servers.md §1"),
    "server": FixtureSpec(
      ["servers/servers.json"], .elements, orderFixed: true, "Protocol/Servers.md §1"),
    "records": FixtureSpec(["servers/records.json"], orderFixed: true, "Protocol/Servers.md §2"),
    "serverGroups": FixtureSpec(
      ["servers/server_groups.json"], orderFixed: true, "Protocol/Servers.md §3"),
    "updateServer": FixtureSpec(
      ["servers/servers.json"], .elements, orderFixed: true,
      "Protocol/Servers.md §4.1 (the ServerResponse of Protocol/Servers.md §1)"),
    "serverTags": FixtureSpec(
      ["servers/server_tags.json"], orderFixed: false, "Protocol/Servers.md §4.2"),
    "setServerTags": FixtureSpec(
      ["servers/server_tags.json"], orderFixed: false, "Protocol/Servers.md §4.2"),
    "createServerGroup": FixtureSpec(
      ["servers/server_group.json"], orderFixed: false, "Protocol/Servers.md §4.3"),
    "updateServerGroup": FixtureSpec(
      ["servers/server_group.json"], orderFixed: false, "Protocol/Servers.md §4.3"),
    "deleteServerGroup": ok,
    // Alerts (Protocol/Alerts.md §5, §6.2–§7).
    "alertEvents": FixtureSpec(
      ["alerts/alert_events_v2.json"], orderFixed: true,
      "Protocol/Alerts.md §5 + Protocol/Alerts.md §2"),
    "alertEvent": FixtureSpec(
      ["alerts/alert_event_detail_firing.json", "alerts/alert_event_detail_resolved.json"],
      orderFixed: true, "Protocol/Alerts.md §3"),
    "alertRules": FixtureSpec(
      ["alerts/alert_rules_entity.json"], orderFixed: false,
      "Protocol/Alerts.md §6.1 + Protocol/Alerts.md §6.2 (key set partly inferred)"),
    "alertRule": alertRule,
    "setAlertRule": alertRule,
    "alertRuleStates": FixtureSpec(
      ["alerts/alert_rule_states.json"], orderFixed: true,
      "Protocol/Alerts.md §6.1 (keys listed in order)"),
    "notificationChannels": FixtureSpec(
      ["alerts/notification_channels.json"], orderFixed: false, "Protocol/Alerts.md §7.1"),
    "setNotificationChannel": FixtureSpec(
      ["alerts/notification_channels.json"], .elements, orderFixed: false, "Protocol/Alerts.md §7.2"
    ),
    // Tasks (Protocol/Tasks.md).
    "tasks": FixtureSpec(["tasks/tasks.json"], orderFixed: true, "Protocol/Tasks.md §1"),
    "task": FixtureSpec(["tasks/tasks.json"], .elements, orderFixed: true, "Protocol/Tasks.md §1"),
    "taskResults": FixtureSpec(
      ["tasks/task_results.json"], orderFixed: true, "Protocol/Tasks.md §3"),
    "createTask": FixtureSpec(
      ["tasks/tasks.json"], .elements, orderFixed: true, "Protocol/Tasks.md §1, §2"),
    "updateTask": FixtureSpec(
      ["tasks/tasks.json"], .elements, orderFixed: true, "Protocol/Tasks.md §1, §2"),
    "runTask": FixtureSpec(
      ["tasks/tasks.json"], .elements, orderFixed: true, "Protocol/Tasks.md §1, §2"),
    "pingTasks": FixtureSpec(["tasks/ping_tasks.json"], orderFixed: true, "Protocol/Tasks.md §5"),
    "createPingTask": FixtureSpec(
      ["tasks/ping_tasks.json"], .elements, orderFixed: true, "Protocol/Tasks.md §5"),
    "updatePingTask": FixtureSpec(
      ["tasks/ping_tasks.json"], .elements, orderFixed: true, "Protocol/Tasks.md §5"),
    // Security (Protocol/Security.md).
    "securityEvents": FixtureSpec(
      ["security/security_events_page.json", "security/security_events_last_page.json"],
      orderFixed: true, mustHaveElements: ["items"], "Protocol/Security.md §1, §2"),
    "securityEvent": FixtureSpec(
      ["security/security_events_page.json"], .elementsOf("items"), orderFixed: true,
      "Protocol/Security.md §2, §3"),
    "securityStats": FixtureSpec(
      ["security/security_stats.json"], orderFixed: true, "Protocol/Security.md §3"),
    "deleteSecurityEvent": FixtureSpec(
      ["security/delete_security_event.json"], orderFixed: false, "Protocol/Security.md §3 (true)"),
    // Firewall (Protocol/Firewall.md).
    "firewallBlocks": FixtureSpec(
      ["firewall/blocks_page.json", "firewall/blocks_last_page.json"], orderFixed: true,
      mustHaveElements: ["items"], "Protocol/Firewall.md §1, §2"),
    "createFirewallBlock": FixtureSpec(
      ["firewall/blocks_page.json", "firewall/blocks_last_page.json"], .elementsOf("items"),
      orderFixed: true, "Protocol/Firewall.md §1, §4"),
    "deleteFirewallBlock": FixtureSpec(
      ["firewall/delete_block.json"], orderFixed: false, "Protocol/Firewall.md §5 (true)"),
    "firewallStats": FixtureSpec(
      ["firewall/stats.json"], orderFixed: true, "Protocol/Firewall.md §6"),
    // Push (Protocol/Push.md §2).
    "settings": pushSettings,
    "updateSettings": pushSettings,
    "encryptedRegister": pushSettings,
    "sendTest": testPush,
    "testStatus": testPush,
    // Incidents, maintenance windows, the status page (Protocol/Incidents.md).
    "incidents": FixtureSpec(
      ["incidents/incidents.json"], orderFixed: false, "Protocol/Incidents.md §2.1"),
    "createIncident": FixtureSpec(
      ["incidents/incidents.json"], .elements, orderFixed: false, "Protocol/Incidents.md §2.2"),
    "postIncidentUpdate": FixtureSpec(
      ["incidents/incident_update.json"], orderFixed: false, "Protocol/Incidents.md §2.3"),
    "deleteIncident": ok,
    "maintenances": FixtureSpec(
      ["incidents/maintenances.json"], orderFixed: false, "Protocol/Incidents.md §3.1"),
    "createMaintenance": maintenance,
    "updateMaintenance": maintenance,
    "deleteMaintenance": ok,
    "statusPage": statusPage,
    "updateStatusPage": statusPage,
    // Agents (Protocol/Agents.md).
    "createServer": FixtureSpec(
      ["agents/create_server.json", "agents/create_server_replayed.json"], orderFixed: false,
      "Protocol/Agents.md §2"),
    "issueEnrollment": enrollment,
    "replaceEnrollment": enrollment,
    "reEnroll": enrollment,
    "revokeEnrollment": FixtureSpec(
      ["agents/revoke_offer.json"], orderFixed: false, "Protocol/Agents.md §6"),
    "revokeAgentAuthority": FixtureSpec(
      ["agents/revoke_authority.json"], orderFixed: false, "Protocol/Agents.md §7"),
    "latestAgentVersion": FixtureSpec(
      ["agents/latest_agent_version.json", "agents/latest_agent_version_error.json"],
      orderFixed: false, "Protocol/Agents.md §8"),
    "deleteServer": ok,
    "upgradeAgent": ok,
  ]

  /// The examples of a spec: each file's `data`, selected.
  static func examples(_ spec: FixtureSpec) throws -> [OrderedJSON] {
    try spec.files.flatMap { file -> [OrderedJSON] in
      let url = directory.appendingPathComponent(file)
      let root = try OrderedJSON.parse(try Data(contentsOf: url))
      guard let data = root["data"] else { throw FixtureProblem("\(file) has no data") }
      switch spec.selection {
      case .data: return [data]
      case .elements:
        guard let elements = data.elements else { throw FixtureProblem("\(file): not a list") }
        return elements
      case .elementsOf(let key):
        guard let elements = data[key]?.elements else {
          throw FixtureProblem("\(file): no list \(key)")
        }
        return elements
      }
    }
  }
}

struct FixtureProblem: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
