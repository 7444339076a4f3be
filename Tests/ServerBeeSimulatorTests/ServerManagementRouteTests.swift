import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Editing a server, its tags and the server groups (Protocol/Servers.md §4): the exact
/// validation texts, the three meanings of a nullable key, and what each write does to the
/// list, the groups and the live stream's `full_sync`.
@Suite(.timeLimit(.minutes(5))) struct ServerManagementRouteTests {
  /// A harness with an admin and a member signed in, one group and one server in it.
  private struct World {
    let h: Harness
    let admin: String
    let member: String
    let groupID: String
    let serverID: String
  }

  private func world() async throws -> World {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("mo", role: "member")
    let admin = try #require(await h.login("ada", installation: "INST-A").1).access
    let member = try #require(await h.login("mo", installation: "INST-M").1).access
    let group = try #require(
      await h.control(.post, "/server-groups", ["name": "Production", "weight": 5])?["id"]?
        .stringValue)
    let server = try #require(
      await h.control(.post, "/servers", ["name": "vps-a", "group_id": group])?["data"]?["id"]?
        .stringValue)
    return World(h: h, admin: admin, member: member, groupID: group, serverID: server)
  }

  private func put(_ w: World, _ path: String, _ body: String, as token: String? = nil) async
    -> Harness.Reply
  {
    await w.h.send(.put, path, raw: Data(body.utf8), bearer: token ?? w.admin)
  }

  @Test func absentNullAndAValueAreThreeDifferentEdits() async throws {
    let w = try await world()
    let path = "/api/servers/\(w.serverID)"
    let set = await put(
      w, path,
      #"{"price":4.5,"currency":"EUR","billing_cycle":"yearly","traffic_limit":1099511627776,"#
        + #""traffic_limit_type":"up","billing_start_day":28,"expired_at":"2027-01-01T00:00:00Z","#
        + #""remark":"rack 4","hidden":true,"weight":3,"unknown":1}"#)
    #expect(set.status == 200)
    #expect(set.data?["price"] == .number(4.5))
    #expect(set.data?["currency"]?.stringValue == "EUR")
    #expect(set.data?["billing_cycle"]?.stringValue == "yearly")
    #expect(set.data?["traffic_limit"] == .number(1_099_511_627_776))
    #expect(set.data?["traffic_limit_type"]?.stringValue == "up")
    #expect(set.data?["billing_start_day"] == .number(28))
    #expect(set.data?["expired_at"]?.stringValue == "2027-01-01T00:00:00Z")
    #expect(set.data?["remark"]?.stringValue == "rack 4")
    #expect(set.data?["hidden"] == .bool(true) && set.data?["weight"] == .number(3))

    // Absent keys keep their values; null clears the nullable ones only.
    let cleared = await put(
      w, path, #"{"price":null,"group_id":null,"remark":null,"name":null,"weight":null}"#)
    #expect(cleared.status == 200)
    #expect(cleared.data?["price"] == .null && cleared.data?["group_id"] == .null)
    #expect(cleared.data?["currency"]?.stringValue == "EUR")
    #expect(cleared.data?["remark"]?.stringValue == "rack 4")
    #expect(cleared.data?["name"]?.stringValue == "vps-a" && cleared.data?["weight"] == .number(3))

    // `""` blanks a remark; the detail route reads what the edit wrote.
    _ = await put(w, path, #"{"remark":"","group_id":"\#(w.groupID)"}"#)
    let detail = await w.h.send(.get, path, bearer: w.member)
    #expect(detail.data?["remark"]?.stringValue == "")
    #expect(detail.data?["group_id"]?.stringValue == w.groupID)
    #expect(detail.data?["price"] == .null && detail.data?["currency"]?.stringValue == "EUR")
  }

  @Test func aCountryCodePinsTheFlagAndNullRemovesThePin() async throws {
    let w = try await world()
    let path = "/api/servers/\(w.serverID)"
    let pinned = await put(w, path, #"{"country_code":"nl"}"#)
    #expect(pinned.data?["country_code"]?.stringValue == "NL")
    #expect(pinned.data?["geo_manual"] == .bool(true))
    let unpinned = await put(w, path, #"{"country_code":null}"#)
    #expect(unpinned.data?["geo_manual"] == .bool(false))
    #expect(unpinned.data?["country_code"] == .null && unpinned.data?["region"] == .null)
  }

  @Test func eachCheckAnswersItsOwnText() async throws {
    let w = try await world()
    let path = "/api/servers/\(w.serverID)"
    let cases: [(String, String)] = [
      (#"{"price":-0.01}"#, "price must be finite and greater than or equal to 0"),
      (#"{"billing_cycle":"weekly"}"#, "billing_cycle must be monthly, quarterly, or yearly"),
      (#"{"traffic_limit_type":"both"}"#, "traffic_limit_type must be sum, up, or down"),
      (#"{"billing_start_day":0}"#, "billing_start_day must be between 1 and 28"),
      (#"{"billing_start_day":29}"#, "billing_start_day must be between 1 and 28"),
      (#"{"country_code":"NLD"}"#, "country_code must be a 2-letter ISO 3166-1 alpha-2 code"),
      (#"{"country_code":"1a"}"#, "country_code must be a 2-letter ISO 3166-1 alpha-2 code"),
    ]
    for (body, text) in cases {
      let reply = await put(w, path, body)
      #expect(reply.status == 422, "\(body)")
      #expect(reply.code == "VALIDATION_ERROR" && reply.message == "Validation error: \(text)")
    }
    // Nothing was written by a refused edit.
    let detail = await w.h.send(.get, path, bearer: w.admin)
    #expect(
      detail.data?["billing_start_day"] == .null && detail.data?["geo_manual"] == .bool(false))

    let unknown = await put(w, "/api/servers/nope", #"{"name":"x"}"#)
    #expect(unknown.status == 404 && unknown.message == "Not found: Server not found")
    let noGroup = await put(w, path, #"{"group_id":"no-such-group"}"#)
    #expect(noGroup.status == 500 && noGroup.message == "Internal error: Database error")
    let wrongType = await put(w, path, #"{"price":"4"}"#)
    #expect(wrongType.status == 422 && wrongType.json == nil)
    let member = await put(w, path, #"{"name":"x"}"#, as: w.member)
    #expect(member.status == 403 && member.body.isEmpty)
  }

  @Test func anEditShowsInTheListAndTheLiveStream() async throws {
    let w = try await world()
    _ = await w.h.send(.get, "/api/servers", bearer: w.admin)  // fills the cache
    _ = await put(w, "/api/servers/\(w.serverID)", #"{"name":"vps-b","group_id":null}"#)
    _ = await put(w, "/api/servers/\(w.serverID)/tags", #"{"tags":["web"]}"#)
    let list = await w.h.send(.get, "/api/servers", bearer: w.admin)
    #expect(list.data?[0]?["name"]?.stringValue == "vps-b")
    #expect(list.data?[0]?["group_id"] == .null)
    let sync = try WireJSON.decode(
      JSONValue.self, from: Data(try w.h.simulator.core.fullSync().utf8))
    #expect(sync["servers"]?[0]?["name"]?.stringValue == "vps-b")
    #expect(sync["servers"]?[0]?["group_id"] == .null)
    #expect(sync["servers"]?[0]?["tags"] == .array([.string("web")]))
  }

  @Test func tagsAreReplacedTrimmedDeduplicatedAndSorted() async throws {
    let w = try await world()
    let path = "/api/servers/\(w.serverID)/tags"
    #expect(await w.h.send(.get, path, bearer: w.member).text == #"{"data":[]}"#)
    let set = await put(w, path, #"{"tags":["web"," db ","web","","a.b-c_d"]}"#)
    #expect(set.text == #"{"data":["a.b-c_d","db","web"]}"#)
    #expect(await w.h.send(.get, path, bearer: w.member).text == set.text)
    #expect(await put(w, path, #"{"tags":["x"]}"#).text == #"{"data":["x"]}"#)

    let nine = #"{"tags":["a","a","a","a","a","a","a","a","a"]}"#
    #expect(await put(w, path, nine).message == "Validation error: at most 8 tags")
    #expect(
      await put(w, path, #"{"tags":["abcdefghijklmnopq"]}"#).message
        == "Validation error: tag 'abcdefghijklmnopq' exceeds 16 chars")
    #expect(
      await put(w, path, #"{"tags":["has space"]}"#).message
        == "Validation error: tag 'has space' contains invalid characters")
    #expect(
      await put(w, path, #"{"tags":["é"]}"#).message
        == "Validation error: tag 'é' contains invalid characters")
    // Refused lists wrote nothing.
    #expect(await w.h.send(.get, path, bearer: w.member).text == #"{"data":["x"]}"#)

    #expect(
      await w.h.send(.get, "/api/servers/nope/tags", bearer: w.member).text == #"{"data":[]}"#)
    #expect(await put(w, "/api/servers/nope/tags", #"{"tags":[]}"#).text == #"{"data":[]}"#)
    #expect(await put(w, "/api/servers/nope/tags", #"{"tags":["x"]}"#).status == 500)
    #expect(await put(w, path, #"{"tags":["y"]}"#, as: w.member).status == 403)
  }

  @Test func groupsAreListedByWeightDescendingThenName() async throws {
    let w = try await world()
    for name in ["beta", "alpha", "Gamma"] {
      let created = await w.h.send(
        .post, "/api/server-groups", raw: Data(#"{"name":"\#(name)"}"#.utf8), bearer: w.admin)
      #expect(created.status == 200)
      #expect(created.data?["weight"] == .number(0) && created.data?["name"]?.stringValue == name)
    }
    let list = await w.h.send(.get, "/api/server-groups", bearer: w.member)
    guard case .array(let groups)? = list.data else {
      Issue.record("not a list: \(list.text)")
      return
    }
    let names = groups.compactMap { $0["name"]?.stringValue }
    #expect(names == ["Production", "Gamma", "alpha", "beta"])
  }

  @Test func createRenameReweightAndDeleteAGroup() async throws {
    let w = try await world()
    func post(_ body: String) async -> Harness.Reply {
      await w.h.send(.post, "/api/server-groups", raw: Data(body.utf8), bearer: w.admin)
    }
    #expect(await post(#"{"name":""}"#).message == "Validation error: Name is required")
    let duplicate = await post(#"{"name":"Production"}"#)
    #expect(duplicate.status == 409)
    #expect(duplicate.message == "Conflict: Group 'Production' already exists")
    let staging = try #require(await post(#"{"name":"Staging"}"#).data?["id"]?.stringValue)

    let path = "/api/server-groups/\(staging)"
    // A rename may take another group's name; a weight moves it up the list.
    let renamed = await put(w, path, #"{"name":"Production"}"#)
    #expect(renamed.status == 200 && renamed.data?["name"]?.stringValue == "Production")
    let weighted = await put(w, path, #"{"weight":9}"#)
    #expect(weighted.data?["weight"] == .number(9))
    #expect(weighted.data?["name"]?.stringValue == "Production")
    let list = await w.h.send(.get, "/api/server-groups", bearer: w.admin)
    #expect(list.data?[0]?["id"]?.stringValue == staging)
    #expect(await put(w, path, #"{"name":""}"#).message == "Validation error: Name cannot be empty")
    let missing = await put(w, "/api/server-groups/nope", #"{"weight":1}"#)
    #expect(missing.status == 404 && missing.message == "Not found: Server group not found")

    // Deleting the seeded group leaves its server in no group.
    let deleted = await w.h.send(.delete, "/api/server-groups/\(w.groupID)", bearer: w.admin)
    #expect(deleted.text == #"{"data":"ok"}"#)
    let server = await w.h.send(.get, "/api/servers/\(w.serverID)", bearer: w.admin)
    #expect(server.data?["group_id"] == .null)
    let again = await w.h.send(.delete, "/api/server-groups/\(w.groupID)", bearer: w.admin)
    #expect(again.status == 404 && again.message == "Not found: Server group not found")
    let member = await w.h.send(.delete, path, bearer: w.member)
    #expect(member.status == 403 && member.body.isEmpty)
  }
}
