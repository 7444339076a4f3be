import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Legacy push registration (Protocol/Push.md §1, §2.8) and what other auth routes do to its rows.
@Suite(.timeLimit(.minutes(5))) struct LegacyPushTests {
  static let ok = #"{"data":"ok"}"#

  func register(
    _ h: Harness, _ token: String = "ab01", bearer: String? = nil, apiKey: String? = nil
  )
    async -> Harness.Reply
  {
    await h.send(
      .post, "/api/mobile/push/register", json: ["device_token": token], bearer: bearer,
      apiKey: apiKey)
  }

  func unregister(_ h: Harness, bearer: String? = nil) async -> Harness.Reply {
    await h.send(.post, "/api/mobile/push/unregister", bearer: bearer)
  }

  /// The stored rows as (installation, user, login, token), ordered by installation.
  func rows(_ h: Harness) throws -> [[String]] {
    try h.simulator.core.db.query(
      """
      SELECT installation_id, user_id, mobile_session_id, device_token FROM push_legacy_tokens
      ORDER BY installation_id
      """
    ).map { row in
      ["installation_id", "user_id", "mobile_session_id", "device_token"].map {
        row[$0].text ?? ""
      }
    }
  }

  func loggedIn(_ h: Harness, _ name: String = "admin", installation: String = "INST-1")
    async throws -> Harness.Tokens
  {
    await h.user(name)
    return try #require(await h.login(name, installation: installation).1)
  }

  @Test func registerStoresTheTokenForThisLogin() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let reply = await register(h, "ab01", bearer: t.access)
    #expect(reply.status == 200 && reply.text == Self.ok)
    #expect(try rows(h) == [["INST-1", t.userID, t.session, "ab01"]])
  }

  @Test func registeringAgainUpsertsByInstallation() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    #expect(await register(h, "ab01", bearer: t.access).text == Self.ok)
    let again = await register(h, "cd02", bearer: t.access)
    #expect(again.status == 200 && again.text == Self.ok)
    #expect(try rows(h) == [["INST-1", t.userID, t.session, "cd02"]])
  }

  @Test func unregisterDeletesTheRow() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    _ = await register(h, bearer: t.access)
    let reply = await unregister(h, bearer: t.access)
    #expect(reply.status == 200 && reply.text == Self.ok)
    #expect(try rows(h).isEmpty)
  }

  @Test func unregisterWithNothingRegisteredIsStillOk() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let reply = await unregister(h, bearer: t.access)
    #expect(reply.status == 200 && reply.text == Self.ok)
  }

  @Test func emptyDeviceTokenIs422BeforeTheBearerCheck() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let reply = await register(h, "", bearer: t.access)
    #expect(reply.status == 422 && reply.code == "VALIDATION_ERROR")
    #expect(reply.message == "Validation error: device_token is required")
    // Step 2 precedes step 3: an API key with an empty token is 422, not 401.
    let key = try #require(
      await h.control(.post, "/users/\(t.userID)/api-key")?["api_key"]?.stringValue)
    #expect(await register(h, "", apiKey: key).status == 422)
    #expect(try rows(h).isEmpty)
  }

  @Test func unauthenticatedRegisterAndUnregisterAreBare401() async throws {
    let h = try Harness()
    let register = await register(h)
    #expect(register.status == 401 && register.body.isEmpty)
    let unregister = await unregister(h)
    #expect(unregister.status == 401 && unregister.body.isEmpty)
    let madeUp = await self.register(h, bearer: "made-up")
    #expect(madeUp.status == 401 && madeUp.body.isEmpty)
  }

  @Test func apiKeyInsteadOfABearerIsJson401() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let key = try #require(await h.control(.post, "/users/\(id)/api-key")?["api_key"]?.stringValue)
    let register = await register(h, apiKey: key)
    #expect(register.status == 401 && register.code == "UNAUTHORIZED")
    #expect(register.message == "Unauthorized")
    let unregister = await h.send(.post, "/api/mobile/push/unregister", apiKey: key)
    #expect(unregister.status == 401 && unregister.code == "UNAUTHORIZED")
    #expect(try rows(h).isEmpty)
  }

  @Test func webTokenAsBearerIsNotAMobileSession() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let web = try #require(
      await h.control(.post, "/users/\(id)/web-session")?["session_token"]?.stringValue)
    for reply in [await register(h, bearer: web), await unregister(h, bearer: web)] {
      #expect(reply.status == 400)
      #expect(reply.message == "Bad request: This session is not a mobile session")
    }
  }

  @Test func anotherUsersRowOnThisInstallationIs403() async throws {
    let h = try Harness()
    let alice = try await loggedIn(h, "alice")
    let bob = try await loggedIn(h, "bob")
    #expect(await register(h, "aa", bearer: alice.access).text == Self.ok)
    let reply = await register(h, "bb", bearer: bob.access)
    #expect(reply.status == 403 && reply.code == "FORBIDDEN")
    #expect(reply.message == "Forbidden: This device is registered to another account")
    // Bob's unregister never touches Alice's row.
    #expect(await unregister(h, bearer: bob.access).text == Self.ok)
    #expect(try rows(h) == [["INST-1", alice.userID, alice.session, "aa"]])
  }

  @Test func aNewLoginOfTheSameUserTakesOverAndTheOldLoginCannotUnregisterIt() async throws {
    let h = try Harness()
    let old = try await loggedIn(h)
    _ = await register(h, "aa", bearer: old.access)
    let new = try #require(await h.login("admin").1)
    #expect(await register(h, "bb", bearer: new.access).text == Self.ok)
    #expect(try rows(h) == [["INST-1", new.userID, new.session, "bb"]])
    #expect(await unregister(h, bearer: old.access).text == Self.ok)
    #expect(try rows(h).count == 1)
  }

  @Test func refreshKeepsTheRegistration() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    _ = await register(h, "ab01", bearer: t.access)
    let refreshed = await h.refresh(t.refresh)
    #expect(refreshed.status == 200)
    #expect(try rows(h) == [["INST-1", t.userID, t.session, "ab01"]])
    // The new access token still owns it: unregister removes it.
    let access = try #require(Harness.tokens(refreshed)).access
    _ = await unregister(h, bearer: access)
    #expect(try rows(h).isEmpty)
  }

  @Test func logoutDeletesTheRegistration() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let other = try await loggedIn(h, "bob", installation: "INST-2")
    _ = await register(h, bearer: t.access)
    _ = await register(h, "cc", bearer: other.access)
    #expect(await h.send(.post, "/api/mobile/auth/logout", bearer: t.access).text == Self.ok)
    #expect(try rows(h) == [["INST-2", other.userID, other.session, "cc"]])
  }

  @Test func deviceRevokeDeletesTheRegistration() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    _ = await register(h, bearer: t.access)
    let web = try #require(
      await h.control(.post, "/users/\(t.userID)/web-session")?["session_token"]?.stringValue)
    let reply = await h.send(.delete, "/api/mobile/auth/devices/\(t.session)", cookie: web)
    #expect(reply.text == Self.ok)
    #expect(try rows(h).isEmpty)
  }

  @Test func passwordChangeDeletesTheUsersOtherRegistrations() async throws {
    let h = try Harness()
    let a = try await loggedIn(h, "alice", installation: "A")
    let b = try #require(await h.login("alice", installation: "B").1)
    let bob = try await loggedIn(h, "bob", installation: "C")
    for access in [a.access, b.access, bob.access] { _ = await register(h, bearer: access) }
    let change = await h.send(
      .put, "/api/auth/password", json: ["old_password": "pw", "new_password": "pw-2-long"],
      bearer: a.access)
    #expect(change.text == Self.ok)
    // Device A made the change and keeps its login and row; B's row is gone; Bob is untouched.
    #expect(try rows(h).map { $0[0] } == ["A", "C"])
  }

  @Test func adminPasswordResetDeletesEveryRegistrationOfTheUser() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    _ = await register(h, bearer: t.access)
    _ = await h.control(.patch, "/users/\(t.userID)", ["password": "reset"])
    #expect(try rows(h).isEmpty)
  }

  @Test func aLeftoverTokenCountsAsDanglingStateForRevoke() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    _ = await register(h, bearer: t.access)
    _ = await h.control(.delete, "/mobile-sessions/\(t.session)?keep_references=true")
    try h.simulator.core.db.execute(
      "DELETE FROM access_sessions WHERE mobile_session_id = ?", [.text(t.session)])
    try h.simulator.core.db.execute(
      "DELETE FROM session_proofs WHERE session_id = ?", [.text(t.session)])
    let reply = await h.send(
      .post, "/api/mobile/auth/revoke",
      json: [
        "installation_id": "INST-1", "revocation_token": t.revocation,
        "expected_session_id": t.session,
      ])
    #expect(reply.status == 401)
    #expect(try rows(h).count == 1)
  }

  @Test func aVersion1DatabaseMigratesAndKeepsItsData() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    do {
      let db = try Database(path: directory.appendingPathComponent("simulator.sqlite").path)
      defer { db.close() }
      for statement in Schema.migrations[0] { try db.execute(statement) }
      try db.execute("PRAGMA user_version = 1")
      try db.execute(
        "INSERT INTO users VALUES ('u1', 'old', 'member', 's', 'h', NULL, 0, NULL, 0)")
    }
    let h = try Harness(directory: directory)
    let db = h.simulator.core.db
    #expect(try db.scalar("PRAGMA user_version").int == Int64(Schema.migrations.count))
    #expect(try db.scalar("SELECT username FROM users WHERE id = 'u1'").text == "old")
    #expect(try db.scalar("SELECT COUNT(*) FROM push_legacy_tokens").int == 0)
  }
}
