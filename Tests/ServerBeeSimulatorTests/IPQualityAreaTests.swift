import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// IP quality (Protocol/AppRoutes.md §9): seeded per-server results the overview agrees with, a
/// recheck that lands on the clock, the services (built-in refusals, custom deletion), the
/// settings' range, and the admin rule.
@Suite(.timeLimit(.minutes(5))) struct IPQualityAreaTests {
  struct World {
    let h: Harness
    let admin: String
    let member: String
    let server: String

    func send(_ method: HTTPMethod, _ path: String, _ body: String? = nil, member: Bool = false)
      async -> Harness.Reply
    {
      await h.send(
        method, path, raw: body.map { Data($0.utf8) }, bearer: member ? self.member : admin)
    }
  }

  func world() async throws -> World {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let admin = try #require(await h.login("ada").1).access
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    let made = await h.control(
      .post, "/servers", ["name": "web-1", "cpu_cores": 4, "online": true])
    return World(
      h: h, admin: admin, member: member, server: try #require(made?["data"]?["id"]?.stringValue))
  }

  @Test func aServersResultsAreSeededAndTheOverviewAgrees() async throws {
    let w = try await world()
    let one = await w.send(.get, "/api/ip-quality/servers/\(w.server)", member: true)
    #expect(one.status == 200, "\(one.text)")
    #expect(one.data?["ip_quality"]?["ip"]?.stringValue?.hasPrefix("203.0.113.") == true)
    let overview = await w.send(.get, "/api/ip-quality/overview", member: true)
    #expect(overview.data?[0] == one.data)
    #expect(await w.send(.get, "/api/ip-quality/servers/\(w.server)").data == one.data)
    let unknown = await w.send(.get, "/api/ip-quality/servers/nope")
    #expect(unknown.text == #"{"data":{"server_id":"nope","unlock_results":[],"ip_quality":null}}"#)
  }

  @Test func aRecheckLandsOnTheClock() async throws {
    let w = try await world()
    let path = "/api/ip-quality/servers/\(w.server)"
    let before = await w.send(.get, path).data?["ip_quality"]?["checked_at"]
    let member = await w.send(.post, path + "/check", member: true)
    #expect(member.status == 403 && member.body.isEmpty)
    let asked = await w.send(.post, path + "/check")
    #expect(asked.text == #"{"data":"ok"}"#)
    #expect(await w.send(.get, path).data?["ip_quality"]?["checked_at"] == before)
    w.h.clock.advance(by: 4)
    let after = await w.send(.get, path).data?["ip_quality"]?["checked_at"]
    #expect(after != nil && after != before)

    _ = await w.h.control(.post, "/servers/\(w.server)/offline")
    let offline = await w.send(.post, path + "/check")
    #expect(offline.status == 404)
    #expect(offline.message == "Not found: Server \(w.server) is not online")
  }

  @Test func servicesAndSettings() async throws {
    let w = try await world()
    let services = await w.send(.get, "/api/ip-quality/services", member: true)
    let keys = services.data.flatMap { value -> [String]? in
      guard case .array(let rows) = value else { return nil }
      return rows.compactMap { $0["id"]?.stringValue }
    }
    #expect(keys?.first == "chatgpt")
    let builtin = await w.send(.delete, "/api/ip-quality/services/netflix")
    #expect(builtin.status == 400)
    #expect(builtin.message == "Bad request: Cannot delete a built-in service")
    let off = await w.send(
      .put, "/api/ip-quality/services/netflix", #"{"enabled":false,"name":"Renamed"}"#)
    #expect(off.data?["enabled"] == .bool(false))
    #expect(off.data?["name"]?.stringValue == "Netflix")
    let custom = await w.send(.delete, "/api/ip-quality/services/custom-status-page")
    #expect(custom.text == #"{"data":"ok"}"#)
    let gone = await w.send(.delete, "/api/ip-quality/services/custom-status-page")
    #expect(gone.message == "Not found: Service custom-status-page not found")
    let memberPut = await w.send(
      .put, "/api/ip-quality/services/netflix", #"{"enabled":true}"#, member: true)
    #expect(memberPut.status == 403 && memberPut.body.isEmpty)

    #expect(
      await w.send(.get, "/api/ip-quality/settings", member: true).text
        == #"{"data":{"check_interval_hours":12}}"#)
    let range = await w.send(.put, "/api/ip-quality/settings", #"{"check_interval_hours":169}"#)
    #expect(range.status == 422)
    #expect(
      range.message == "Validation error: check_interval_hours must be between 1 and 168 (one week)"
    )
    let saved = await w.send(.put, "/api/ip-quality/settings", #"{"check_interval_hours":24}"#)
    #expect(saved.text == #"{"data":{"check_interval_hours":24}}"#)
    #expect(
      await w.send(.get, "/api/ip-quality/settings").text
        == #"{"data":{"check_interval_hours":24}}"#)
  }

  /// The seeded custom service's row, as the services list shows it.
  func customService(_ w: World) async -> JSONValue? {
    guard case .array(let rows) = await w.send(.get, "/api/ip-quality/services").data else {
      return nil
    }
    return rows.first { $0["id"]?.stringValue == "custom-status-page" }
  }

  @Test func aCustomServicesChangeIsCheckedLikeACreationAndARefusalChangesNothing() async throws {
    let w = try await world()
    let path = "/api/ip-quality/services/custom-status-page"
    let before = try #require(await customService(w))
    // Each refusal comes with other changes in the same body, which must not be written.
    let refusals: [(String, String)] = [
      (#""url":"ftp://status.example.com/""#, "URL scheme must be http or https"),
      (#""url":"http://status.example.com:8080/""#, "URL port must be 80 or 443 (or absent)"),
      (#""url":"https://status.example.com:0/""#, "URL port must be 80 or 443 (or absent)"),
      (#""url":"status.example.com/health""#, "Invalid URL: relative URL without a base"),
      (#""url":"https://:443/""#, "Invalid URL: empty host"),
      (#""url":"https://status.example.com:99999/""#, "Invalid URL: invalid port number"),
      (#""rules":[]"#, "rules must not be empty for a custom service"),
      (
        #""url":"https://ok.example.com/","rules":[]"#,
        "rules must not be empty for a custom service"
      ),
    ]
    for (change, message) in refusals {
      let reply = await w.send(
        .put, path, #"{"enabled":false,"name":"Renamed","popularity":99,"# + change + "}")
      #expect(reply.status == 422, "\(change): \(reply.text)")
      #expect(reply.message == "Validation error: " + message, "\(change)")
      #expect(await customService(w) == before, "\(change) changed the stored row")
    }
    // The ports a URL may name, and a change that passes.
    for url in ["http://status.example.com:80/", "https://status.example.com:443/x"] {
      let reply = await w.send(.put, path, #"{"url":""# + url + #""}"#)
      #expect(reply.status == 200, "\(url): \(reply.text)")
    }
    let changed = await w.send(
      .put, path,
      #"{"name":"Health","url":"https://health.example.com/","headers":[["Accept","text/html"]],"rules":[{"status":"blocked","when":{"status_code":403}}]}"#
    )
    #expect(changed.status == 200, "\(changed.text)")
    #expect(changed.data?["name"]?.stringValue == "Health")
    #expect(
      changed.data?["request"]?.stringValue
        == #"{"url":"https://health.example.com/","method":"GET","headers":[["Accept","text/html"]],"timeout_ms":5000}"#
    )
    #expect(
      changed.data?["rules"]?.stringValue
        == #"[{"status":"blocked","when":{"status_code":403}}]"#)
    let wrongType = await w.send(.put, path, #"{"rules":"none"}"#)
    #expect(wrongType.status == 422 && wrongType.json == nil)
    // A built-in service ignores the request and rules silently, invalid or not.
    let builtin = await w.send(
      .put, "/api/ip-quality/services/netflix", #"{"url":"ftp://x","rules":[]}"#)
    #expect(builtin.status == 200, "\(builtin.text)")
    #expect(builtin.data?["request"] == .null && builtin.data?["rules"] == .null)
  }
}
