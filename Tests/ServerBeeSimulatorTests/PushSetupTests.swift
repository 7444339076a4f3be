import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// The push setup routes (Protocol/Push.md §2.1–§2.5, §2.7, §2.8): the settings document,
/// compare-and-set saves, role checks, encrypted registration and the legacy routes after
/// migration.
@Suite(.timeLimit(.minutes(5))) struct PushSetupTests {
  func harness(relay: String? = Harness.relayPlaceholder) throws -> Harness {
    try Harness { $0.relayURL = relay }
  }

  func signedIn(_ h: Harness, _ name: String = "admin", role: String = "admin") async throws
    -> Harness.Tokens
  {
    await h.user(name, role: role)
    return try #require(await h.login(name).1)
  }

  @Test func settingsWithoutARowAreRevisionZeroAllFalseInKeyOrder() async throws {
    let h = try harness()
    let t = try await signedIn(h)
    let reply = await h.settings(t.access)
    #expect(reply.status == 200)
    #expect(
      reply.text
        == #"{"data":{"revision":0,"preferences":{"enabled":false,"alerts":false,"security":false,"#
        + #""task_failure":false,"task_success":false},"security_allowed":true,"tasks_allowed":true,"#
        + #""task_failure_available":true,"registered":false,"delivery_available":true,"#
        + #""test_available":false}}"#)
  }

  @Test func aMemberIsNotAllowedSecurityOrTasks() async throws {
    let h = try harness()
    let t = try await signedIn(h, "bob", role: "member")
    let data = try #require(await h.settings(t.access).data)
    #expect(data["security_allowed"]?.boolValue == false)
    #expect(data["tasks_allowed"]?.boolValue == false)
    #expect(data["task_failure_available"]?.boolValue == true)
  }

  @Test func withoutAUsableRelayDeliveryIsUnavailable() async throws {
    for relay in [nil, "", "https://", "http://remote.test", "http://127.0.0.1:invalid"] {
      let h = try harness(relay: relay)
      let t = try await signedIn(h)
      let data = try #require(await h.settings(t.access).data)
      #expect(data["delivery_available"]?.boolValue == false, "relay \(relay ?? "nil")")
    }
  }

  @Test(arguments: ["https://relay.example", "http://127.0.0.1:8787"])
  func usableRelayURLsMakeDeliveryAvailable(_ relay: String) async throws {
    let h = try harness(relay: relay)
    let t = try await signedIn(h)
    #expect(try #require(await h.settings(t.access).data)["delivery_available"]?.boolValue == true)
  }

  @Test func pushRoutesNeedALiveMobileBearer() async throws {
    let h = try harness()
    let id = await h.user("admin")
    let cookie = await h.control(.post, "/users/\(id)/web-session")?["session_token"]?.stringValue
    let noBearer = await h.send(.get, "/api/mobile/push/settings")
    let web = await h.send(.get, "/api/mobile/push/settings", cookie: cookie)
    let webBearer = await h.send(.get, "/api/mobile/push/settings", bearer: cookie)
    for reply in [noBearer, web, webBearer] {
      #expect(reply.status == 401)
      #expect(reply.text == #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#)
    }
  }

  @Test func mustChangePasswordIsA401OnPushRoutes() async throws {
    let h = try harness()
    let t = try await signedIn(h)
    _ = await h.control(.patch, "/users/\(t.userID)", ["must_change_password": true])
    #expect(await h.settings(t.access).status == 401)
  }

  @Test func firstSaveCreatesRevisionOneAndTheServerAnswerIsTheDocument() async throws {
    let h = try harness()
    let t = try await signedIn(h, "bob", role: "member")
    let reply = await h.putSettings(t.access, revision: 0, h.preferencesJSON())
    #expect(reply.status == 200)
    let data = try #require(reply.data)
    #expect(data["revision"]?.numberValue == 1)
    #expect(data["preferences"]?["enabled"]?.boolValue == true)
    #expect(data["preferences"]?["alerts"]?.boolValue == true)
    #expect(data["registered"]?.boolValue == false)
    #expect(try #require(await h.settings(t.access).data)["revision"]?.numberValue == 1)
  }

  @Test func aStaleRevisionIs409AndChangesNothing() async throws {
    let h = try harness()
    let t = try await signedIn(h)
    _ = await h.putSettings(t.access, revision: 0, h.preferencesJSON())
    let stale = await h.putSettings(t.access, revision: 0, h.preferencesJSON(enabled: false))
    #expect(stale.status == 409)
    #expect(stale.message == "Conflict: Notification settings changed; reload before saving")
    let data = try #require(await h.settings(t.access).data)
    #expect(data["revision"]?.numberValue == 1)
    #expect(data["preferences"]?["enabled"]?.boolValue == true)
  }

  @Test func membersCannotSaveSecurityOrTaskCategoriesEvenWhenDisabled() async throws {
    let h = try harness()
    let t = try await signedIn(h, "bob", role: "member")
    let security = await h.putSettings(
      t.access, revision: 0, h.preferencesJSON(enabled: false, security: true))
    #expect(security.status == 403)
    #expect(security.message == "Forbidden: Security notifications require an administrator")
    let tasks = await h.putSettings(t.access, revision: 0, h.preferencesJSON(taskSuccess: true))
    #expect(tasks.status == 403)
    #expect(tasks.message == "Forbidden: Task notifications require an administrator")
    #expect(try #require(await h.settings(t.access).data)["revision"]?.numberValue == 0)
  }

  @Test func theRevisionIsCheckedBeforeTheRole() async throws {
    let h = try harness()
    let t = try await signedIn(h, "bob", role: "member")
    let reply = await h.putSettings(t.access, revision: 5, h.preferencesJSON(security: true))
    #expect(reply.status == 409)
  }

  @Test func unknownOrMissingKeysArePlainText422() async throws {
    let h = try harness()
    let t = try await signedIn(h)
    let extra = await h.sendJSON(
      .put, "/api/mobile/push/settings",
      ["expected_revision": 0, "preferences": h.preferencesJSON(), "installation_id": "x"],
      bearer: t.access)
    #expect(extra.status == 422)
    #expect(extra.text.contains("unknown field `installation_id`"))
    var partial = h.preferencesJSON()
    partial["task_success"] = nil
    let missing = await h.sendJSON(
      .put, "/api/mobile/push/settings", ["expected_revision": 0, "preferences": partial],
      bearer: t.access)
    #expect(missing.status == 422)
    #expect(missing.text.contains("missing field `preferences.task_success`"))
    let grant = await h.sendJSON(
      .post, "/api/mobile/push/encrypted-register",
      [
        "expected_revision": 1, "device_token": "ab", "environment": "sandbox",
        "content_key_id": UUID().uuidString.lowercased(), "content_key": "",
        "deployment_id": "https://a.test", "grant_token": "x",
      ], bearer: t.access)
    #expect(grant.status == 422 && grant.text.contains("unknown field `grant_token`"))
  }

  @Test func registerNeedsEnabledSettingsAndBumpsTheRevision() async throws {
    let h = try harness()
    let t = try await signedIn(h)
    let key = try Harness.contentKey(userID: t.userID, installation: "INST-1", seed: 7)
    let token = Harness.deviceToken(7)
    let early = await h.register(t.access, revision: 0, deviceToken: token, key: key)
    #expect(early.status == 403 && early.message == "Forbidden: Enable notifications first")
    _ = await h.putSettings(t.access, revision: 0, h.preferencesJSON())
    let reply = await h.register(t.access, revision: 1, deviceToken: token, key: key)
    #expect(reply.status == 200)
    let data = try #require(reply.data)
    #expect(data["revision"]?.numberValue == 2)
    #expect(data["registered"]?.boolValue == true)
    #expect(data["test_available"]?.boolValue == true)
  }

  @Test func anIdenticalReRegisterKeepsTheRevision() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let again = await h.register(
      device.tokens.access, revision: device.revision, deviceToken: device.deviceToken,
      key: device.key)
    #expect(again.status == 200)
    #expect(again.data?["revision"]?.numberValue == Double(device.revision))
    let other = try Harness.contentKey(
      userID: device.tokens.userID, installation: "INST-1", seed: 9)
    let changed = await h.register(
      device.tokens.access, revision: device.revision, deviceToken: device.deviceToken, key: other)
    #expect(changed.data?["revision"]?.numberValue == Double(device.revision + 1))
  }

  @Test(arguments: [
    ("device_token", "AB01"), ("device_token", "abc"), ("device_token", ""),
    ("environment", "development"), ("content_key_id", "A1B2C3D4-0000-4000-8000-000000000000"),
    ("content_key_id", "a1b2c3d400004000800000000000000a"), ("content_key", "AAAA"),
    ("deployment_id", "https://"), ("deployment_id", "http://serverbee.test"),
    ("deployment_id", "http://127.0.0.1"), ("deployment_id", "ftp://serverbee.test"),
  ])
  func invalidRegistrationFieldsAre422(_ field: String, _ value: String) async throws {
    let h = try harness()
    let t = try await signedIn(h)
    _ = await h.putSettings(t.access, revision: 0, h.preferencesJSON())
    let key = try Harness.contentKey(userID: t.userID, installation: "INST-1", seed: 3)
    var body: [String: Any] = [
      "expected_revision": 1, "device_token": Harness.deviceToken(3), "environment": "sandbox",
      "content_key_id": key.keyID, "content_key": key.key, "deployment_id": key.deploymentID,
    ]
    body[field] = value
    let reply = await h.sendJSON(
      .post, "/api/mobile/push/encrypted-register", body, bearer: t.access)
    #expect(reply.status == 422)
    #expect(
      reply.message
        == "Validation error: Invalid device token, environment, content key or deployment identity"
    )
  }

  @Test func aLongDeploymentIDIsRejected() async throws {
    let h = try harness()
    let t = try await signedIn(h)
    _ = await h.putSettings(t.access, revision: 0, h.preferencesJSON())
    let long = "https://serverbee.test/" + String(repeating: "a", count: 490)
    let key = try Harness.contentKey(
      userID: t.userID, installation: "INST-1", seed: 3, deployment: long)
    let reply = await h.register(t.access, revision: 1, deviceToken: "ab", key: key)
    #expect(reply.status == 422)
  }

  @Test func registerChecksInTheContractOrder() async throws {
    // No header → 401 before validation; validation → 422 before the relay check; no relay →
    // 400 before the session check.
    let h = try harness(relay: nil)
    let t = try await signedIn(h)
    let key = try Harness.contentKey(userID: t.userID, installation: "INST-1", seed: 3)
    let noHeader = await h.sendJSON(
      .post, "/api/mobile/push/encrypted-register", ["device_token": "AB"], bearer: nil)
    #expect(noHeader.status == 401)
    let invalid = await h.register("bogus", revision: 1, deviceToken: "AB", key: key)
    #expect(invalid.status == 422)
    let noRelay = await h.register("bogus", revision: 1, deviceToken: "ab", key: key)
    #expect(noRelay.status == 400)
    #expect(noRelay.message == "Bad request: Encrypted push relay is not configured")
    h.simulator.setRelayURL(Harness.relayPlaceholder)
    let badSession = await h.register("bogus", revision: 1, deviceToken: "ab", key: key)
    #expect(badSession.status == 401)
  }

  @Test func disablingClearsTheDeliveryMaterial() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let off = await h.putSettings(
      device.tokens.access, revision: device.revision, h.preferencesJSON(enabled: false))
    #expect(off.data?["registered"]?.boolValue == false)
    let on = await h.putSettings(
      device.tokens.access, revision: device.revision + 1, h.preferencesJSON())
    #expect(on.data?["registered"]?.boolValue == false, "re-enabling needs a new register")
  }

  @Test func registrationsStayWhileTheRelayIsGoneAndReappear() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    h.simulator.setRelayURL(nil)
    let gone = try #require(await h.settings(device.tokens.access).data)
    #expect(gone["registered"]?.boolValue == true)
    #expect(gone["delivery_available"]?.boolValue == false)
    #expect(gone["test_available"]?.boolValue == false)
    h.simulator.setRelayURL("https://relay.example")
    #expect(
      try #require(await h.settings(device.tokens.access).data)["test_available"]?.boolValue
        == true)
  }

  @Test func anotherLoginOnTheSameInstallationIsForbiddenUntilTheOldOneLogsOut() async throws {
    let h = try harness()
    let first = try await h.pushDevice("admin")
    let second = try #require(await h.login("admin").1)
    for reply in [
      await h.settings(second.access),
      await h.putSettings(second.access, revision: first.revision, h.preferencesJSON()),
      await h.register(
        second.access, revision: first.revision, deviceToken: first.deviceToken, key: first.key),
    ] {
      #expect(reply.status == 403)
      #expect(reply.message == "Forbidden: This installation belongs to another login")
    }
    _ = await h.send(.post, "/api/mobile/auth/logout", bearer: first.tokens.access)
    let released = try #require(await h.settings(second.access).data)
    #expect(released["revision"]?.numberValue == 0)
  }

  @Test func refreshKeepsTheRegistrationAndItsRevision() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let refreshed = try #require(Harness.tokens(await h.refresh(device.tokens.refresh)))
    let data = try #require(await h.settings(refreshed.access).data)
    #expect(data["revision"]?.numberValue == Double(device.revision))
    #expect(data["registered"]?.boolValue == true)
  }

  @Test func legacyRegisterIs409ForeverAfterMigrationButNotForOthers() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let legacy = await h.send(
      .post, "/api/mobile/push/register", json: ["device_token": "ab01"],
      bearer: device.tokens.access)
    #expect(legacy.status == 409)
    #expect(legacy.message == "Conflict: This installation uses encrypted relay delivery")
    _ = await h.send(.post, "/api/mobile/auth/logout", bearer: device.tokens.access)
    let again = try #require(await h.login("admin").1)
    let afterLogout = await h.send(
      .post, "/api/mobile/push/register", json: ["device_token": "ab01"], bearer: again.access)
    #expect(afterLogout.status == 409)
    let other = try #require(await h.login("admin", installation: "INST-2").1)
    let elsewhere = await h.send(
      .post, "/api/mobile/push/register", json: ["device_token": "ab01"], bearer: other.access)
    #expect(elsewhere.status == 200)
  }

  @Test func encryptedRegisterDeletesThisUsersLegacyRow() async throws {
    let h = try harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    _ = await h.send(
      .post, "/api/mobile/push/register", json: ["device_token": "ab01"], bearer: t.access)
    _ = await h.putSettings(t.access, revision: 0, h.preferencesJSON())
    let key = try Harness.contentKey(userID: t.userID, installation: "INST-1", seed: 2)
    _ = await h.register(t.access, revision: 1, deviceToken: Harness.deviceToken(2), key: key)
    let count = try h.simulator.core.db.serial {
      try h.simulator.core.db.scalar("SELECT COUNT(*) FROM push_legacy_tokens").int
    }
    #expect(count == 0)
  }

  @Test func unregisterDeletesThisLoginsEncryptedRegistration() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let reply = await h.send(.post, "/api/mobile/push/unregister", bearer: device.tokens.access)
    #expect(reply.status == 200 && reply.text == #"{"data":"ok"}"#)
    let data = try #require(await h.settings(device.tokens.access).data)
    #expect(data["revision"]?.numberValue == 0 && data["registered"]?.boolValue == false)
  }

  @Test func passwordChangeKeepsTheCallersRegistrationAndDropsOthers() async throws {
    let h = try harness()
    let kept = try await h.pushDevice("admin", installation: "INST-1", seed: 1)
    let dropped = try await h.pushDevice("admin", installation: "INST-2", seed: 2)
    _ = await h.sendJSON(
      .put, "/api/auth/password", ["old_password": "pw", "new_password": "pw-2-long"],
      bearer: kept.tokens.access)
    #expect(
      try #require(await h.settings(kept.tokens.access).data)["registered"]?.boolValue == true)
    let rows = await h.control(.get, "/push/registrations")
    #expect(rows?[0]?["installation_id"]?.stringValue == "INST-1")
    #expect(rows?[1] == nil)
    _ = dropped
  }
}
