import DeepLinkValidation
import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeTransport
import Testing

/// Real pushes sealed by the simulator, relayed by a real relay, then tapped (Protocol/Push.md §7).
@Suite(.timeLimit(.minutes(5))) struct TapIntegrationTests {
  func firingAlert(_ world: TapWorld) async throws -> (server: String, rule: String, key: String) {
    let server = try await world.newServer()
    let rule = try #require(
      try await world.control(.post, "/alert-rules", ["name": "High CPU"])?["id"]?.stringValue)
    let fired = try await world.control(
      .post, "/alerts/fire", ["server_id": server, "rule_id": rule])
    return (server, rule, try #require(fired?["alert_key"]?.stringValue))
  }

  func expectAlert(
    _ outcome: TapOutcome?, key: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .open(.alertDetail(let detail))? = outcome else {
      Issue.record("outcome \(String(describing: outcome))", sourceLocation: sourceLocation)
      return
    }
    #expect(detail.alertKey == key, sourceLocation: sourceLocation)
  }

  @Test func aValidAlertOpensItsDetailOnce() async throws {
    let world = try await TapWorld()
    try await world.signIn("ada")
    let alert = try await firingAlert(world)
    let payload = try await world.deliver()
    expectAlert(await world.tap(payload), key: alert.key)
    #expect(await world.router.consume() == nil)
  }

  @Test func anExpiredButPresentedAlertIsStillValidatedAndLoaded() async throws {
    let world = try await TapWorld()
    try await world.signIn("ada")
    let alert = try await firingAlert(world)
    let payload = try await world.deliver()
    world.clock.advance(by: 3600)
    expectAlert(await world.tap(payload), key: alert.key)
  }

  @Test func theOldKeyOfAReArmedAlertNeverOpensTheNewCycle() async throws {
    let world = try await TapWorld()
    try await world.signIn("ada")
    let alert = try await firingAlert(world)
    let firstCycle = try await world.deliver()
    let body = ["server_id": alert.server, "rule_id": alert.rule]
    _ = try await world.control(.post, "/alerts/resolve", body)
    world.clock.advance(by: 120)
    let again = try await world.control(.post, "/alerts/fire", body)
    #expect(again?["alert_key"]?.stringValue != alert.key)
    #expect(await world.tap(firstCycle) == .unavailable(.alertNotFound))
  }

  @Test func aDeletedRuleShowsAlertNotFound() async throws {
    let world = try await TapWorld()
    try await world.signIn("ada")
    let alert = try await firingAlert(world)
    let payload = try await world.deliver()
    _ = try await world.control(.delete, "/alert-rules/\(alert.rule)")
    #expect(await world.tap(payload) == .unavailable(.alertNotFound))
  }

  /// A finished run of a new scheduled task and its delivered push.
  func deliveredRun(_ world: TapWorld, creator: String) async throws -> (
    task: String, payload: Data
  ) {
    let server = try await world.newServer("a")
    let task = try #require(
      try await world.control(
        .post, "/tasks",
        [
          "command": "uptime", "server_ids": [server], "task_type": "scheduled",
          "name": "nightly", "created_by": creator,
        ])?["data"]?["id"]?.stringValue)
    _ = try await world.control(
      .post, "/tasks/\(task)/runs",
      ["outcomes": [["server_id": server, "exit_code": 1, "attempts": 1]]])
    return (task, try await world.deliver())
  }

  @Test func anUnknownRunOfARealTaskIsUnavailable() async throws {
    let world = try await TapWorld()
    let ada = try await world.signIn("ada")
    let run = try await deliveredRun(world, creator: ada.identity.user.id)
    // A correctly sealed push for this login naming a run the server does not have.
    let unknownRun = UUID().uuidString.lowercased()
    let now = Int64(world.clock.now.timeIntervalSince1970)
    let content = PushContent(
      kind: .taskFailure, deploymentID: ada.key.deploymentID, userID: ada.key.userID,
      installationID: ada.key.installationID, eventID: unknownRun, createdAt: now,
      expiresAt: now + 1800,
      taskRun: PushTaskRunSummary(
        taskID: run.task, runID: unknownRun, total: 1, failed: 1, timedOut: 0, offline: 0,
        denied: 0))
    await world.router.receive(.envelope(try PushEnvelopeSealer().seal(content, with: ada.key)))
    #expect(await world.router.consume() == .unavailable(.taskRunUnavailable))
  }

  @Test func aTaskRunAfterLosingAdminIsUnavailable() async throws {
    let world = try await TapWorld()
    let ada = try await world.signIn("ada")
    let run = try await deliveredRun(world, creator: ada.identity.user.id)
    _ = try await world.control(.patch, "/users/\(ada.identity.user.id)", ["role": "member"])
    #expect(await world.tap(run.payload) == .unavailable(.taskRunUnavailable))
  }

  @Test func aTaskRunOpensOnlyItsRows() async throws {
    let world = try await TapWorld()
    let ada = try await world.signIn("ada")
    let servers = [try await world.newServer("a"), try await world.newServer("b")]
    let task = try #require(
      try await world.control(
        .post, "/tasks",
        [
          "command": "uptime", "server_ids": servers, "task_type": "scheduled", "name": "nightly",
          "created_by": ada.identity.user.id,
        ])?["data"]?["id"]?.stringValue)
    let outcomes: [[String: Any]] = servers.map {
      ["server_id": $0, "exit_code": 1, "attempts": 1]
    }
    _ = try await world.control(.post, "/tasks/\(task)/runs", ["outcomes": outcomes])
    let firstRun = try await world.deliver()
    world.clock.advance(by: 60)
    _ = try await world.control(.post, "/tasks/\(task)/runs", ["outcomes": outcomes])
    guard case .open(.taskRunResults(let taskID, let runID, let rows))? = await world.tap(firstRun)
    else {
      Issue.record("the run did not open")
      return
    }
    #expect(taskID == task)
    #expect(rows.count == 2)
    #expect(rows.allSatisfy { $0.runID == runID })
  }

  func securityEvent(_ world: TapWorld) async throws -> (server: String, event: String) {
    let server = try await world.newServer("bastion")
    _ = try await world.control(
      .post, "/alert-rules", ["name": "New SSH IP", "rule_type": "ssh_new_ip_login"])
    let answer = try await world.control(
      .post, "/security-events",
      [
        "server_id": server, "event_type": "ssh_login", "source_ip": "198.51.100.23",
        "username": "deploy", "first_seen": true,
        "evidence": ["kind": "ssh_login", "auth_method": "publickey"],
      ])
    return (server, try #require(answer?["data"]?["id"]?.stringValue))
  }

  @Test func aSecurityEventOpensAfterTheMeServerEventMeChain() async throws {
    let world = try await TapWorld()
    try await world.signIn("ada")
    let security = try await securityEvent(world)
    let payload = try await world.deliver()
    guard case .open(.securityEvent(let event))? = await world.tap(payload) else {
      Issue.record("the security event did not open")
      return
    }
    #expect(event.id == security.event && event.serverID == security.server)
  }

  @Test func aDemotedAdminGetsUnavailable() async throws {
    let world = try await TapWorld()
    let ada = try await world.signIn("ada")
    _ = try await securityEvent(world)
    let payload = try await world.deliver()
    _ = try await world.control(.patch, "/users/\(ada.identity.user.id)", ["role": "member"])
    #expect(await world.tap(payload) == .unavailable(.notAdmin))
  }

  @Test func anotherAccountNeverNavigates() async throws {
    let world = try await TapWorld()
    let ada = try await world.signIn("ada")
    _ = try await firingAlert(world)
    let payload = try await world.deliver()
    // Bob signs in on the device; Ada's key is still the stored one.
    let bob = try await world.signIn("bob", register: false)
    #expect(await world.tap(payload) == .unavailable(.otherScope))
    // Ada's login ended; Bob registers his own key: Ada's envelope names another key.
    try await world.revoke(ada)
    try await world.revoke(bob)
    try await world.signIn("bob")
    #expect(await world.tap(payload) == .unavailable(.decryptFailed(.keyIDMismatch)))
  }

  @Test func aReplacementLoginOfTheSameAccountNeverNavigates() async throws {
    let world = try await TapWorld()
    try await world.signIn("ada")
    _ = try await firingAlert(world)
    let payload = try await world.deliver()
    try await world.signIn("ada", register: false)
    #expect(await world.tap(payload) == .unavailable(.otherScope))
  }

  @Test func aTamperedEnvelopeNeverNavigates() async throws {
    let world = try await TapWorld()
    try await world.signIn("ada")
    _ = try await firingAlert(world)
    let payload = try await world.deliver()
    guard case .envelope(var envelope) = PushTap(apnsPayload: payload) else {
      Issue.record("the delivered payload has no envelope")
      return
    }
    let flipped: Character = envelope.ciphertext.first == "A" ? "B" : "A"
    envelope.ciphertext = String(flipped) + envelope.ciphertext.dropFirst()
    await world.router.receive(.envelope(envelope))
    #expect(await world.router.consume() == .unavailable(.decryptFailed(.authenticationFailed)))
  }
}
