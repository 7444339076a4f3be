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
