import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

/// The account and administration area: API keys and the audit log, with the texts,
/// statuses and effects of Protocol/Account.md, Protocol/Administration.md.
@Suite(.timeLimit(.minutes(5))) struct AccountAreaTests {
  @Test func anAdminCreatesAKeyThatAuthenticatesListsWithoutPlaintextAndDeletes() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    let (_, session) = await h.login("ada")
    let token = try #require(session).access
    let created = await h.send(
      .post, "/api/auth/api-keys", json: ["name": "grafana"], bearer: token)
    #expect(created.status == 200)
    let key = try #require(created.data?["key"]?.stringValue)
    let id = try #require(created.data?["id"]?.stringValue)
    #expect(key.hasPrefix("serverbee_") && key.utf8.count == 53)
    #expect(created.data?["key_prefix"]?.stringValue == String(key.dropFirst(10).prefix(8)))
    // The key is a credential on its own.
    let me = await h.send(.get, "/api/auth/me", apiKey: key)
    #expect(me.status == 200 && me.data?["username"]?.stringValue == "ada")
    // The list never shows the plaintext; its row carries `"key":null`.
    let list = await h.send(.get, "/api/auth/api-keys", bearer: token)
    #expect(list.text.contains(#""key":null"#))
    #expect(!list.text.contains(key))
    // Deleting it ends it.
    #expect(await h.send(.delete, "/api/auth/api-keys/\(id)", bearer: token).status == 200)
    #expect(await h.send(.get, "/api/auth/me", apiKey: key).status == 401)
    let again = await h.send(.delete, "/api/auth/api-keys/\(id)", bearer: token)
    #expect(again.status == 404 && again.message == "Not found: API key not found")
  }

  /// Protocol/AppRoutes.md §2.2: creating a key is admin only, although the app offers it to
  /// members; an empty name is a 422.
  @Test func aMemberMayNotCreateAKeyAndAnEmptyNameIsRefused() async throws {
    let h = try Harness()
    _ = await h.user("bob", role: "member")
    _ = await h.user("ada")
    let (_, bob) = await h.login("bob")
    let member = await h.send(
      .post, "/api/auth/api-keys", json: ["name": "x"], bearer: try #require(bob).access)
    #expect(member.status == 403 && member.body.isEmpty)
    let (_, ada) = await h.login("ada")
    let empty = await h.send(
      .post, "/api/auth/api-keys", json: ["name": ""], bearer: try #require(ada).access)
    #expect(empty.status == 422 && empty.message == "Validation error: Name is required")
  }

  @Test func aKeyOfAnotherUserIsNotFoundAndSurvivesAPasswordChange() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("eve")
    let (_, ada) = await h.login("ada")
    let (_, eve) = await h.login("eve")
    let adaToken = try #require(ada).access
    let created = await h.send(.post, "/api/auth/api-keys", json: ["name": "k"], bearer: adaToken)
    let id = try #require(created.data?["id"]?.stringValue)
    let key = try #require(created.data?["key"]?.stringValue)
    let foreign = await h.send(
      .delete, "/api/auth/api-keys/\(id)", bearer: try #require(eve).access)
    #expect(foreign.status == 404)
    let changed = await h.send(
      .put, "/api/auth/password", json: ["old_password": "pw", "new_password": "pw-2-long"],
      bearer: adaToken)
    #expect(changed.status == 200)
    #expect(await h.send(.get, "/api/auth/me", apiKey: key).status == 200)
  }

  @Test func theAuditLogPagesNewestFirstFiltersAndLabelsUsers() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    let (_, ada) = await h.login("ada")
    let token = try #require(ada).access
    for name in ["a", "b", "c"] {
      _ = await h.send(.post, "/api/auth/api-keys", json: ["name": name], bearer: token)
    }
    _ = await h.send(
      .put, "/api/auth/password", json: ["old_password": "pw", "new_password": "pw-2-long"],
      bearer: token)
    let reply = await h.send(.get, "/api/audit-logs?limit=2&offset=0", bearer: token)
    let page = try WireJSON.decode(APIResponse<AuditLogPage>.self, from: reply.body).data
    #expect(page.total == 4)
    #expect(page.entries.map(\.action) == ["change_password", "api_key.create"])
    #expect(page.entries.first?.ip == h.ip)
    #expect(page.entries.first?.createdAt.style == .utcOffset)
    let filteredReply = await h.send(
      .get, "/api/audit-logs?action=api_key.create&offset=1", bearer: token)
    let filtered = try WireJSON.decode(APIResponse<AuditLogPage>.self, from: filteredReply.body)
      .data
    #expect(filtered.total == 3)
    #expect(filtered.entries.map(\.detail) == ["b", "a"])
    let optionsReply = await h.send(.get, "/api/audit-logs/options", bearer: token)
    let options = try WireJSON.decode(
      APIResponse<AuditLogOptions>.self, from: optionsReply.body
    ).data
    #expect(options.actions == ["api_key.create", "change_password"])
    #expect(options.users.map(\.label) == ["ada"])
    // A member gets the empty-body admin gate.
    _ = await h.user("bob", role: "member")
    let (_, bob) = await h.login("bob")
    let member = await h.send(.get, "/api/audit-logs", bearer: try #require(bob).access)
    #expect(member.status == 403 && member.body.isEmpty)
  }

  @Test func usersAreCreatedWithTheDocumentsChecksTexts() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    let (_, ada) = await h.login("ada")
    let token = try #require(ada).access
    let badRole = await h.send(
      .post, "/api/users", json: ["username": "bob", "password": "long-enough", "role": "root"],
      bearer: token)
    #expect(badRole.status == 422)
    #expect(badRole.message == "Validation error: Invalid role 'root', must be 'admin' or 'member'")
    let short = await h.send(
      .post, "/api/users", json: ["username": "bob", "password": "short"], bearer: token)
    #expect(short.message == "Validation error: Password must be at least 8 characters")
    let created = await h.send(
      .post, "/api/users", json: ["username": "bob", "password": "long-enough"], bearer: token)
    let bob = try WireJSON.decode(APIResponse<AdminUser>.self, from: created.body).data
    #expect(bob.role == .member && !bob.hasTwoFactor && bob.createdAt.style == .zulu)
    let duplicate = await h.send(
      .post, "/api/users", json: ["username": "bob", "password": "long-enough"], bearer: token)
    #expect(duplicate.status == 409 && duplicate.message == "Conflict: User 'bob' already exists")
    let list = await h.send(.get, "/api/users", bearer: token)
    let users = try WireJSON.decode(APIResponse<[AdminUser]>.self, from: list.body).data
    #expect(users.map(\.username) == ["ada", "bob"])
  }

  @Test func theLastAdminStaysAndAResetOrDeleteEndsTheUsersSessions() async throws {
    let h = try Harness()
    let adaID = await h.user("ada")
    let bobID = await h.user("bob", role: "member")
    let (_, ada) = await h.login("ada")
    let (_, bob) = await h.login("bob", installation: "INST-B")
    let token = try #require(ada).access
    let bobSession = try #require(bob)
    let demote = await h.send(
      .put, "/api/users/\(adaID)", json: ["role": "member"], bearer: token)
    #expect(
      demote.status == 400 && demote.message == "Bad request: Cannot demote the last admin user")
    let deleteSelf = await h.send(.delete, "/api/users/\(adaID)", bearer: token)
    #expect(deleteSelf.message == "Bad request: Cannot delete the last admin user")
    let reset = await h.send(
      .put, "/api/users/\(bobID)", json: ["password": "a-new-password"], bearer: token)
    #expect(reset.status == 200)
    #expect(await h.refresh(bobSession.refresh, installation: "INST-B").status == 401)
    #expect(await h.send(.get, "/api/auth/me", bearer: bobSession.access).status == 401)
    let (_, again) = await h.login("bob", password: "a-new-password", installation: "INST-B")
    let bobAgain = try #require(again)
    #expect(await h.send(.delete, "/api/users/\(bobID)", bearer: token).status == 200)
    #expect(await h.send(.get, "/api/auth/me", bearer: bobAgain.access).status == 401)
    let gone = await h.send(.delete, "/api/users/\(bobID)", bearer: token)
    #expect(gone.status == 404 && gone.message == "Not found: User not found")
    let log = await h.send(.get, "/api/audit-logs/options", bearer: token)
    let options = try WireJSON.decode(APIResponse<AuditLogOptions>.self, from: log.body).data
    #expect(options.actions == ["user.delete", "user.update"])
  }

  @Test func loginBucketsShowBlockedFirstAndAResetByAddressFreesOne() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    let (_, ada) = await h.login("ada", ip: "10.9.9.9")
    let token = try #require(ada).access
    for _ in 0..<5 { _ = await h.login("ada", password: "wrong", ip: "203.0.113.7") }
    _ = await h.login("ada", password: "wrong", ip: "198.51.100.2")
    let reply = await h.send(.get, "/api/admin/rate-limit", bearer: token)
    let status = try WireJSON.decode(APIResponse<RateLimitStatus>.self, from: reply.body).data
    #expect(status.loginMax == 5 && status.authWindowSeconds == 900 && status.publicMax == 60)
    // Blocked first; the two single attempts tie (the simulated clock stands still).
    #expect(status.entries.first?.ip == "203.0.113.7")
    #expect(Set(status.entries.dropFirst().map(\.ip)) == ["10.9.9.9", "198.51.100.2"])
    #expect(status.entries.map(\.blocked) == [true, false, false])
    #expect(status.entries.map(\.count) == [5, 1, 1])
    #expect(status.entries.first?.secondsRemaining == 900)
    let blocked = await h.login("ada", ip: "203.0.113.7")
    #expect(blocked.0.status == 429)
    let reset = await h.send(
      .post, "/api/admin/rate-limit/reset", json: ["scope": "login", "ip": "203.0.113.7"],
      bearer: token)
    #expect(reset.text == #"{"data":{"cleared":1}}"#)
    #expect(await h.login("ada", ip: "203.0.113.7").0.status == 200)
    let all = await h.send(
      .post, "/api/admin/rate-limit/reset", raw: Data("{}".utf8), bearer: token)
    #expect(all.status == 200)
    let none = await h.send(.get, "/api/admin/rate-limit", bearer: token)
    #expect(
      try WireJSON.decode(APIResponse<RateLimitStatus>.self, from: none.body).data.entries.isEmpty)
  }

  @Test func aGeoDatabaseIsMissingUntilAnAdminDownloadsIt() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let (_, ada) = await h.login("ada")
    let (_, bob) = await h.login("bob", installation: "INST-B")
    let admin = try #require(ada).access
    let member = try #require(bob).access
    #expect(
      await h.send(.get, "/api/geoip/status", bearer: member).text
        == #"{"data":{"installed":false}}"#)
    #expect(await h.send(.post, "/api/geoip/download", bearer: member).status == 403)
    let download = await h.send(.post, "/api/geoip/download", bearer: admin)
    #expect(
      download.text
        == #"{"data":{"success":true,"message":"GeoIP database installed successfully"}}"#)
    let reply = await h.send(.get, "/api/geoip/status", bearer: member)
    let status = try WireJSON.decode(APIResponse<GeoDatabaseStatus>.self, from: reply.body).data
    #expect(status.installed && status.source == "downloaded" && status.fileSize != nil)
    #expect(status.updatedAt?.style == .utcOffset)
    #expect(
      await h.send(.get, "/api/asn/status", bearer: member).text
        == #"{"data":{"installed":false}}"#)
  }

  @Test func anAdminTogglesAnAlertRuleAndAnUnknownOneIsNamed() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    let (_, ada) = await h.login("ada")
    let token = try #require(ada).access
    _ = await h.control(
      .post, "/alert-rules", ["id": "rule-1", "name": "High CPU", "rule_type": "cpu"])
    let off = await h.send(.put, "/api/alert-rules/rule-1", json: ["enabled": "x"], bearer: token)
    #expect(off.status == 422)  // a wrong JSON type is axum's plain-text 422
    let reply = await h.send(
      .put, "/api/alert-rules/rule-1", raw: Data(#"{"enabled":false}"#.utf8), bearer: token)
    let rule = try WireJSON.decode(APIResponse<AlertRule>.self, from: reply.body).data
    #expect(rule.id == "rule-1" && !rule.enabled && rule.ruleTypes == ["cpu"])
    let list = await h.send(.get, "/api/alert-rules", bearer: token)
    let rules = try WireJSON.decode(APIResponse<[AlertRule]>.self, from: list.body).data
    #expect(rules.first?.enabled == false)
    let missing = await h.send(
      .put, "/api/alert-rules/nope", raw: Data(#"{"enabled":true}"#.utf8), bearer: token)
    #expect(missing.status == 404 && missing.message == "Not found: Alert rule nope not found")
  }
}
