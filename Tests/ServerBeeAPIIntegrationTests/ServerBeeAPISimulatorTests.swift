import AuthSession
import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport
import Testing

/// Every route against the simulator over loopback, signed in with AuthClient and sent through
/// AuthorizedHTTPTransport.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeAPISimulatorTests {
  @Test func serversDetailRecordsAndGroups() async throws {
    let peer = try APISimulatorPeer()
    let admin = try await peer.signIn("ada")
    let group = try #require(
      try await peer.control(.post, "/server-groups", ["name": "Production", "weight": 5])["id"]?
        .stringValue)
    let id = try await peer.createServer(
      ["name": "vps-a", "cpu_cores": 4, "group_id": group, "online": true])
    try await peer.control(.post, "/servers/\(id)/metrics", ["cpu": 12.5])
    peer.advance(seconds: 60)
    try await peer.control(.post, "/servers/\(id)/metrics", ["cpu": 50.0])

    let servers = try await admin.api.servers()
    #expect(servers.map(\.id) == [id])
    let server = try await admin.api.server(id: id)
    #expect(server.name == "vps-a" && server.cpuCores == 4 && server.groupID == group)
    #expect(await apiErrorCode { _ = try await admin.api.server(id: "missing") } == .notFound)

    let start = RFC3339Timestamp(APISimulatorPeer.start.addingTimeInterval(-3600))
    let end = RFC3339Timestamp(APISimulatorPeer.start.addingTimeInterval(3600))
    let records = try await admin.api.records(serverID: id, from: start, to: end, interval: .raw)
    #expect(records.map(\.cpu) == [12.5, 50.0])
    #expect(records.allSatisfy { $0.serverID == id })
    #expect(try await admin.api.records(serverID: "missing", from: start, to: end).isEmpty)

    let groups = try await admin.api.serverGroups()
    #expect(groups.map(\.name) == ["Production"])
    #expect(groups.first?.id == group)
  }

  @Test func alertEventsDetailByEitherKeyAndNewCycles() async throws {
    let peer = try APISimulatorPeer()
    let member = try await peer.signIn("grace", role: "member")
    let server = try await peer.createServer(["name": "vps-a"])
    let fired = try await peer.control(
      .post, "/alerts/fire", ["server_id": server, "rule_name": "High CPU"])
    let ruleID = try #require(fired["rule_id"]?.stringValue)
    let key = try #require(fired["alert_key"]?.stringValue)

    let events = try await member.api.alertEvents(limit: 10)
    #expect(events.count == 1)
    let event = try #require(events.first)
    #expect(event.alertKey == key && event.status == .firing && event.ruleName == "High CPU")

    let byV1Key = try await member.api.alertEvent(key: event.detailKey)
    #expect(byV1Key.alertKey == key && byV1Key.status == .firing && byV1Key.triggerCount == 1)
    let byLegacyKey = try await member.api.alertEvent(
      try AlertKey(legacyRuleID: ruleID, serverID: server))
    #expect(byLegacyKey.alertKey == "\(ruleID):\(server)" && byLegacyKey.ruleID == ruleID)
    #expect(
      await apiErrorCode { _ = try await member.api.alertEvent(key: "nocolon") } == .badRequest)

    try await peer.control(.post, "/alerts/resolve", ["rule_id": ruleID, "server_id": server])
    #expect(try await member.api.alertEvents().map(\.status) == [.resolved])
    #expect(try await member.api.alertEvent(key: key).status == .resolved)

    // A new cycle gets a new key; the old key never opens it.
    peer.advance(seconds: 120)
    try await peer.control(.post, "/alerts/fire", ["server_id": server, "rule_id": ruleID])
    let newKey = try #require(try await member.api.alertEvents().first?.alertKey)
    #expect(newKey != key)
    #expect(await apiErrorCode { _ = try await member.api.alertEvent(key: key) } == .notFound)
    #expect(try await member.api.alertEvent(key: newKey).status == .firing)
  }

  @Test func securityRuleAlertsNeedTheV1Key() async throws {
    let peer = try APISimulatorPeer()
    let admin = try await peer.signIn("ada")
    let server = try await peer.createServer(["name": "vps-a"])
    let fired = try await peer.control(
      .post, "/alerts/fire",
      [
        "server_id": server, "rule_type": "ssh_brute_force_detected", "source_ip": "203.0.113.7",
        "rule_name": "Brute force",
      ])
    let ruleID = try #require(fired["rule_id"]?.stringValue)
    let key = try #require(fired["alert_key"]?.stringValue)
    #expect(try await admin.api.alertEvent(key: key).ruleName == "Brute force")
    #expect(
      await apiErrorCode { _ = try await admin.api.alertEvent(key: "\(ruleID):\(server)") }
        == .notFound)
  }

  @Test func alertRulesAreAdminOnly() async throws {
    let peer = try APISimulatorPeer()
    let admin = try await peer.signIn("ada")
    let member = try await peer.signIn("grace", role: "member")
    let server = try await peer.createServer(["name": "vps-a"])
    let fired = try await peer.control(
      .post, "/alerts/fire", ["server_id": server, "rule_name": "High CPU"])
    let rules = try await admin.api.alertRules()
    #expect(rules.map(\.id) == [fired["rule_id"]?.stringValue])
    #expect(rules.first?.ruleTypes == ["cpu"])
    #expect(await apiErrorCode { _ = try await member.api.alertRules() } == .forbidden)
    let ruleID = try #require(rules.first?.id)
    #expect(try await admin.api.alertRule(id: ruleID).name == rules.first?.name)
    #expect(await apiErrorCode { _ = try await admin.api.alertRule(id: "nope") } == .notFound)
    // The toggle (Protocol/Alerts.md §6.2) answers the rule as it now is.
    let disabled = try await admin.api.setAlertRule(id: ruleID, enabled: false)
    #expect(disabled.id == ruleID && !disabled.enabled)
    #expect(try await admin.api.alertRules().first?.enabled == false)
    #expect(
      await apiErrorCode { _ = try await member.api.setAlertRule(id: ruleID, enabled: true) }
        == .forbidden)
  }

  @Test func tasksDetailResultsAndRunsForAnAdmin() async throws {
    let peer = try APISimulatorPeer()
    let admin = try await peer.signIn("ada")
    let one = try await peer.createServer(["name": "a"])
    let two = try await peer.createServer(["name": "b"])
    let created = try await peer.control(
      .post, "/tasks",
      [
        "command": "uptime", "server_ids": [one, two], "task_type": "scheduled",
        "name": "nightly", "cron_expression": "0 0 3 * * *",
      ])
    let taskID = try #require(created["data"]?["id"]?.stringValue)
    let first = try await peer.control(
      .post, "/tasks/\(taskID)/runs",
      ["outcomes": [["server_id": one, "exit_code": 0], ["server_id": two, "exit_code": 1]]])
    peer.advance(seconds: 60)
    let second = try await peer.control(
      .post, "/tasks/\(taskID)/runs", ["outcomes": [["server_id": one, "exit_code": 0]]])
    let firstRun = try #require(first["run_id"]?.stringValue)
    let secondRun = try #require(second["run_id"]?.stringValue)

    let tasks = try await admin.api.tasks()
    #expect(tasks.map(\.id) == [taskID])
    #expect(try await admin.api.tasks(type: .scheduled).map(\.id) == [taskID])
    #expect(try await admin.api.tasks(type: .oneshot).isEmpty)
    let task = try await admin.api.task(id: taskID)
    #expect(task.name == "nightly" && task.serverIDs == [one, two] && task.taskType == .scheduled)
    #expect(await apiErrorCode { _ = try await admin.api.task(id: "missing") } == .notFound)

    let all = try await admin.api.taskResults(taskID: taskID)
    #expect(Set(all.compactMap(\.runID)) == [firstRun, secondRun])
    let run = try await admin.api.taskResults(taskID: taskID, runID: firstRun)
    #expect(run.allSatisfy { $0.runID == firstRun })
    #expect(Set(run.map(\.serverID)) == [one, two])
    #expect(TaskRun(runID: firstRun, results: run).summary.failed == 1)
    #expect(
      await apiErrorCode { _ = try await admin.api.taskResults(taskID: taskID, runID: "nope") }
        == .notFound)
  }

  @Test func aMemberGetsTheAdminGateOnEveryTaskRoute() async throws {
    let peer = try APISimulatorPeer()
    let member = try await peer.signIn("grace", role: "member")
    do {
      _ = try await member.api.tasks()
      Issue.record("a member listed tasks")
    } catch let error as ServerBeeAPIError {
      #expect(error.code == .forbidden)
      #expect(error.httpStatus == 403)
      #expect(error.apiFailure?.body == .empty)
    }
    #expect(await apiErrorCode { _ = try await member.api.task(id: "t") } == .forbidden)
    #expect(await apiErrorCode { _ = try await member.api.taskResults(taskID: "t") } == .forbidden)
    #expect(
      await apiErrorCode { _ = try await member.api.taskResults(taskID: "t", runID: "r") }
        == .forbidden)
  }

  @Test func securityEventsPageThroughEveryCursorAndDetailStatsDelete() async throws {
    let peer = try APISimulatorPeer()
    let admin = try await peer.signIn("ada")
    let member = try await peer.signIn("grace", role: "member")
    let server = try await peer.createServer(["name": "vps-a"])
    var created: [String] = []
    for index in 0..<5 {
      let event = try await peer.control(
        .post, "/security-events",
        [
          "server_id": server, "event_type": index < 3 ? "ssh_login" : "port_scan",
          "severity": index == 4 ? "high" : "info", "source_ip": "203.0.113.\(index + 1)",
        ])
      created.append(try #require(event["data"]?["id"]?.stringValue))
      peer.advance(seconds: 10)
    }

    var pages: [SecurityEventPage] = []
    for try await page in member.api.securityEvents(SecurityEventQuery(pageSize: 2)) {
      pages.append(page)
    }
    #expect(pages.map(\.items.count) == [2, 2, 1])
    #expect(pages.last?.nextCursor == nil)
    #expect(pages.flatMap(\.items).map(\.id) == Array(created.reversed()))

    let filtered = try await member.api.securityEventPage(
      SecurityEventQuery(serverID: server, eventType: .portScan))
    #expect(filtered.items.count == 2 && filtered.nextCursor == nil)
    let high = try await member.api.securityEventPage(SecurityEventQuery(severity: .high))
    #expect(high.items.map(\.sourceIP) == ["203.0.113.5"])
    #expect(
      await apiErrorCode { _ = try await member.api.securityEventPage(cursor: "garbage!") }
        == .badRequest)

    let detail = try await member.api.securityEvent(id: created[0])
    #expect(detail.serverID == server && detail.eventType == .sshLogin)

    let byType = try await member.api.securityStats(groupedBy: .eventType)
    #expect(
      byType == [SecurityStatsEntry(key: "ssh_login", count: 3), .init(key: "port_scan", count: 2)])
    #expect(try await member.api.securityStats(groupedBy: .sourceIP, limit: 2).count == 2)
    #expect(
      await apiErrorCode {
        _ = try await member.api.securityStats(groupedBy: SecurityStatsGrouping(rawValue: "week"))
      } == .badRequest)

    #expect(
      await apiErrorCode { try await member.api.deleteSecurityEvent(id: created[0]) } == .forbidden)
    try await admin.api.deleteSecurityEvent(id: created[0])
    #expect(
      await apiErrorCode { _ = try await admin.api.securityEvent(id: created[0]) } == .notFound)
  }

  @Test func currentUserDevicesAndRevoke() async throws {
    let peer = try APISimulatorPeer()
    let phone = try await peer.signIn("ada", device: "Ada's iPhone")
    let tablet = try await peer.signIn("ada", create: false, device: "Ada's iPad")
    let other = try await peer.signIn("grace", role: "member")

    let me = try await phone.api.currentUser()
    #expect(me.username == "ada" && me.role == .admin && !me.mustChangePassword)
    #expect(me.userID == phone.identity.user.id)

    let devices = try await phone.api.devices()
    #expect(Set(devices.map(\.deviceName)) == ["Ada's iPhone", "Ada's iPad"])
    let tabletDevice = try #require(
      devices.first { $0.installationID == tablet.identity.installationID })
    #expect(tabletDevice.id == tablet.identity.mobileSessionID)

    // Another user's device: 403 even for an admin. An unknown id: 404.
    let otherDevice = try #require(try await other.api.devices().first)
    #expect(
      await apiErrorCode { try await phone.api.revokeDevice(id: otherDevice.id) } == .forbidden)
    #expect(await apiErrorCode { try await phone.api.revokeDevice(id: "missing") } == .notFound)

    try await phone.api.revokeDevice(id: tabletDevice.id)
    #expect(try await phone.api.devices().map(\.deviceName) == ["Ada's iPhone"])
    // The revoked session's token is gone; the decorator's one refresh is refused too, and
    // its AuthSessionError arrives wrapped, as the cause.
    do {
      _ = try await tablet.api.currentUser()
      Issue.record("a revoked device still reads its user")
    } catch let error as ServerBeeAPIError {
      #expect(error.code == .transport)
      #expect(error.underlying is AuthSessionError)
      #expect(!error.isTransient)
    }
  }
}

/// The account and administration routes against the simulator, end to end over loopback.
@Suite(.timeLimit(.minutes(5))) struct AccountSimulatorTests {
  /// Protocol/Account.md §1: the other mobile session ends; the caller's own keeps working and its
  /// refresh token stays valid.
  @Test func changingThePasswordEndsTheOtherSessionsButNotTheCallers() async throws {
    let peer = try APISimulatorPeer()
    let mine = try await peer.signIn("ada")
    let other = try await peer.signIn("ada", create: false, device: "Tablet")
    try await mine.api.changePassword(from: "pw", to: "correct horse")
    _ = try await mine.api.currentUser()
    _ = try await mine.auth.refresh()
    _ = try await mine.api.currentUser()
    let error = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await other.api.currentUser()
    }
    // Its 401 made AuthorizedHTTPTransport refresh, and the refresh was refused: the session's
    // own error comes back, wrapped once.
    #expect(error.code == .transport)
    #expect(error.underlying is AuthSessionError)
  }

  @Test func aWrongCurrentPasswordIsTheServersBadRequest() async throws {
    let peer = try APISimulatorPeer()
    let session = try await peer.signIn("ada")
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await session.api.changePassword(from: "nope", to: "correct horse")
    }
    #expect(error.code == .badRequest)
    #expect(error.message == "PUT /api/auth/password: Bad request: Current password is incorrect")
  }

  /// The bot's path: an admin creates a key once; a client built on it alone reads the audit
  /// log and its keys with `X-API-Key`, and a deleted key is an empty-body 401 (`.unauthorized`).
  @Test func anAPIKeyClientWorksWithoutASessionUntilTheKeyIsDeleted() async throws {
    let peer = try APISimulatorPeer()
    let admin = try await peer.signIn("ada")
    let created = try await admin.api.createAPIKey(name: "dashboard")
    let key = try APIKey(try #require(created.key))
    let bot = ServerBeeAPIClient(server: admin.identity.server, apiKey: key, transport: peer.wire)
    #expect(try await bot.currentUser().username == "ada")
    #expect(try await bot.apiKeys().map(\.name) == ["dashboard"])
    let page = try await bot.auditLog(limit: 10, action: "api_key.create")
    #expect(page.total == 1 && page.entries.first?.detail == "dashboard")
    try await admin.api.deleteAPIKey(id: created.id)
    let error = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await bot.currentUser()
    }
    #expect(error.code == .apiKeyRejected)
  }

  @Test func anAdminManagesUsersThroughTheClient() async throws {
    let peer = try APISimulatorPeer()
    let admin = try await peer.signIn("ada")
    let bob = try await admin.api.createUser(username: "bob", password: "long-enough")
    #expect(bob.role == .member)
    let promoted = try await admin.api.updateUser(id: bob.id, role: .admin)
    #expect(promoted.role == .admin)
    #expect(try await admin.api.users().map(\.username) == ["ada", "bob"])
    try await admin.api.deleteUser(id: bob.id)
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await admin.api.deleteUser(id: bob.id)
    }
    #expect(error.code == .notFound)
    let member = try await peer.signIn("eve", role: "member")
    let refused = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await member.api.users()
    }
    #expect(refused.code == .forbidden)
  }
}
