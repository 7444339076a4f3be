import Foundation
import ServerBeeModels

@testable import ServerBeeSimulator

/// One request of a catalogue route: the values of its path placeholders, its query, its body
/// and its credential. The method and the path template come from the catalogue.
struct Call: Sendable {
  var values: [String] = []
  var query: [(String, String)] = []
  var body: Data?
  /// A mobile access token (every authenticated route accepts one).
  var bearer: String?
}

/// How to make each catalogue route answer 200 on a seeded simulator: what to seed first (so
/// lists have elements and destructive routes act on something made for them), then the call.
enum RouteRecipes {
  typealias Recipe = @Sendable (Seed) async throws -> Call

  static let all: [String: Recipe] = auth.merging(account) { a, _ in a }
    .merging(administration) { a, _ in a }.merging(servers) { a, _ in a }
    .merging(alerts) { a, _ in a }.merging(tasks) { a, _ in a }
    .merging(security) { a, _ in a }.merging(firewall) { a, _ in a }
    .merging(push) { a, _ in a }
    .merging(incidents) { a, _ in a }.merging(agents) { a, _ in a }
    .merging(insights) { a, _ in a }.merging(networkProbes) { a, _ in a }
    .merging(traceroute) { a, _ in a }.merging(ipQuality) { a, _ in a }
    .merging(serviceMonitors) { a, _ in a }.merging(docker) { a, _ in a }

  static let proof = "sb-revoke-v1." + String(repeating: "A", count: 42) + "E"

  // MARK: Docker

  /// Docker turned on for the seeded server (the capability and the feature), then a call of
  /// a Docker route on it with `query` and `body`.
  static func dockerCall(
    _ seed: Seed, values: [String]? = nil, query: [(String, String)] = [], body: Data? = nil
  ) async throws -> Call {
    try await seed.world.control(
      "POST", "/servers/\(seed.serverID)/docker", ["capability": true, "feature": true])
    return Call(
      values: values ?? [seed.serverID], query: query, body: body, bearer: seed.admin.access)
  }

  static let docker: [String: Recipe] = [
    "dockerContainers": { try await dockerCall($0) },
    "dockerStats": { try await dockerCall($0) },
    "dockerInfo": { try await dockerCall($0) },
    "dockerEvents": { try await dockerCall($0, query: [("limit", "100")]) },
    "dockerNetworks": { try await dockerCall($0) },
    "dockerVolumes": { try await dockerCall($0) },
    "dockerContainerAction": { seed in
      try await dockerCall(
        seed, values: [seed.serverID, "stack-web-1"],
        body: seed.world.json(["action": ["Restart": ["timeout": 5]]]))
    },
  ]

  // MARK: Auth

  static let auth: [String: Recipe] = [
    "login": { seed in
      Call(
        body: seed.world.json([
          "username": "ada", "password": "password-1", "installation_id": "INST-LOGIN",
          "device_name": "Fixture iPhone",
        ]))
    },
    "pair": { seed in
      let code = try await seed.world.controlString(
        "POST", "/users/\(seed.adminID)/pair-code", key: "code")
      return Call(
        body: seed.world.json([
          "code": code, "installation_id": "INST-PAIR", "device_name": "Fixture iPad",
        ]))
    },
    // With a revocation proof, so the answer carries `revocation_token` (Protocol/Auth.md §4 step
    // 7).
    "refresh": { seed in
      let session = try await seed.world.session(seed.adminID, installation: "INST-REFRESH")
      return Call(
        body: seed.world.json([
          "refresh_token": session.refresh, "installation_id": session.installation,
          "revocation_proof": proof,
        ]))
    },
    "revoke": { seed in
      let session = try await seed.world.session(seed.adminID, installation: "INST-REVOKE")
      return Call(
        body: seed.world.json([
          "installation_id": session.installation, "revocation_token": session.revocation,
          "expected_session_id": session.sessionID,
        ]))
    },
    // Stale credentials and no expected id: the installation's sessions are offered as
    // candidates (Protocol/Auth.md §9 `selection_required`, the documented example).
    "recover": { seed in
      _ = try await seed.world.session(seed.adminID, installation: "INST-RECOVER")
      return Call(
        body: seed.world.json([
          "username": "ada", "password": "password-1", "expected_user_id": seed.adminID,
          "installation_id": "INST-RECOVER",
          "access_token": String(repeating: "a", count: 43),
          "refresh_token": String(repeating: "r", count: 43),
        ]))
    },
    "devices": { seed in Call(bearer: seed.admin.access) },
    "revokeDevice": { seed in
      let session = try await seed.world.session(seed.adminID, installation: "INST-GONE")
      return Call(values: [session.sessionID], bearer: seed.admin.access)
    },
    "createPairingCode": { seed in Call(bearer: seed.admin.access) },
  ]

  // MARK: Account

  static let account: [String: Recipe] = [
    "currentUser": { seed in Call(bearer: seed.admin.access) },
    // A user of its own: the change ends that user's other sessions.
    "changePassword": { seed in
      let id = try await seed.world.user("pat")
      let session = try await seed.world.session(id, installation: "INST-PAT")
      return Call(
        body: seed.world.json(["old_password": "password-1", "new_password": "password-2"]),
        bearer: session.access)
    },
    "twoFactorStatus": { seed in Call(bearer: seed.admin.access) },
    "setUpTwoFactor": { seed in Call(bearer: seed.admin.access) },
    // A user of its own, so the admin's sign-in never needs a code.
    "enableTwoFactor": { seed in
      let id = try await seed.world.user("tess")
      let session = try await seed.world.session(id, installation: "INST-TESS")
      let setup = try await seed.world.send(
        "POST", "/api/auth/2fa/setup", bearer: session.access)
      guard let secret = setup.json?["data"]?["secret"]?.stringValue else {
        throw FixtureProblem("2fa setup: \(setup.text)")
      }
      return Call(
        body: seed.world.json(["code": try seed.world.totp(secret)]), bearer: session.access)
    },
    "disableTwoFactor": { seed in
      let id = try await seed.world.user("dan")
      let session = try await seed.world.session(id, installation: "INST-DAN")
      return Call(body: seed.world.json(["password": "password-1"]), bearer: session.access)
    },
    "apiKeys": { seed in
      let created = try await seed.world.send(
        "POST", "/api/auth/api-keys", body: seed.world.json(["name": "grafana"]),
        bearer: seed.admin.access)
      guard created.status == 200 else { throw FixtureProblem("api key: \(created.text)") }
      return Call(bearer: seed.admin.access)
    },
    "createAPIKey": { seed in
      Call(body: seed.world.json(["name": "ci"]), bearer: seed.admin.access)
    },
    "deleteAPIKey": { seed in
      let created = try await seed.world.send(
        "POST", "/api/auth/api-keys", body: seed.world.json(["name": "old"]),
        bearer: seed.admin.access)
      guard let id = created.json?["data"]?["id"]?.stringValue else {
        throw FixtureProblem("api key: \(created.text)")
      }
      return Call(values: [id], bearer: seed.admin.access)
    },
  ]

  // MARK: Administration

  static let administration: [String: Recipe] = [
    "users": { seed in Call(bearer: seed.admin.access) },
    "createUser": { seed in
      Call(
        body: seed.world.json([
          "username": "newcomer", "password": "long-enough", "role": "member",
        ]), bearer: seed.admin.access)
    },
    "updateUser": { seed in
      let id = try await seed.world.user("promoted", role: "member")
      return Call(values: [id], body: seed.world.json(["role": "admin"]), bearer: seed.admin.access)
    },
    "deleteUser": { seed in
      let id = try await seed.world.user("leaver", role: "member")
      return Call(values: [id], bearer: seed.admin.access)
    },
    // An audited action first, so the page has entries.
    "auditLog": { seed in
      _ = try await seed.world.send(
        "POST", "/api/auth/api-keys", body: seed.world.json(["name": "audited"]),
        bearer: seed.admin.access)
      return Call(bearer: seed.admin.access)
    },
    "auditLogOptions": { seed in
      _ = try await seed.world.send(
        "POST", "/api/auth/api-keys", body: seed.world.json(["name": "audited-2"]),
        bearer: seed.admin.access)
      return Call(bearer: seed.admin.access)
    },
    // A failed sign-in first, so a login bucket exists.
    "rateLimits": { seed in
      _ = try await seed.world.send(
        "POST", "/api/mobile/auth/login",
        body: seed.world.json([
          "username": "ada", "password": "wrong", "installation_id": "INST-X",
          "device_name": "x",
        ]))
      return Call(bearer: seed.admin.access)
    },
    "resetRateLimits": { seed in Call(body: seed.world.json([:]), bearer: seed.admin.access) },
    // Downloaded first, so the status shows every key (the omitted-if-none ones too).
    "geoIPStatus": { seed in
      _ = try await seed.world.send("POST", "/api/geoip/download", bearer: seed.admin.access)
      return Call(bearer: seed.admin.access)
    },
    "asnStatus": { seed in
      _ = try await seed.world.send("POST", "/api/asn/download", bearer: seed.admin.access)
      return Call(bearer: seed.admin.access)
    },
    "downloadGeoIP": { seed in Call(bearer: seed.admin.access) },
    "downloadASN": { seed in Call(bearer: seed.admin.access) },
  ]

  // MARK: Traffic, cost and uptime

  /// Gives the seeded server a price, a billing cycle and a traffic limit, so the fleet views
  /// list it.
  private static func bill(_ seed: Seed) async throws {
    let set = try await seed.world.send(
      "PUT", "/api/servers/\(seed.serverID)",
      body: seed.world.json([
        "price": 12.0, "billing_cycle": "monthly", "currency": "EUR",
        "traffic_limit": 1_099_511_627_776,
      ]), bearer: seed.admin.access)
    guard set.status == 200 else { throw FixtureProblem("billing: \(set.text)") }
  }

  // MARK: Network probes

  /// The hour, or the day, before the seeded world's clock, as query values.
  private static func window(_ seed: Seed, seconds: Int64) -> [(String, String)] {
    let now = Int64(seed.world.clock.now.timeIntervalSince1970)
    return [
      ("from", RFC3339Timestamp(secondsSince1970: now - seconds).formatted(.zulu)),
      ("to", RFC3339Timestamp(secondsSince1970: now).formatted(.zulu)),
    ]
  }

  /// A custom probe target made through the API (it has no control route); its id.
  static func probeTarget(_ seed: Seed) async throws -> String {
    let made = try await seed.world.send(
      "POST", "/api/network-probes/targets",
      body: seed.world.json([
        "name": "Office", "provider": "ISP", "location": "Berlin",
        "target": "office.example.com:443", "probe_type": "tcp",
      ]),
      bearer: seed.admin.access)
    guard made.status == 200, let id = made.json?["data"]?["id"]?.stringValue else {
      throw FixtureProblem("create probe target: \(made.text)")
    }
    return id
  }

  static let networkProbes: [String: Recipe] = [
    "serverProbeSummary": { seed in Call(values: [seed.serverID], bearer: seed.admin.access) },
    "serverProbeTargets": { seed in Call(values: [seed.serverID], bearer: seed.admin.access) },
    "serverProbeRecords": { seed in
      Call(values: [seed.serverID], query: window(seed, seconds: 3600), bearer: seed.admin.access)
    },
    "serverProbeAnomalies": { seed in
      Call(
        values: [seed.serverID], query: window(seed, seconds: 86_400), bearer: seed.admin.access)
    },
    "probeOverview": { seed in Call(bearer: seed.admin.access) },
    "probeTargets": { seed in
      _ = try await probeTarget(seed)
      return Call(bearer: seed.admin.access)
    },
    "createProbeTarget": { seed in
      Call(
        body: seed.world.json([
          "name": "Edge", "provider": "Hetzner", "location": "Falkenstein",
          "target": "10.0.0.8", "probe_type": "icmp",
        ]), bearer: seed.admin.access)
    },
    "updateProbeTarget": { seed in
      Call(
        values: [try await probeTarget(seed)], body: seed.world.json(["name": "HQ"]),
        bearer: seed.admin.access)
    },
    "deleteProbeTarget": { seed in
      Call(values: [try await probeTarget(seed)], bearer: seed.admin.access)
    },
    // With a default target, so the list has an element to compare.
    "probeSetting": { seed in
      let set = try await seed.world.send(
        "PUT", "/api/network-probes/setting",
        body: seed.world.json([
          "interval": 60, "packet_count": 10, "default_target_ids": ["preset-google-dns"],
        ]), bearer: seed.admin.access)
      guard set.status == 200 else { throw FixtureProblem("probe setting: \(set.text)") }
      return Call(bearer: seed.admin.access)
    },
    "updateProbeSetting": { seed in
      Call(
        body: seed.world.json([
          "interval": 120, "packet_count": 10, "default_target_ids": ["preset-google-dns"],
        ]), bearer: seed.admin.access)
    },
  ]

  static let insights: [String: Recipe] = [
    "serverTraffic": { seed in
      try await bill(seed)
      return Call(values: [seed.serverID], bearer: seed.admin.access)
    },
    "serverCostInsights": { seed in
      try await bill(seed)
      return Call(values: [seed.serverID], bearer: seed.admin.access)
    },
    "serverUptimeDaily": { seed in
      Call(values: [seed.serverID], query: [("days", "30")], bearer: seed.admin.access)
    },
    "trafficOverview": { seed in
      try await bill(seed)
      return Call(bearer: seed.admin.access)
    },
    "trafficOverviewDaily": { seed in Call(query: [("days", "7")], bearer: seed.admin.access) },
    "costOverview": { seed in
      try await bill(seed)
      return Call(bearer: seed.admin.access)
    },
  ]

  // MARK: Traceroute

  /// A traceroute an admin started on the seeded server, followed to its end on the clock;
  /// its id.
  static func finishedTraceroute(_ seed: Seed) async throws -> String {
    let started = try await seed.world.send(
      "POST", "/api/servers/\(seed.serverID)/traceroute",
      body: seed.world.json(["target": "example.com", "protocol": "tcp"]),
      bearer: seed.admin.access)
    guard let id = started.json?["data"]?["request_id"]?.stringValue else {
      throw FixtureProblem("start traceroute: \(started.text)")
    }
    try await seed.world.control("POST", "/clock/advance", ["seconds": 20])
    return id
  }

  static let traceroute: [String: Recipe] = [
    "startTraceroute": { seed in
      Call(
        values: [seed.serverID], body: seed.world.json(["target": "1.1.1.1"]),
        bearer: seed.admin.access)
    },
    "traceroute": { seed in
      Call(values: [seed.serverID, try await finishedTraceroute(seed)], bearer: seed.admin.access)
    },
    "tracerouteHistory": { seed in
      _ = try await finishedTraceroute(seed)
      return Call(values: [seed.serverID], query: [("limit", "20")], bearer: seed.admin.access)
    },
    "deleteTraceroute": { seed in
      Call(values: [seed.serverID, try await finishedTraceroute(seed)], bearer: seed.admin.access)
    },
    "clearTraceroutes": { seed in
      _ = try await finishedTraceroute(seed)
      return Call(values: [seed.serverID], bearer: seed.admin.access)
    },
  ]

  // MARK: IP quality

  static let ipQuality: [String: Recipe] = [
    "ipQualityOverview": { seed in Call(bearer: seed.admin.access) },
    "serverIPQuality": { seed in Call(values: [seed.serverID], bearer: seed.admin.access) },
    "unlockServices": { seed in Call(bearer: seed.admin.access) },
    "updateUnlockService": { seed in
      Call(
        values: ["netflix"], body: seed.world.json(["enabled": false]),
        bearer: seed.admin.access)
    },
    "checkIPQuality": { seed in Call(values: [seed.serverID], bearer: seed.admin.access) },
    "deleteUnlockService": { seed in
      Call(values: ["custom-status-page"], bearer: seed.admin.access)
    },
    "ipQualitySettings": { seed in Call(bearer: seed.admin.access) },
    "updateIPQualitySettings": { seed in
      Call(body: seed.world.json(["check_interval_hours": 24]), bearer: seed.admin.access)
    },
  ]

  // MARK: Service monitors

  static let serviceMonitors: [String: Recipe] = [
    "serviceMonitors": { seed in Call(bearer: seed.admin.access) },
    "serviceMonitor": { seed in Call(values: ["http-status-page"], bearer: seed.admin.access) },
    "serviceMonitorRecords": { seed in
      Call(values: ["tcp-database"], query: [("limit", "50")], bearer: seed.admin.access)
    },
    "checkServiceMonitor": { seed in Call(values: ["dns-example"], bearer: seed.admin.access) },
  ]

  // MARK: Servers

  static let servers: [String: Recipe] = [
    "servers": { seed in Call(bearer: seed.admin.access) },
    "server": { seed in Call(values: [seed.serverID], bearer: seed.admin.access) },
    "records": { seed in
      Call(
        values: [seed.serverID],
        query: [
          ("from", "2027-01-15T07:00:00Z"), ("to", "2027-01-15T09:00:00Z"), ("interval", "raw"),
        ], bearer: seed.admin.access)
    },
    "serverGroups": { seed in Call(bearer: seed.admin.access) },
    // A plain value, a nullable one, and a pinned country.
    "updateServer": { seed in
      Call(
        values: [seed.serverID],
        body: seed.world.json([
          "name": "vps-renamed", "price": 4.5, "billing_cycle": "yearly", "country_code": "nl",
        ]), bearer: seed.admin.access)
    },
    // Tagged first, so the list has elements.
    "serverTags": { seed in
      let set = try await seed.world.send(
        "PUT", "/api/servers/\(seed.serverID)/tags", body: seed.world.json(["tags": ["db"]]),
        bearer: seed.admin.access)
      guard set.status == 200 else { throw FixtureProblem("tags: \(set.text)") }
      return Call(values: [seed.serverID], bearer: seed.admin.access)
    },
    "setServerTags": { seed in
      Call(
        values: [seed.serverID], body: seed.world.json(["tags": ["prod", " db", "prod"]]),
        bearer: seed.admin.access)
    },
    "createServerGroup": { seed in
      Call(body: seed.world.json(["name": "Staging"]), bearer: seed.admin.access)
    },
    "updateServerGroup": { seed in
      Call(values: [seed.groupID], body: seed.world.json(["weight": 7]), bearer: seed.admin.access)
    },
    "deleteServerGroup": { seed in
      let id = try await seed.world.controlString(
        "POST", "/server-groups", ["name": "Retired"], key: "id")
      return Call(values: [id], bearer: seed.admin.access)
    },
  ]

  // MARK: Alerts

  /// A rule covering the seeded server, fired on it: (rule id, alert key).
  static func firedRule(_ seed: Seed) async throws -> (String, String) {
    let rule = try await seed.world.controlString(
      "POST", "/alert-rules", ["name": "High CPU", "server_ids": [seed.serverID]], key: "id")
    let fired = try await seed.world.control(
      "POST", "/alerts/fire", ["server_id": seed.serverID, "rule_id": rule])
    guard let key = fired["alert_key"]?.stringValue else {
      throw FixtureProblem("fire: \(fired.text)")
    }
    return (rule, key)
  }

  static let alerts: [String: Recipe] = [
    "alertEvents": { seed in
      _ = try await firedRule(seed)
      return Call(bearer: seed.admin.access)
    },
    "alertEvent": { seed in
      let (_, key) = try await firedRule(seed)
      return Call(values: [key], bearer: seed.admin.access)
    },
    "alertRules": { seed in
      _ = try await firedRule(seed)
      return Call(bearer: seed.admin.access)
    },
    "alertRule": { seed in
      let (rule, _) = try await firedRule(seed)
      return Call(values: [rule], bearer: seed.admin.access)
    },
    "alertRuleStates": { seed in
      let (rule, _) = try await firedRule(seed)
      return Call(values: [rule], bearer: seed.admin.access)
    },
    "setAlertRule": { seed in
      let (rule, _) = try await firedRule(seed)
      return Call(
        values: [rule], body: seed.world.json(["enabled": false]), bearer: seed.admin.access)
    },
    "notificationChannels": { seed in
      try await seed.world.control("POST", "/notification-channels", ["name": "Ops webhook"])
      return Call(bearer: seed.admin.access)
    },
    "setNotificationChannel": { seed in
      let id = try await seed.world.controlString(
        "POST", "/notification-channels", ["name": "Pager"], key: "id")
      return Call(
        values: [id], body: seed.world.json(["enabled": false]), bearer: seed.admin.access)
    },
  ]

  // MARK: Tasks

  /// A scheduled task with one finished run on the seeded server; its id.
  static func ranTask(_ seed: Seed) async throws -> String {
    let id = try await seed.world.controlString(
      "POST", "/tasks",
      [
        "command": "uptime", "server_ids": [seed.serverID], "task_type": "scheduled",
        "name": "Nightly", "cron_expression": "0 0 3 * * *", "timeout": 600,
      ], key: "id")
    try await seed.world.control(
      "POST", "/tasks/\(id)/runs",
      ["outcomes": [["server_id": seed.serverID, "exit_code": 0] as [String: any Sendable]]])
    return id
  }

  static let tasks: [String: Recipe] = [
    "tasks": { seed in
      _ = try await ranTask(seed)
      return Call(bearer: seed.admin.access)
    },
    "task": { seed in Call(values: [try await ranTask(seed)], bearer: seed.admin.access) },
    "taskResults": { seed in Call(values: [try await ranTask(seed)], bearer: seed.admin.access) },
    "createTask": { seed in
      Call(
        body: seed.world.json([
          "command": "uptime", "server_ids": [seed.serverID], "task_type": "scheduled",
          "name": "Nightly", "cron_expression": "0 0 3 * * *", "timeout": 600,
        ]), bearer: seed.admin.access)
    },
    "updateTask": { seed in
      Call(
        values: [try await ranTask(seed)], body: seed.world.json(["enabled": false]),
        bearer: seed.admin.access)
    },
    "runTask": { seed in Call(values: [try await ranTask(seed)], bearer: seed.admin.access) },
    "deleteTask": { seed in Call(values: [try await ranTask(seed)], bearer: seed.admin.access) },
    "pingTasks": { seed in
      _ = try await pingTask(seed)
      return Call(bearer: seed.admin.access)
    },
    "createPingTask": { seed in
      Call(
        body: seed.world.json([
          "name": "Edge", "probe_type": "tcp", "target": "10.0.0.8:443", "interval": 30,
          "server_ids": [seed.serverID],
        ]), bearer: seed.admin.access)
    },
    "updatePingTask": { seed in
      Call(
        values: [try await pingTask(seed)], body: seed.world.json(["enabled": false]),
        bearer: seed.admin.access)
    },
    "deletePingTask": { seed in
      Call(values: [try await pingTask(seed)], bearer: seed.admin.access)
    },
  ]

  /// A ping task made through the API (it has no control route); its id.
  static func pingTask(_ seed: Seed) async throws -> String {
    let made = try await seed.world.send(
      "POST", "/api/ping-tasks",
      body: seed.world.json([
        "name": "DNS", "probe_type": "icmp", "target": "1.1.1.1", "server_ids": [seed.serverID],
      ]),
      bearer: seed.admin.access)
    guard made.status == 200, let id = made.json?["data"]?["id"]?.stringValue else {
      throw FixtureProblem("create ping task: \(made.text)")
    }
    return id
  }

  // MARK: Security

  /// A stored brute-force event on the seeded server; its id.
  static func securityEvent(_ seed: Seed) async throws -> String {
    try await seed.world.controlString(
      "POST", "/security-events",
      [
        "server_id": seed.serverID, "event_type": "ssh_brute_force", "severity": "high",
        "source_ip": "203.0.113.7", "source_port": 52144, "username": "root",
        "evidence": [
          "kind": "ssh_brute_force", "failed_count": 42, "distinct_users": 3,
          "sample_users": ["root", "admin"], "invalid_user_count": 2, "window_seconds": 60,
          "threshold": 10,
        ] as [String: any Sendable],
      ], key: "id")
  }

  static let security: [String: Recipe] = [
    "securityEvents": { seed in
      _ = try await securityEvent(seed)
      return Call(bearer: seed.admin.access)
    },
    "securityEvent": { seed in
      Call(values: [try await securityEvent(seed)], bearer: seed.admin.access)
    },
    "securityStats": { seed in
      _ = try await securityEvent(seed)
      return Call(query: [("group_by", "event_type")], bearer: seed.admin.access)
    },
    "deleteSecurityEvent": { seed in
      Call(values: [try await securityEvent(seed)], bearer: seed.admin.access)
    },
  ]

  // MARK: Firewall

  /// Two blocklist entries: one a security rule made (through the control API, an IPv6
  /// network) and one an admin added over the API with servers and a comment; the latter's id.
  /// The recipes share one world, so an entry an earlier recipe made is reused (a target is
  /// blocked once).
  static func firewallBlocks(_ seed: Seed) async throws -> String {
    _ = try? await seed.world.control(
      "POST", "/firewall/blocks",
      [
        "target": "2001:db8:abcd::/48", "origin_event_id": "3d2a9f1e-7c4b-4a8d-b6e5-0f9c2d1a8b73",
        "origin_rule_id": "a7e3b9c2-1d5f-4e8a-9b6c-2f0d4e7a1c95",
      ])
    let made = try await seed.world.send(
      "POST", "/api/firewall/blocks",
      body: seed.world.json([
        "target": "203.0.113.7", "cover_type": "include", "server_ids": [seed.serverID],
        "comment": "ssh scanner",
      ]),
      bearer: seed.admin.access)
    if made.status == 200, let id = made.json?["data"]?["id"]?.stringValue { return id }
    let listed = try await seed.world.send(
      "GET", "/api/firewall/blocks?target_q=203.0.113.7%2F32", bearer: seed.admin.access)
    guard let id = listed.json?["data"]?["items"]?.elements?.first?["id"]?.stringValue else {
      throw FixtureProblem("create firewall block: \(made.text); list: \(listed.text)")
    }
    return id
  }

  static let firewall: [String: Recipe] = [
    "firewallBlocks": { seed in
      _ = try await firewallBlocks(seed)
      return Call(bearer: seed.admin.access)
    },
    "createFirewallBlock": { seed in
      Call(
        body: seed.world.json(["target": "198.51.100.77/24", "comment": "botnet range"]),
        bearer: seed.admin.access)
    },
    "deleteFirewallBlock": { seed in
      Call(values: [try await firewallBlocks(seed)], bearer: seed.admin.access)
    },
    "firewallStats": { seed in
      _ = try await firewallBlocks(seed)
      return Call(bearer: seed.admin.access)
    },
  ]

  // MARK: Push

  /// A session of the admin on `installation` with push enabled (revision 1), and, when
  /// `register` is set, a device registered (revision 2), with a relay configured.
  static func pushSession(_ seed: Seed, _ installation: String, register: Bool) async throws
    -> SimulatorWorld.Session
  {
    let world = seed.world
    try await world.control("PUT", "/push/relay", ["url": "http://127.0.0.1:9"])
    let session = try await world.session(seed.adminID, installation: installation)
    let saved = try await world.send(
      "PUT", "/api/mobile/push/settings",
      body: world.json(["expected_revision": 0, "preferences": preferences]),
      bearer: session.access)
    guard saved.status == 200 else { throw FixtureProblem("push settings: \(saved.text)") }
    if register {
      let registered = try await world.send(
        "POST", "/api/mobile/push/encrypted-register",
        body: world.json(registration(session, revision: 1)), bearer: session.access)
      guard registered.status == 200 else {
        throw FixtureProblem("register: \(registered.text)")
      }
    }
    return session
  }

  static let preferences: [String: any Sendable] = [
    "enabled": true, "alerts": true, "security": true, "task_failure": false,
    "task_success": false,
  ]

  static func registration(_ session: SimulatorWorld.Session, revision: Int) -> [String:
    any Sendable]
  {
    [
      "expected_revision": revision, "device_token": String(repeating: "ab", count: 32),
      "environment": "sandbox", "content_key_id": "7f2d8c1e-4b3a-4c5d-9e6f-0a1b2c3d4e5f",
      "content_key": Data(repeating: 7, count: 32).base64EncodedString(),
      "deployment_id": "https://serverbee.test",
    ]
  }

  static let testEvent = "11111111-1111-4111-8111-111111111111"

  static let push: [String: Recipe] = [
    "settings": { seed in
      Call(bearer: try await pushSession(seed, "INST-PUSH-1", register: true).access)
    },
    "updateSettings": { seed in
      let session = try await seed.world.session(seed.adminID, installation: "INST-PUSH-2")
      return Call(
        body: seed.world.json(["expected_revision": 0, "preferences": preferences]),
        bearer: session.access)
    },
    "encryptedRegister": { seed in
      let session = try await pushSession(seed, "INST-PUSH-3", register: false)
      return Call(body: seed.world.json(registration(session, revision: 1)), bearer: session.access)
    },
    "sendTest": { seed in
      let session = try await pushSession(seed, "INST-PUSH-4", register: true)
      return Call(
        body: seed.world.json(["event_id": testEvent, "expected_revision": 2]),
        bearer: session.access)
    },
    "testStatus": { seed in
      let session = try await pushSession(seed, "INST-PUSH-5", register: true)
      let sent = try await seed.world.send(
        "POST", "/api/mobile/push/test",
        body: seed.world.json(["event_id": testEvent, "expected_revision": 2]),
        bearer: session.access)
      guard sent.status == 200 else { throw FixtureProblem("test push: \(sent.text)") }
      return Call(values: [testEvent], bearer: session.access)
    },
  ]

  // MARK: Incidents

  /// An incident made through the API; its id.
  static func incident(_ seed: Seed, _ title: String) async throws -> String {
    let made = try await seed.world.send(
      "POST", "/api/incidents",
      body: seed.world.json(["title": title, "server_ids_json": [seed.serverID]]),
      bearer: seed.admin.access)
    guard made.status == 200, let id = made.json?["data"]?["id"]?.stringValue else {
      throw FixtureProblem("create incident: \(made.text)")
    }
    return id
  }

  /// A maintenance window made through the API; its id.
  static func maintenance(_ seed: Seed, _ title: String) async throws -> String {
    let made = try await seed.world.send(
      "POST", "/api/maintenances",
      body: seed.world.json([
        "title": title, "description": "Reboots", "start_at": "2027-01-15T02:00:00Z",
        "end_at": "2027-01-15T03:00:00Z",
      ]), bearer: seed.admin.access)
    guard made.status == 200, let id = made.json?["data"]?["id"]?.stringValue else {
      throw FixtureProblem("create maintenance: \(made.text)")
    }
    return id
  }

  static let incidents: [String: Recipe] = [
    "incidents": { seed in
      _ = try await incident(seed, "Listed")
      return Call(bearer: seed.admin.access)
    },
    "createIncident": { seed in
      Call(
        body: seed.world.json([
          "title": "API latency", "severity": "major", "server_ids_json": [seed.serverID],
          "is_public": true,
        ]), bearer: seed.admin.access)
    },
    "postIncidentUpdate": { seed in
      let id = try await incident(seed, "Updated")
      return Call(
        values: [id], body: seed.world.json(["status": "resolved", "message": "Fixed."]),
        bearer: seed.admin.access)
    },
    "deleteIncident": { seed in
      Call(values: [try await incident(seed, "Deleted")], bearer: seed.admin.access)
    },
    "maintenances": { seed in
      _ = try await maintenance(seed, "Listed")
      return Call(bearer: seed.admin.access)
    },
    "createMaintenance": { seed in
      Call(
        body: seed.world.json([
          "title": "Kernel upgrade", "start_at": "2027-01-15T02:00:00Z",
          "end_at": "2027-01-15T04:00:00+01:00", "server_ids_json": [seed.serverID],
        ]), bearer: seed.admin.access)
    },
    "updateMaintenance": { seed in
      let id = try await maintenance(seed, "Edited")
      return Call(
        values: [id], body: seed.world.json(["description": "", "active": false]),
        bearer: seed.admin.access)
    },
    "deleteMaintenance": { seed in
      Call(values: [try await maintenance(seed, "Deleted")], bearer: seed.admin.access)
    },
    "statusPage": { seed in Call(bearer: seed.admin.access) },
    "updateStatusPage": { seed in
      Call(
        body: seed.world.json([
          "title": "Acme status", "server_ids": [seed.serverID], "uptime_yellow_threshold": 99.5,
        ]), bearer: seed.admin.access)
    },
  ]

  // MARK: Agents

  /// A server added through `POST /api/servers`: (server id, its first offer's id).
  static func addedServer(_ seed: Seed, _ requestID: String) async throws -> (String, String) {
    let created = try await seed.world.send(
      "POST", "/api/servers",
      body: seed.world.json(["onboarding_request_id": requestID, "name": "edge-\(requestID)"]),
      bearer: seed.admin.access)
    guard created.status == 200, let data = created.json?["data"],
      let server = data["server_id"]?.stringValue,
      let offer = data["enrollment"]?["id"]?.stringValue
    else { throw FixtureProblem("createServer: \(created.text)") }
    return (server, offer)
  }

  static let agents: [String: Recipe] = [
    "createServer": { seed in
      Call(
        body: seed.world.json(["onboarding_request_id": "fixture-create", "name": " edge-1 "]),
        bearer: seed.admin.access)
    },
    // Its first offer revoked, so a new one may be issued.
    "issueEnrollment": { seed in
      let (server, offer) = try await addedServer(seed, "fixture-issue")
      let revoked = try await seed.world.send(
        "DELETE", "/api/servers/\(server)/agent-authority/offers/\(offer)",
        bearer: seed.admin.access)
      guard revoked.status == 200 else { throw FixtureProblem("revoke: \(revoked.text)") }
      return Call(values: [server], body: seed.world.json([:]), bearer: seed.admin.access)
    },
    "replaceEnrollment": { seed in
      let (server, offer) = try await addedServer(seed, "fixture-replace")
      return Call(values: [server, offer], body: seed.world.json([:]), bearer: seed.admin.access)
    },
    "revokeEnrollment": { seed in
      let (server, offer) = try await addedServer(seed, "fixture-revoke")
      return Call(values: [server, offer], bearer: seed.admin.access)
    },
    // The seeded server's agent is claimed.
    "reEnroll": { seed in
      Call(
        values: [seed.serverID], body: seed.world.json(["mode": "graceful"]),
        bearer: seed.admin.access)
    },
    "revokeAgentAuthority": { seed in
      let (server, _) = try await addedServer(seed, "fixture-revoke-agent")
      return Call(values: [server], bearer: seed.admin.access)
    },
    "latestAgentVersion": { seed in Call(bearer: seed.admin.access) },
    "deleteServer": { seed in
      let (server, _) = try await addedServer(seed, "fixture-delete")
      return Call(values: [server], bearer: seed.admin.access)
    },
    "upgradeAgent": { seed in
      Call(
        values: [seed.serverID], body: seed.world.json(["version": "v1.5.0"]),
        bearer: seed.admin.access)
    },
  ]
}
