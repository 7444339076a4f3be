import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

/// Bodies the simulator refuses as a real server does: every member of
/// `PUT /api/alert-rules/{id}` is type-checked, its values validated and the stored ones
/// applied (`Protocol/Alerts.md §6.2`), and the rate-limit reset takes only a known `scope`
/// (`Protocol/Administration.md §3.2`).
@Suite(.timeLimit(.minutes(5))) struct StrictBodyRouteTests {
  static let deserialize = "Failed to deserialize the JSON body into the target type: "

  /// An admin's access token, with the rule `rule-1` ("High CPU", `cpu`) in place.
  func admin(_ h: Harness) async throws -> String {
    _ = await h.user("ada")
    let (_, ada) = await h.login("ada")
    _ = await h.control(
      .post, "/alert-rules", ["id": "rule-1", "name": "High CPU", "rule_type": "cpu"])
    return try #require(ada).access
  }

  func put(_ h: Harness, _ body: String, _ token: String, id: String = "rule-1") async
    -> Harness.Reply
  {
    await h.send(.put, "/api/alert-rules/\(id)", raw: Data(body.utf8), bearer: token)
  }

  @Test func aRuleUpdateRefusesEachWronglyTypedMemberWithThePlainText422() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let refusals: [(body: String, text: String)] = [
      (#"{"name":5}"#, "name: invalid type"),
      (#"{"enabled":"x"}"#, "enabled: invalid type"),
      (#"{"trigger_mode":1}"#, "trigger_mode: invalid type"),
      (#"{"cover_type":true}"#, "cover_type: invalid type"),
      (#"{"notification_group_id":7}"#, "notification_group_id: invalid type"),
      (#"{"server_ids":"s1"}"#, "server_ids: invalid type"),
      (#"{"server_ids":[1]}"#, "server_ids: invalid type"),
      (#"{"rules":{}}"#, "rules: invalid type"),
      (#"{"rules":[1]}"#, "rules[0]: invalid type"),
      (#"{"rules":[{"rule_type":"cpu"},{"max":90}]}"#, "rules[1]: missing field `rule_type`"),
      (#"{"rules":[{"rule_type":3}]}"#, "rules[0].rule_type: invalid type"),
      (#"{"actions":"block"}"#, "actions: invalid type"),
      (#"{"actions":[null]}"#, "actions[0]: invalid type"),
      // Valid members do not save a wrongly typed one.
      (#"{"enabled":false,"server_ids":{"id":"s1"}}"#, "server_ids: invalid type"),
    ]
    for refusal in refusals {
      let reply = await put(h, refusal.body, token)
      #expect(reply.status == 422, "\(refusal.body)")
      #expect(reply.text == Self.deserialize + refusal.text, "\(refusal.body)")
    }
    // The extractor reads the body before the handler looks the rule up.
    let unknown = await put(h, #"{"server_ids":"s1"}"#, token, id: "nope")
    #expect(unknown.status == 422 && unknown.text == Self.deserialize + "server_ids: invalid type")
    let detail = await h.send(.get, "/api/alert-rules/rule-1", bearer: token)
    let rule = try WireJSON.decode(APIResponse<AlertRule>.self, from: detail.body).data
    #expect(rule.enabled && rule.name == "High CPU" && rule.ruleTypes == ["cpu"])
  }

  /// `cover_type` is checked once the rule is found; `trigger_mode` is stored unchecked, as the
  /// server stores it.
  @Test func aRuleUpdateValidatesCoverTypeOnceTheRuleIsFound() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let cover = await put(h, #"{"enabled":false,"cover_type":"some"}"#, token)
    #expect(cover.status == 422)
    #expect(
      cover.message
        == "Validation error: Invalid cover_type 'some': must be one of 'all', 'include', 'exclude'"
    )
    let mode = await put(h, #"{"trigger_mode":"sometimes"}"#, token)
    #expect(mode.status == 200)
    let unknown = await put(h, #"{"cover_type":"some"}"#, token, id: "nope")
    #expect(unknown.status == 404 && unknown.message == "Not found: Alert rule nope not found")
    let detail = await h.send(.get, "/api/alert-rules/rule-1", bearer: token)
    #expect(try WireJSON.decode(APIResponse<AlertRule>.self, from: detail.body).data.enabled)
  }

  @Test func aRuleUpdateAppliesTheMembersTheSimulatorStores() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let reply = await put(
      h,
      #"{"name":"Disk","enabled":false,"trigger_mode":"once","cover_type":"include","#
        + #""server_ids":["s1","s2"],"notification_group_id":null,"#
        + #""rules":[{"rule_type":"disk","max":90}],"actions":[],"unknown":1}"#, token)
    #expect(reply.status == 200, "\(reply.text)")
    let rule = try WireJSON.decode(APIResponse<AlertRule>.self, from: reply.body).data
    #expect(rule.id == "rule-1" && rule.name == "Disk" && !rule.enabled)
    #expect(rule.triggerMode == .once && rule.ruleTypes == ["disk"])
    let stored = await h.control(.patch, "/alert-rules/rule-1", [String: Any]())
    #expect(stored?["server_ids"] == .array([.string("s1"), .string("s2")]))
    // `null` clears the list (every server); nulls elsewhere and an empty `rules` change nothing.
    let cleared = await put(
      h, #"{"server_ids":null,"name":null,"enabled":null,"rules":[],"cover_type":null}"#, token)
    let after = try WireJSON.decode(APIResponse<AlertRule>.self, from: cleared.body).data
    #expect(after.name == "Disk" && !after.enabled && after.ruleTypes == ["disk"])
    #expect(
      await h.control(.patch, "/alert-rules/rule-1", [String: Any]())?["server_ids"] == .array([]))
    // The app's own body still toggles the rule.
    let on = await put(h, #"{"enabled":true}"#, token)
    #expect(try WireJSON.decode(APIResponse<AlertRule>.self, from: on.body).data.enabled)
  }

  @Test func aRateLimitResetRefusesAnUnknownScopeAndTakesTheKnownOnes() async throws {
    let h = try Harness()
    let token = try await admin(h)
    _ = await h.login("ada", password: "wrong", ip: "203.0.113.7")
    func reset(_ body: String) async -> Harness.Reply {
      await h.send(.post, "/api/admin/rate-limit/reset", raw: Data(body.utf8), bearer: token)
    }
    let unknown = await reset(#"{"scope":"logins"}"#)
    #expect(unknown.status == 422)
    #expect(
      unknown.text
        == Self.deserialize
        + "scope: unknown variant `logins`, expected one of `login`, `register`, `public`")
    let wrongType = await reset(#"{"scope":1}"#)
    #expect(wrongType.status == 422 && wrongType.text == Self.deserialize + "scope: invalid type")
    #expect(await reset(#"{"scope":"register"}"#).text == #"{"data":{"cleared":0}}"#)
    #expect(await reset(#"{"scope":"public","ip":""}"#).text == #"{"data":{"cleared":0}}"#)
    #expect(await reset(#"{"scope":null}"#).text == #"{"data":{"cleared":2}}"#)
  }
}
