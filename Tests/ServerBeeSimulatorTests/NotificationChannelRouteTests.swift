import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

/// Notification channels (Protocol/Alerts.md §7): admin only, re-validated on every change,
/// tested even when disabled, and a delivery failure as the channel's own 502.
@Suite(.timeLimit(.minutes(5))) struct NotificationChannelRouteTests {
  func admin(_ h: Harness) async throws -> String {
    _ = await h.user("ada")
    return try #require(await h.login("ada").1).access
  }

  @Test func listToggleAndTestAChannel() async throws {
    let h = try Harness()
    let token = try await admin(h)
    #expect(await h.send(.get, "/api/notifications", bearer: token).text == #"{"data":[]}"#)
    _ = await h.control(
      .post, "/notification-channels",
      ["id": "c1", "name": "Ops", "config_json": #"{"url":"https://hooks.example.com/a"}"#])
    let list = await h.send(.get, "/api/notifications", bearer: token)
    #expect(list.data?[0]?["notify_type"]?.stringValue == "webhook")
    #expect(list.data?[0]?["config_json"]?.stringValue == #"{"url":"https://hooks.example.com/a"}"#)
    #expect(list.data?[0]?["created_at"]?.stringValue?.hasSuffix("Z") == true)

    let off = await h.send(
      .put, "/api/notifications/c1", raw: Data(#"{"enabled":false}"#.utf8), bearer: token)
    #expect(off.data?["enabled"] == .bool(false) && off.data?["name"]?.stringValue == "Ops")
    // A disabled channel is still tested.
    let test = await h.send(.post, "/api/notifications/c1/test", bearer: token)
    #expect(test.text == #"{"data":"ok"}"#)
    #expect(await h.control(.get, "/notification-channels/c1")?["tests"] == .number(1))
  }

  @Test func aStoredConfigThatNoLongerParsesFailsEvenAToggle() async throws {
    let h = try Harness()
    let token = try await admin(h)
    _ = await h.control(.post, "/notification-channels", ["id": "c1", "config_json": "{broken"])
    let toggle = await h.send(
      .put, "/api/notifications/c1", raw: Data(#"{"enabled":true}"#.utf8), bearer: token)
    #expect(toggle.status == 422)
    #expect(toggle.message == "Validation error: Invalid webhook config: not a JSON object")
    // A new configuration object repairs it.
    let fixed = await h.send(
      .put, "/api/notifications/c1",
      raw: Data(#"{"config_json":{"url":"https://hooks.example.com/b"}}"#.utf8), bearer: token)
    #expect(fixed.status == 200)
    #expect(fixed.data?["config_json"]?.stringValue == #"{"url":"https://hooks.example.com/b"}"#)
    let missing = await h.send(
      .put, "/api/notifications/c1",
      raw: Data(#"{"notify_type":"telegram"}"#.utf8), bearer: token)
    #expect(
      missing.message == "Validation error: Invalid telegram config: missing field `bot_token`")
  }

  @Test func aDeliveryFailureIsTheChannelsOwn502() async throws {
    let h = try Harness()
    let token = try await admin(h)
    _ = await h.control(
      .post, "/notification-channels",
      ["id": "c1", "test_failure": "Webhook request failed: connection refused"])
    let failed = await h.send(.post, "/api/notifications/c1/test", bearer: token)
    #expect(failed.status == 502)
    #expect(
      failed.text
        == #"{"error":{"code":"BAD_GATEWAY","message":"Webhook request failed: connection refused"}}"#
    )
    _ = await h.control(
      .post, "/notification-channels",
      ["id": "c2", "notify_type": "email", "config_json": #"{"to":"ops@example.com"}"#])
    #expect(await h.send(.post, "/api/notifications/c2/test", bearer: token).status == 422)
  }

  @Test func unknownChannelsAndMembers() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let unknown = await h.send(
      .put, "/api/notifications/nope", raw: Data(#"{"enabled":true}"#.utf8), bearer: token)
    #expect(unknown.status == 404 && unknown.message == "Not found: Notification nope not found")
    #expect(
      await h.send(.post, "/api/notifications/nope/test", bearer: token).message
        == "Not found: Notification nope not found")
    _ = await h.user("bob", role: "member")
    let bob = try #require(await h.login("bob", installation: "INST-2").1).access
    let member = await h.send(.get, "/api/notifications", bearer: bob)
    #expect(member.status == 403 && member.body.isEmpty)
  }
}
