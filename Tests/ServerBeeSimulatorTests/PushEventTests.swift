import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// The pushes events produce (Protocol/Push.md §4): alert triggers and recoveries, finished task
/// runs and admitted security events. No workers run, so admission is what the outbox shows; every
/// push is decrypted with the device's key, checked whole, opened for delivery and tap, and
/// rendered.
@Suite(.timeLimit(.minutes(5))) struct PushEventTests {
  static let start: Int64 = 1_800_000_000  // 2027-01-15T08:00:00Z, the harness default

  func harness() throws -> Harness {
    try Harness { $0.relayURL = Harness.relayPlaceholder }
  }

  func server(_ h: Harness, _ name: String = "vps-a") async throws -> String {
    try #require(await h.control(.post, "/servers", ["name": name])?["data"]?["id"]?.stringValue)
  }

  func rule(_ h: Harness, _ fields: [String: Any]) async throws -> String {
    try #require(await h.control(.post, "/alert-rules", fields)?["id"]?.stringValue)
  }

  func pushes(_ answer: JSONValue?) -> Int { Int(answer?["pushes"]?.numberValue ?? -1) }

  /// Every event id in the outbox, oldest first, with its kind.
  func queued(_ h: Harness) async -> [(eventID: String, kind: String, installation: String)] {
    await h.outbox().map {
      (
        $0["event_id"]?.stringValue ?? "", $0["kind"]?.stringValue ?? "",
        $0["installation_id"]?.stringValue ?? ""
      )
    }
  }

  /// Opens the stored envelope for `device` for delivery and for a tap (both must accept it and
  /// agree), and returns the delivery result.
  func opened(_ h: Harness, _ device: PushDevice, _ eventID: String) throws
    -> ValidatedPushContent
  {
    let envelope = try #require(
      try h.storedEnvelope(eventID: eventID, installation: device.installation))
    let now = h.clock.now
    let delivery = try device.open(envelope, at: now)
    let opener = PushEnvelopeOpener(now: { now })
    let tap = try opener.open(envelope, with: device.key, for: .tap)
    #expect(tap.content == delivery.content)
    #expect(opener.tapTarget(for: envelope, with: device.key) == delivery.tapTarget)
    #expect(delivery.keyID == device.key.keyID)
    return delivery
  }

  func expectBase(
    _ content: PushContent, _ device: PushDevice, kind: PushContentKind, eventID: String,
    createdAt: Int64
  ) {
    #expect(content.kind == kind)
    #expect(content.deploymentID == Harness.deployment)
    #expect(content.userID == device.tokens.userID)
    #expect(content.installationID == device.installation)
    #expect(content.eventID == eventID)
    #expect(content.createdAt == createdAt)
    #expect(content.expiresAt == createdAt + 1800)
  }

  func expectText(
    _ validated: ValidatedPushContent, _ english: (String, String), _ chinese: (String, String)
  ) {
    let en = PushNotificationRenderer(language: .english).render(validated)
    let zh = PushNotificationRenderer(language: .simplifiedChinese).render(validated)
    #expect(!en.isFallback && en.title == english.0 && en.body == english.1)
    #expect(!zh.isFallback && zh.title == chinese.0 && zh.body == chinese.1)
  }

  // MARK: Alert event ids, recomputed independently

  /// `["alert", key, status, repeat]` written by hand, hashed by ``ReferenceSHA256``.
  static func alertEventID(_ key: String, _ status: String, _ repeatText: String) -> String {
    let json = #"["alert",""# + key + #"",""# + status + #"",""# + repeatText + #""]"#
    let hex = ReferenceSHA256.digest(Array(json.utf8)).prefix(16)
      .map { String(format: "%02x", $0) }.joined()
    let chars = Array(hex)
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }
      .joined(separator: "-")
  }

  /// RFC 3339 with `+00:00` for whole seconds.
  static func rfc3339(_ seconds: Int64) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))) + "+00:00"
  }

  @Test func referenceSHA256MatchesTheKnownAnswers() {
    let hex = { (text: String) in
      ReferenceSHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hex(String(repeating: "a", count: 100))
        == "2816597888e4a0d3a36b82b83316ab32680eb8f00f8cd3b904d681246d285a0e")
    #expect(Self.rfc3339(Self.start) == "2027-01-15T08:00:00+00:00")
  }

  // MARK: Alerts

  @Test func aOnceRulePushesOnlyTheFirstTriggerOfACycle() async throws {
    let h = try harness()
    let admin = try await h.pushDevice("admin")
    let server = try await server(h)
    let ruleID = try await rule(h, ["name": "High CPU", "trigger_mode": "once"])
    let first = await h.control(.post, "/alerts/fire", ["server_id": server, "rule_id": ruleID])
    #expect(pushes(first) == 1)
    let key = try #require(first?["alert_key"]?.stringValue)
    let eventID = Self.alertEventID(key, "firing", "")
    let validated = try opened(h, admin, eventID)
    expectBase(validated.content, admin, kind: .alert, eventID: eventID, createdAt: Self.start)
    #expect(
      validated.content.alert
        == PushAlertSummary(
          alertKey: key, status: .firing, ruleName: "High CPU", serverName: "vps-a"))
    #expect(validated.content.taskRun == nil && validated.content.serverID == nil)
    #expect(validated.content.securityEventID == nil && validated.content.securityEventType == nil)
    guard case .alertDetail(let target) = validated.tapTarget else {
      Issue.record("tap target \(validated.tapTarget)")
      return
    }
    #expect(target.text == key)
    expectText(validated, ("Alert triggered", "High CPU on vps-a"), ("告警已触发", "High CPU（vps-a）"))
    for _ in 0..<3 {
      h.clock.advance(by: 400)
      let again = await h.control(.post, "/alerts/fire", ["server_id": server, "rule_id": ruleID])
      #expect(pushes(again) == 0)
      #expect(again?["alert_key"]?.stringValue == key)
    }
    #expect(await queued(h).count == 1)
  }

  @Test func anAlwaysRuleIsDebouncedFiveMinutesFromItsLastNotification() async throws {
    let h = try harness()
    let admin = try await h.pushDevice("admin")
    let server = try await server(h)
    let body: [String: Any] = ["server_id": server, "rule_id": "rule-1", "rule_name": "Disk"]
    let first = await h.control(.post, "/alerts/fire", body)
    #expect(pushes(first) == 1)
    let key = try #require(first?["alert_key"]?.stringValue)
    h.clock.advance(by: 299)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 0)
    h.clock.advance(by: 1)
    let third = await h.control(.post, "/alerts/fire", body)
    #expect(pushes(third) == 1)
    #expect(third?["alert_key"]?.stringValue == key)  // same cycle, same key
    #expect(third?["count"]?.numberValue == 3)
    // The anchor moved to the second notification: 299 s after it is still quiet.
    h.clock.advance(by: 299)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 0)
    h.clock.advance(by: 1)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 1)
    let times = [Self.start, Self.start + 300, Self.start + 600]
    let ids = times.map { Self.alertEventID(key, "firing", Self.rfc3339($0)) }
    #expect(await queued(h).map(\.eventID) == ids)
    for (eventID, time) in zip(ids, times) {
      let validated = try opened(h, admin, eventID)
      expectBase(validated.content, admin, kind: .alert, eventID: eventID, createdAt: time)
      #expect(validated.content.alert?.status == .firing)
      #expect(validated.content.alert?.alertKey == key)
    }
  }

  @Test func theRepeatPartCarriesTheTriggerFractionInThePlusZeroForm() async throws {
    let h = try harness()
    _ = try await h.pushDevice("admin")
    let server = try await server(h)
    h.clock.advance(by: 0.25)
    let fired = await h.control(.post, "/alerts/fire", ["server_id": server, "rule_id": "r"])
    let key = try #require(fired?["alert_key"]?.stringValue)
    let expected = Self.alertEventID(key, "firing", "2027-01-15T08:00:00.250+00:00")
    #expect(await queued(h).map(\.eventID) == [expected])
    // The id is a hash, not a forced v4 UUID, but always lowercase and hyphenated.
    #expect(expected == expected.lowercased() && UUID(uuidString: expected) != nil)
    #expect(
      await h.outbox().first?["created_at"]?.numberValue == Double(Self.start))  // rounded down
  }

  @Test func recoveryPushesOnceOnTheFiringToResolvedEdge() async throws {
    let h = try harness()
    let member = try await h.pushDevice("bob", role: "member", installation: "INST-2", seed: 2)
    let server = try await server(h)
    let body: [String: Any] = ["server_id": server, "rule_id": "rule-1"]
    let key = try #require(await h.control(.post, "/alerts/fire", body)?["alert_key"]?.stringValue)
    h.clock.advance(by: 90)
    let resolved = await h.control(.post, "/alerts/resolve", body)
    #expect(resolved?["resolved"]?.numberValue == 1)
    #expect(pushes(resolved) == 1)
    let again = await h.control(.post, "/alerts/resolve", body)
    #expect(again?["resolved"]?.numberValue == 0)
    #expect(pushes(again) == 0)
    let eventID = Self.alertEventID(key, "resolved", "")
    let validated = try opened(h, member, eventID)
    expectBase(
      validated.content, member, kind: .alert, eventID: eventID, createdAt: Self.start + 90)
    #expect(
      validated.content.alert
        == PushAlertSummary(
          alertKey: key, status: .resolved, ruleName: "High CPU", serverName: "vps-a"))
    expectText(
      validated, ("Alert recovered", "High CPU on vps-a"), ("告警已恢复", "High CPU（vps-a）"))
    // A new cycle has a new key, so its pushes have new ids.
    h.clock.advance(by: 60)
    let refired = await h.control(.post, "/alerts/fire", body)
    #expect(pushes(refired) == 1)
    #expect(refired?["alert_key"]?.stringValue != key)
    #expect(await queued(h).count == 3)
  }

  @Test func maintenanceSuppressesTriggersButNotRecoveries() async throws {
    let h = try harness()
    let admin = try await h.pushDevice("admin")
    let covered = try await server(h, "vps-a")
    let other = try await server(h, "vps-b")
    let window = try #require(
      await h.control(
        .post, "/maintenance",
        ["server_id": covered, "starts_at": Self.start - 10, "ends_at": Self.start + 600]))
    let windowID = try #require(window["id"]?.stringValue)
    let body: [String: Any] = ["server_id": covered, "rule_id": "rule-1"]
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 0)
    #expect(
      pushes(await h.control(.post, "/alerts/fire", ["server_id": other, "rule_id": "rule-1"]))
        == 1)
    h.clock.advance(by: 30)
    let resolved = await h.control(.post, "/alerts/resolve", body)
    #expect(pushes(resolved) == 1)
    // A window for every server (null) suppresses the other server too.
    _ = await h.control(
      .post, "/maintenance",
      ["server_id": NSNull(), "starts_at": Self.start, "ends_at": Self.start + 60])
    h.clock.advance(by: 301)
    #expect(
      pushes(await h.control(.post, "/alerts/fire", ["server_id": other, "rule_id": "rule-1"]))
        == 1)  // that window ended at +60
    // Deleting the window lifts it: a cycle that never notified pushes at its next trigger.
    let key = try #require(await h.control(.post, "/alerts/fire", body)?["alert_key"]?.stringValue)
    #expect(await h.control(.delete, "/maintenance/\(windowID)")?["deleted"]?.boolValue == true)
    h.clock.advance(by: 1)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 1)
    let eventID = Self.alertEventID(key, "firing", Self.rfc3339(Self.start + 332))
    let validated = try opened(h, admin, eventID)
    #expect(validated.content.createdAt == Self.start + 332)
    #expect(validated.content.alert?.serverName == "vps-a")
  }

  @Test func aMaintenanceWindowEndsAtItsEndTime() async throws {
    let h = try harness()
    _ = try await h.pushDevice("admin")
    let server = try await server(h)
    _ = await h.control(
      .post, "/maintenance",
      ["server_id": server, "starts_at": Self.start + 10, "ends_at": Self.start + 20])
    let body: [String: Any] = ["server_id": server, "rule_id": "r", "trigger_mode": "once"]
    h.clock.advance(by: 10)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 0)  // starts_at included
    _ = await h.control(.post, "/alerts/resolve", body)
    h.clock.advance(by: 10)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 1)  // ends_at excluded
    let bad = await h.send(
      .post, "/__simulator/maintenance", raw: try self.body(["starts_at": 5, "ends_at": 5]),
      control: true)
    #expect(bad.status == 422)
  }

  @Test func disabledRulesNeverPushUntilEnabled() async throws {
    let h = try harness()
    _ = try await h.pushDevice("admin")
    let server = try await server(h)
    let ruleID = try await rule(h, ["name": "Load", "enabled": false])
    let body: [String: Any] = ["server_id": server, "rule_id": ruleID]
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 0)
    #expect(pushes(await h.control(.post, "/alerts/resolve", body)) == 0)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 0)
    let enabled = await h.control(.patch, "/alert-rules/\(ruleID)", ["enabled": true])
    #expect(enabled?["enabled"]?.boolValue == true)
    #expect(pushes(await h.control(.post, "/alerts/fire", body)) == 1)
    _ = await h.control(.patch, "/alert-rules/\(ruleID)", ["enabled": false])
    #expect(pushes(await h.control(.post, "/alerts/resolve", body)) == 0)
    #expect(await queued(h).count == 1)
  }

  @Test(arguments: ["ssh_new_ip_login", "ssh_brute_force_detected", "port_scan_detected"])
  func securityRuleTypesNeverProduceAnAlertPush(_ type: String) async throws {
    let h = try harness()
    _ = try await h.pushDevice(
      "admin", preferences: h.preferencesJSON(alerts: true, security: true))
    let server = try await server(h)
    let body: [String: Any] = [
      "server_id": server, "rule_id": "sec", "rule_type": type, "source_ip": "203.0.113.7",
    ]
    let fired = await h.control(.post, "/alerts/fire", body)
    #expect(pushes(fired) == 0)
    #expect(fired?["alert_key"]?.stringValue?.hasPrefix("v1.") == true)
    #expect(pushes(await h.control(.post, "/alerts/resolve", body)) == 0)
    #expect(await queued(h).isEmpty)
  }

  @Test func adminsAndMembersBothReceiveAlertsWithTheirOwnKeys() async throws {
    let h = try harness()
    let admin = try await h.pushDevice("admin")
    let member = try await h.pushDevice("bob", role: "member", installation: "INST-2", seed: 2)
    let unsubscribed = try await h.pushDevice(
      "carol", installation: "INST-3", seed: 3, preferences: h.preferencesJSON(alerts: false))
    let server = try await server(h)
    let fired = await h.control(.post, "/alerts/fire", ["server_id": server, "rule_id": "r"])
    #expect(pushes(fired) == 2)
    let key = try #require(fired?["alert_key"]?.stringValue)
    let eventID = Self.alertEventID(key, "firing", Self.rfc3339(Self.start))
    for device in [admin, member] {
      let validated = try opened(h, device, eventID)
      expectBase(validated.content, device, kind: .alert, eventID: eventID, createdAt: Self.start)
    }
    #expect(try h.storedEnvelope(eventID: eventID, installation: unsubscribed.installation) == nil)
    // One key cannot open another installation's envelope.
    let envelope = try #require(try h.storedEnvelope(eventID: eventID, installation: "INST-2"))
    #expect(throws: PushEnvelopeCryptoError.self) { try admin.open(envelope, at: h.clock.now) }
  }

  @Test func longNamesAreCutTo120Characters() async throws {
    let h = try harness()
    let admin = try await h.pushDevice("admin")
    let longServer = String(repeating: "服", count: 130)
    let server = try await server(h, longServer)
    let longRule = String(repeating: "r", count: 121)
    let fired = await h.control(
      .post, "/alerts/fire", ["server_id": server, "rule_id": "r", "rule_name": longRule])
    let key = try #require(fired?["alert_key"]?.stringValue)
    let validated = try opened(h, admin, Self.alertEventID(key, "firing", Self.rfc3339(Self.start)))
    #expect(validated.content.alert?.ruleName == String(repeating: "r", count: 120))
    #expect(validated.content.alert?.serverName == String(repeating: "服", count: 120))
  }

  @Test func alertRuleControlValidatesItsParameters() async throws {
    let h = try harness()
    let created = try #require(
      await h.control(
        .post, "/alert-rules",
        [
          "id": "sec-1", "name": "SSH", "rule_type": "ssh_brute_force_detected",
          "server_ids": ["s1"], "exclude_users": ["Root"], "exclude_cidrs": ["10.0.0.0/8"],
          "min_failed_count": 5,
        ]))
    #expect(created["trigger_mode"]?.stringValue == "always")
    #expect(created["enabled"]?.boolValue == true)
    #expect(created["dedupe_window_seconds"]?.numberValue == 600)
    #expect(created["min_failed_count"]?.numberValue == 5)
    #expect(created["min_distinct_ports"] == .null)
    #expect(created["exclude_cidrs"] == .array([.string("10.0.0.0/8")]))
    let patched = await h.control(
      .patch, "/alert-rules/sec-1", ["min_failed_count": NSNull(), "trigger_mode": "once"])
    #expect(patched?["min_failed_count"] == .null)
    #expect(patched?["trigger_mode"]?.stringValue == "once")
    for bad: [String: Any] in [
      ["trigger_mode": "sometimes"], ["exclude_cidrs": ["10.0.0.0/33"]],
      ["dedupe_window_seconds": -1],
    ] {
      let reply = await h.send(.post, "/__simulator/alert-rules", raw: try body(bad), control: true)
      #expect(reply.status == 422, "\(bad)")
    }
    let duplicate = await h.send(
      .post, "/__simulator/alert-rules", raw: try body(["id": "sec-1"]), control: true)
    #expect(duplicate.status == 409)
    let missing = await h.send(
      .patch, "/__simulator/alert-rules/nope", raw: try body(["enabled": true]), control: true)
    #expect(missing.status == 404)
  }

  func body(_ object: [String: Any]) throws -> Data {
    try JSONSerialization.data(withJSONObject: object)
  }

  // MARK: Task runs

  func scheduledTask(_ h: Harness, servers: [String], creator: String?) async throws -> String {
    var fields: [String: Any] = [
      "command": "uptime", "server_ids": servers, "task_type": "scheduled", "name": "nightly",
    ]
    if let creator { fields["created_by"] = creator }
    return try #require(await h.control(.post, "/tasks", fields)?["data"]?["id"]?.stringValue)
  }

  @Test func aFailedRunCountsTheFinalAttemptOfEveryTarget() async throws {
    let h = try harness()
    let admin = try await h.pushDevice(
      "admin", preferences: h.preferencesJSON(taskFailure: true))
    var servers: [String] = []
    for index in 0..<7 { servers.append(try await server(h, "vps-\(index)")) }
    let taskID = try await scheduledTask(h, servers: servers, creator: admin.tokens.userID)
    let codes: [(Int64, Int64)] = [(0, 1), (2, 1), (-2, 1), (-3, 1), (-4, 1), (0, 3), (-1, 2)]
    let outcomes: [[String: Any]] = zip(servers, codes).map {
      ["server_id": $0.0, "exit_code": $0.1.0, "attempts": $0.1.1]
    }
    h.clock.advance(by: 5)
    let run = await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": outcomes])
    #expect(pushes(run) == 1)
    let runID = try #require(run?["run_id"]?.stringValue)
    let validated = try opened(h, admin, runID)
    expectBase(
      validated.content, admin, kind: .taskFailure, eventID: runID, createdAt: Self.start + 5)
    #expect(
      validated.content.taskRun
        == PushTaskRunSummary(
          taskID: taskID, runID: runID, total: 7, failed: 2, timedOut: 1, offline: 1, denied: 1))
    #expect(validated.content.alert == nil && validated.content.serverID == nil)
    #expect(validated.tapTarget == .taskRun(taskID: taskID, runID: runID))
    expectText(
      validated,
      ("Task run failed", "Targets: 7. Failed: 2. Timed out: 1. Offline: 1. Denied: 1."),
      ("任务运行失败", "目标：7。失败：2。超时：1。离线：1。拒绝执行：1。"))
    #expect(await h.outbox().first?["category"]?.stringValue == "task_failure")
  }

  @Test func aSucceededRunPushesOnlyToAnOwnerWhoOptedIn() async throws {
    let h = try harness()
    let admin = try await h.pushDevice(
      "admin", preferences: h.preferencesJSON(taskFailure: true, taskSuccess: false))
    let servers = [try await server(h, "a"), try await server(h, "b")]
    let taskID = try await scheduledTask(h, servers: servers, creator: admin.tokens.userID)
    // A retried target whose final attempt succeeded counts as a success.
    let outcomes: [[String: Any]] = [
      ["server_id": servers[0], "exit_code": 0],
      ["server_id": servers[1], "exit_code": 0, "attempts": 2],
    ]
    #expect(pushes(await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": outcomes])) == 0)
    let optedIn = await h.putSettings(
      admin.tokens.access, revision: admin.revision,
      h.preferencesJSON(taskFailure: false, taskSuccess: true))
    #expect(optedIn.status == 200)
    let run = await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": outcomes])
    #expect(pushes(run) == 1)
    let runID = try #require(run?["run_id"]?.stringValue)
    let validated = try opened(h, admin, runID)
    expectBase(validated.content, admin, kind: .taskSuccess, eventID: runID, createdAt: Self.start)
    #expect(validated.content.taskRun == PushTaskRunSummary(taskID: taskID, runID: runID, total: 2))
    expectText(
      validated, ("Task run succeeded", "All 2 targets succeeded."),
      ("任务运行成功", "全部 2 个目标运行成功。"))
    // Failures no longer reach this device: it unsubscribed from task_failure.
    let failed: [[String: Any]] = [
      ["server_id": servers[0], "exit_code": 1], ["server_id": servers[1], "exit_code": 0],
    ]
    #expect(pushes(await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": failed])) == 0)
  }

  @Test func theRunOwnerIsTheManualInitiatorOrElseTheCreator() async throws {
    let h = try harness()
    let prefs = h.preferencesJSON(taskFailure: true)
    let creator = try await h.pushDevice("alice", preferences: prefs)
    let initiator = try await h.pushDevice(
      "dave", installation: "INST-2", seed: 2, preferences: prefs)
    let server = try await server(h)
    let taskID = try await scheduledTask(h, servers: [server], creator: creator.tokens.userID)
    let outcomes: [[String: Any]] = [["server_id": server, "exit_code": 1]]
    let automatic = await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": outcomes])
    #expect(pushes(automatic) == 1)
    let autoRun = try #require(automatic?["run_id"]?.stringValue)
    #expect(try h.storedEnvelope(eventID: autoRun, installation: "INST-1") != nil)
    #expect(try h.storedEnvelope(eventID: autoRun, installation: "INST-2") == nil)
    let manual = await h.control(
      .post, "/tasks/\(taskID)/runs",
      ["outcomes": outcomes, "trigger": "manual", "initiator_id": initiator.tokens.userID])
    #expect(pushes(manual) == 1)
    let manualRun = try #require(manual?["run_id"]?.stringValue)
    #expect(try h.storedEnvelope(eventID: manualRun, installation: "INST-1") == nil)
    let validated = try opened(h, initiator, manualRun)
    #expect(validated.content.userID == initiator.tokens.userID)
    // A task without a creator has no owner for automatic runs; manual needs an initiator.
    let orphan = try await scheduledTask(h, servers: [server], creator: nil)
    #expect(pushes(await h.control(.post, "/tasks/\(orphan)/runs", ["outcomes": outcomes])) == 0)
    let noInitiator = await h.send(
      .post, "/__simulator/tasks/\(orphan)/runs",
      raw: try body(["outcomes": outcomes, "trigger": "manual"]), control: true)
    #expect(noInitiator.status == 422)
  }

  @Test func membersAndDemotedAdminsNeverReceiveTaskPushes() async throws {
    let h = try harness()
    let member = try await h.pushDevice("bob", role: "member", installation: "INST-2", seed: 2)
    let admin = try await h.pushDevice(
      "admin", preferences: h.preferencesJSON(taskFailure: true, taskSuccess: true))
    let server = try await server(h)
    let outcomes: [[String: Any]] = [["server_id": server, "exit_code": -3]]
    let memberTask = try await scheduledTask(h, servers: [server], creator: member.tokens.userID)
    #expect(
      pushes(await h.control(.post, "/tasks/\(memberTask)/runs", ["outcomes": outcomes])) == 0)
    let adminTask = try await scheduledTask(h, servers: [server], creator: admin.tokens.userID)
    _ = await h.control(.patch, "/users/\(admin.tokens.userID)", ["role": "member"])
    #expect(
      pushes(await h.control(.post, "/tasks/\(adminTask)/runs", ["outcomes": outcomes])) == 0)
    _ = await h.control(.patch, "/users/\(admin.tokens.userID)", ["role": "admin"])
    #expect(
      pushes(await h.control(.post, "/tasks/\(adminTask)/runs", ["outcomes": outcomes])) == 1)
  }

  @Test func incompleteInterruptedAndOneshotRunsNeverPush() async throws {
    let h = try harness()
    let admin = try await h.pushDevice(
      "admin", preferences: h.preferencesJSON(taskFailure: true, taskSuccess: true))
    let servers = [try await server(h, "a"), try await server(h, "b")]
    let taskID = try await scheduledTask(h, servers: servers, creator: admin.tokens.userID)
    let both: [[String: Any]] = [
      ["server_id": servers[0], "exit_code": 1], ["server_id": servers[1], "exit_code": 0],
    ]
    for extra: [String: Any] in [["complete": false], ["interrupted": true]] {
      var fields = extra
      fields["outcomes"] = both
      let run = await h.control(.post, "/tasks/\(taskID)/runs", fields)
      #expect(run?["run_id"]?.stringValue != nil)
      #expect(pushes(run) == 0, "\(extra)")
    }
    // A target of the task without its final attempt leaves the run incomplete.
    let partial = [both[0]]
    #expect(pushes(await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": partial])) == 0)
    // Oneshot runs have no run id.
    let oneshot = try #require(
      await h.control(
        .post, "/tasks",
        ["command": "uptime", "server_ids": servers, "created_by": admin.tokens.userID])?["data"]?[
          "id"]?.stringValue)
    let run = await h.control(.post, "/tasks/\(oneshot)/runs", ["outcomes": both])
    #expect(run?["run_id"] == .null)
    #expect(pushes(run) == 0)
    #expect(await queued(h).isEmpty)
  }

  // MARK: Security

  func securityAdmin(
    _ h: Harness, _ name: String = "admin", installation: String = "INST-1", seed: UInt8 = 1
  )
    async throws -> PushDevice
  {
    try await h.pushDevice(
      name, installation: installation, seed: seed,
      preferences: h.preferencesJSON(alerts: true, security: true))
  }

  func event(_ h: Harness, _ fields: [String: Any]) async -> JSONValue? {
    await h.control(.post, "/security-events", fields)
  }

  @Test func aSecurityPushCarriesOnlyIdsAndTheType() async throws {
    let h = try harness()
    let admin = try await securityAdmin(h)
    let server = try await server(h, "bastion-eu")
    _ = try await rule(h, ["name": "New SSH IP", "rule_type": "ssh_new_ip_login"])
    h.clock.advance(by: 7)
    let answer = await event(
      h,
      [
        "server_id": server, "event_type": "ssh_login", "source_ip": "198.51.100.23",
        "username": "deploy-user", "first_seen": true,
        "evidence": ["kind": "ssh_login", "auth_method": "publickey"],
      ])
    #expect(pushes(answer) == 1)
    let eventID = try #require(answer?["data"]?["id"]?.stringValue)
    #expect(answer?["data"]?["source_ip"]?.stringValue == "198.51.100.23")
    let validated = try opened(h, admin, eventID)
    expectBase(
      validated.content, admin, kind: .security, eventID: eventID, createdAt: Self.start + 7)
    #expect(validated.content.serverID == server)
    #expect(validated.content.securityEventID == eventID)
    #expect(validated.content.securityEventType == .sshLogin)
    #expect(validated.content.alert == nil && validated.content.taskRun == nil)
    #expect(validated.tapTarget == .securityEvent(serverID: server, eventID: eventID))
    let plaintext = String(decoding: try WireJSON.encode(validated.content), as: UTF8.self)
    for secret in ["198.51.100.23", "deploy-user", "bastion-eu", "New SSH IP", "publickey"] {
      #expect(!plaintext.contains(secret), "\(secret) leaked")
    }
    expectText(
      validated, ("Security rule matched", "An SSH login from a new IP matched a security rule."),
      ("安全规则已匹配", "来自新 IP 的 SSH 登录匹配了安全规则。"))
    // A security match is never also an alert push; its state is kept per source IP.
    #expect(await queued(h).map(\.kind) == ["security"])
    let list = await h.send(.get, "/api/alert-events", bearer: admin.tokens.access)
    #expect(list.data?[0]?["rule_name"]?.stringValue == "New SSH IP")
  }

  @Test func thresholdsGateEachRuleType() async throws {
    let h = try harness()
    let admin = try await securityAdmin(h)
    let server = try await server(h)
    _ = try await rule(h, ["rule_type": "ssh_new_ip_login"])
    _ = try await rule(h, ["rule_type": "ssh_brute_force_detected", "min_failed_count": 10])
    _ = try await rule(h, ["rule_type": "port_scan_detected", "min_distinct_ports": 20])
    func brute(_ count: Int, _ ip: String) -> [String: Any] {
      [
        "server_id": server, "event_type": "ssh_brute_force", "source_ip": ip,
        "evidence": [
          "kind": "ssh_brute_force", "failed_count": count, "distinct_users": 1,
          "sample_users": ["root"], "invalid_user_count": 0, "window_seconds": 60,
          "threshold": 5,
        ],
      ]
    }
    func scan(_ ports: Int, _ ip: String) -> [String: Any] {
      [
        "server_id": server, "event_type": "port_scan", "source_ip": ip,
        "evidence": [
          "kind": "port_scan", "distinct_ports": ports, "sample_ports": [22, 80],
          "total_attempts": 40, "window_seconds": 60, "threshold": 10, "blocked_count": 0,
        ],
      ]
    }
    #expect(pushes(await event(h, brute(9, "203.0.113.1"))) == 0)
    let bruteHit = await event(h, brute(10, "203.0.113.2"))
    #expect(pushes(bruteHit) == 1)
    #expect(pushes(await event(h, scan(19, "203.0.113.3"))) == 0)
    let scanHit = await event(h, scan(20, "203.0.113.4"))
    #expect(pushes(scanHit) == 1)
    // A threshold that is set needs evidence of its kind.
    #expect(
      pushes(
        await event(
          h, ["server_id": server, "event_type": "port_scan", "source_ip": "203.0.113.5"])) == 0)
    #expect(
      pushes(
        await event(
          h,
          [
            "server_id": server, "event_type": "ssh_login", "source_ip": "203.0.113.6",
            "first_seen": false,
          ])) == 0)
    let bruteID = try #require(bruteHit?["data"]?["id"]?.stringValue)
    let bruteContent = try opened(h, admin, bruteID)
    #expect(bruteContent.content.securityEventType == .sshBruteForce)
    expectText(
      bruteContent, ("Security rule matched", "SSH brute-force activity matched a security rule."),
      ("安全规则已匹配", "SSH 暴力破解活动匹配了安全规则。"))
    let scanID = try #require(scanHit?["data"]?["id"]?.stringValue)
    let scanContent = try opened(h, admin, scanID)
    #expect(scanContent.content.securityEventType == .portScan)
    expectText(
      scanContent, ("Security rule matched", "Port-scan activity matched a security rule."),
      ("安全规则已匹配", "端口扫描活动匹配了安全规则。"))
  }

  @Test func exclusionsSkipUsersCaseInsensitivelyAndAddressesByCIDR() async throws {
    let h = try harness()
    _ = try await securityAdmin(h)
    let server = try await server(h)
    _ = try await rule(
      h,
      [
        "rule_type": "ssh_new_ip_login", "exclude_users": ["Deploy"],
        "exclude_cidrs": ["203.0.113.0/24", "2001:db8::/32", "192.0.2.9"],
      ])
    func login(_ ip: String, _ user: String? = "alice") -> [String: Any] {
      var fields: [String: Any] = [
        "server_id": server, "event_type": "ssh_login", "source_ip": ip, "first_seen": true,
      ]
      if let user { fields["username"] = user }
      return fields
    }
    #expect(pushes(await event(h, login("198.51.100.1", "dEPLOY"))) == 0)
    #expect(pushes(await event(h, login("203.0.113.200"))) == 0)
    #expect(pushes(await event(h, login("2001:db8:1::5"))) == 0)
    #expect(pushes(await event(h, login("192.0.2.9"))) == 0)
    #expect(pushes(await event(h, login("192.0.2.10"))) == 1)
    #expect(pushes(await event(h, login("203.0.114.1", nil))) == 1)
    #expect(pushes(await event(h, login("2001:db9::1"))) == 1)
  }

  @Test func scopeAndMaintenanceLimitSecurityPushes() async throws {
    let h = try harness()
    _ = try await securityAdmin(h)
    let watched = try await server(h, "a")
    let other = try await server(h, "b")
    _ = try await rule(h, ["rule_type": "ssh_new_ip_login", "server_ids": [watched]])
    func login(_ server: String, _ ip: String) -> [String: Any] {
      ["server_id": server, "event_type": "ssh_login", "source_ip": ip, "first_seen": true]
    }
    #expect(pushes(await event(h, login(other, "198.51.100.1"))) == 0)
    #expect(pushes(await event(h, login(watched, "198.51.100.2"))) == 1)
    _ = await h.control(
      .post, "/maintenance",
      ["server_id": watched, "starts_at": Self.start, "ends_at": Self.start + 100])
    #expect(pushes(await event(h, login(watched, "198.51.100.3"))) == 0)
    h.clock.advance(by: 100)
    // Maintenance did not start the dedupe window: the same address notifies after it.
    #expect(pushes(await event(h, login(watched, "198.51.100.3"))) == 1)
  }

  @Test func theDedupeWindowIsPerRuleServerAndSourceIP() async throws {
    let h = try harness()
    _ = try await securityAdmin(h)
    let first = try await server(h, "a")
    let second = try await server(h, "b")
    _ = try await rule(h, ["rule_type": "ssh_new_ip_login"])
    func login(_ server: String, _ ip: String) -> [String: Any] {
      ["server_id": server, "event_type": "ssh_login", "source_ip": ip, "first_seen": true]
    }
    #expect(pushes(await event(h, login(first, "198.51.100.1"))) == 1)
    h.clock.advance(by: 599)
    #expect(pushes(await event(h, login(first, "198.51.100.1"))) == 0)
    #expect(pushes(await event(h, login(first, "198.51.100.2"))) == 1)
    #expect(pushes(await event(h, login(second, "198.51.100.1"))) == 1)
    h.clock.advance(by: 1)
    #expect(pushes(await event(h, login(first, "198.51.100.1"))) == 1)
    // A second rule with a short window notifies where the first is still deduplicated.
    _ = try await rule(h, ["rule_type": "ssh_new_ip_login", "dedupe_window_seconds": 60])
    h.clock.advance(by: 60)
    // The first rule notified 198.51.100.2 61 s ago (deduplicated); the second never did.
    #expect(pushes(await event(h, login(first, "198.51.100.2"))) == 1)
    h.clock.advance(by: 59)
    #expect(pushes(await event(h, login(first, "198.51.100.2"))) == 0)
    h.clock.advance(by: 1)
    #expect(pushes(await event(h, login(first, "198.51.100.2"))) == 1)
  }

  @Test func severalMatchingRulesMakeOnePushPerInstallation() async throws {
    let h = try harness()
    let admin = try await securityAdmin(h)
    let other = try await securityAdmin(h, "root2", installation: "INST-2", seed: 2)
    let server = try await server(h)
    for name in ["one", "two", "three"] {
      _ = try await rule(h, ["name": name, "rule_type": "ssh_new_ip_login"])
    }
    let answer = await event(
      h,
      [
        "server_id": server, "event_type": "ssh_login", "source_ip": "198.51.100.1",
        "first_seen": true,
      ])
    #expect(pushes(answer) == 2)
    let eventID = try #require(answer?["data"]?["id"]?.stringValue)
    let rows = await queued(h)
    #expect(rows.count == 2)
    #expect(Set(rows.map(\.installation)) == ["INST-1", "INST-2"])
    #expect(rows.allSatisfy { $0.eventID == eventID && $0.kind == "security" })
    for device in [admin, other] { _ = try opened(h, device, eventID) }
  }

  @Test func securityPushesGoToCurrentAdminsOnly() async throws {
    let h = try harness()
    let admin = try await securityAdmin(h)
    _ = try await h.pushDevice("bob", role: "member", installation: "INST-2", seed: 2)
    let demoted = try await securityAdmin(h, "eve", installation: "INST-3", seed: 3)
    _ = await h.control(.patch, "/users/\(demoted.tokens.userID)", ["role": "member"])
    let server = try await server(h)
    _ = try await rule(h, ["rule_type": "ssh_new_ip_login"])
    let answer = await event(
      h,
      [
        "server_id": server, "event_type": "ssh_login", "source_ip": "198.51.100.1",
        "first_seen": true,
      ])
    #expect(pushes(answer) == 1)
    #expect(await queued(h).map(\.installation) == [admin.installation])
  }

  @Test func eventsWithoutAMatchingEnabledRuleDoNotPush() async throws {
    let h = try harness()
    _ = try await securityAdmin(h)
    let server = try await server(h)
    let login: [String: Any] = [
      "server_id": server, "event_type": "ssh_login", "source_ip": "198.51.100.1",
      "first_seen": true,
    ]
    #expect(pushes(await event(h, login)) == 0)  // no rule
    _ = try await rule(h, ["rule_type": "port_scan_detected"])
    #expect(pushes(await event(h, login)) == 0)  // a rule for another event type
    let ruleID = try await rule(h, ["rule_type": "ssh_new_ip_login", "enabled": false])
    #expect(pushes(await event(h, login)) == 0)  // disabled
    _ = await h.control(.patch, "/alert-rules/\(ruleID)", ["enabled": true])
    #expect(pushes(await event(h, login)) == 1)
  }

  // MARK: CIDR matching

  @Test(arguments: [
    ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.1", false),
    ("192.0.2.1", "192.0.2.1", true), ("192.0.2.1/32", "192.0.2.2", false),
    ("0.0.0.0/0", "8.8.8.8", true), ("192.0.2.128/25", "192.0.2.127", false),
    ("2001:db8::/32", "2001:0db8:ffff::1", true), ("2001:db8::/33", "2001:db8:8000::1", false),
    ("::/0", "::1", true), ("::ffff:0:0/96", "::ffff:192.0.2.1", true),
    ("10.0.0.0/8", "::ffff:10.0.0.1", false), ("::/0", "10.0.0.1", false),
    ("fe80::1/128", "FE80::1", true), ("10.0.0.0/8", "010.0.0.1", false),
  ])
  func cidrBlocksMatchTheirOwnFamilyOnly(_ block: String, _ address: String, _ inside: Bool) {
    #expect(IPNetwork.contains(block, address) == inside)
  }

  @Test(arguments: [
    "10.0.0.0/33", "10.0.0/8", "::1/129", "1:2:3:4:5:6:7:8:9", "1::2::3", "256.0.0.1", "",
    "10.0.0.0/", "fe80::1%eth0", "12345::", "1:2:3:4:5:6:7::8",
  ])
  func malformedBlocksAreRejected(_ block: String) {
    #expect(IPNetwork.block(block) == nil)
  }
}

/// SHA-256 for recomputing alert event ids in the tests: the portable implementation of
/// ServerBeeModels (checked against the NIST vectors in its own tests), not the simulator's
/// OpenSSL hashing.
enum ReferenceSHA256 {
  static func digest(_ message: [UInt8]) -> [UInt8] { SHA256.digest(message) }
}
