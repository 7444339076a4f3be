import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Traceroutes (Protocol/AppRoutes.md §7): the admin rule, the documented refusals, hops that
/// arrive on the simulator clock, the history, deleting and clearing, and runs that depend only
/// on (server, target, request id).
@Suite(.timeLimit(.minutes(5))) struct TracerouteAreaTests {
  struct World {
    let h: Harness
    let admin: String
    let member: String
    let server: String

    func start(_ body: String, bearer: String? = nil, server: String? = nil) async
      -> Harness.Reply
    {
      await h.send(
        .post, "/api/servers/\(server ?? self.server)/traceroute", raw: Data(body.utf8),
        bearer: bearer ?? admin)
    }

    func get(_ path: String, bearer: String? = nil) async -> Harness.Reply {
      await h.send(.get, path, bearer: bearer ?? admin)
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
      h: h, admin: admin, member: member,
      server: try #require(made?["data"]?["id"]?.stringValue))
  }

  @Test func aRunsHopsArriveOnTheClockUntilItCompletes() async throws {
    let w = try await world()
    let started = await w.start(#"{"target":"example.com","protocol":"tcp"}"#)
    #expect(started.status == 200, "\(started.text)")
    let id = try #require(started.data?["request_id"]?.stringValue)
    let path = "/api/servers/\(w.server)/traceroute/\(id)"

    let first = await w.get(path, bearer: w.member)
    #expect(first.status == 200, "\(first.text)")
    #expect(first.data?["completed"] == .bool(false))
    #expect(first.data?["completed_at"] == .null)
    #expect(first.data?["hops"]?.items?.isEmpty == true)
    #expect(first.data?["protocol"]?.stringValue == "tcp")

    var counts: [Int] = []
    var last: JSONValue?
    for _ in 0..<20 {
      w.h.clock.advance(by: 0.7)
      let reply = await w.get(path)
      counts.append(reply.data?["hops"]?.items?.count ?? -1)
      last = reply.data
      if reply.data?["completed"] == .bool(true) { break }
    }
    #expect(counts == counts.sorted(), "\(counts)")
    #expect(last?["completed"] == .bool(true))
    #expect(last?["error"] == .null)
    let hops = try #require(last?["hops"]?.items)
    #expect((6...12).contains(hops.count))
    #expect(hops.enumerated().allSatisfy { $0.element["hop"] == .number(Double($0.offset + 1)) })
    #expect(hops.last?["hostname"]?.stringValue == "example.com")
    // `hostname` and `asn` are always there; the measured members only when measured.
    #expect(hops.allSatisfy { $0["hostname"] != nil && $0["asn"] != nil })

    // Later reads answer the same run.
    w.h.clock.advance(by: 60)
    #expect(await w.get(path).data == last)

    let history = await w.get("/api/servers/\(w.server)/traceroute?limit=20", bearer: w.member)
    #expect(history.data?[0]?["request_id"]?.stringValue == id)
    #expect(history.data?[0]?["hop_count"] == .number(Double(hops.count)))
    #expect(history.data?[0]?["has_error"] == .bool(false))
  }

  @Test func theHopsDependOnlyOnServerTargetAndRequestID() {
    let a = TraceroutePlan(serverID: "s1", target: "example.com", requestID: "r1")
    let b = TraceroutePlan(serverID: "s1", target: "example.com", requestID: "r1")
    #expect(a.hopCount == b.hopCount)
    for position in 1...a.hopCount {
      #expect(JSONValue.object(a.hop(position)) == JSONValue.object(b.hop(position)))
    }
    let counts = Set(
      (0..<40).map {
        TraceroutePlan(serverID: "s1", target: "example.com", requestID: "r\($0)").hopCount
      })
    #expect(counts.count > 1 && counts.allSatisfy { (6...12).contains($0) })
  }

  @Test func onlyAnAdminStartsDeletesOrClears() async throws {
    let w = try await world()
    let refused = await w.start(#"{"target":"1.1.1.1"}"#, bearer: w.member)
    #expect(refused.status == 403)
    #expect(refused.body.isEmpty)
    let id = try #require(await w.start(#"{"target":"1.1.1.1"}"#).data?["request_id"]?.stringValue)
    let one = await w.h.send(
      .delete, "/api/servers/\(w.server)/traceroute/\(id)", bearer: w.member)
    #expect(one.status == 403 && one.body.isEmpty)
    let all = await w.h.send(.delete, "/api/servers/\(w.server)/traceroute", bearer: w.member)
    #expect(all.status == 403 && all.body.isEmpty)
    let none = await w.h.send(.get, "/api/servers/\(w.server)/traceroute")
    #expect(none.status == 401 && none.body.isEmpty)
  }

  @Test func theDocumentedRefusals() async throws {
    let w = try await world()
    let invalid = await w.start(#"{"target":"example.com; rm -rf /"}"#)
    #expect(invalid.status == 422)
    #expect(
      invalid.message
        == "Validation error: Invalid target: only alphanumeric characters, dots, hyphens, and "
        + "colons are allowed")
    let empty = await w.start(#"{"target":""}"#)
    #expect(empty.status == 422)
    let kind = await w.start(#"{"target":"1.1.1.1","protocol":"sctp"}"#)
    #expect(kind.status == 422)
    #expect(kind.text.contains("unknown variant `sctp`, expected one of `icmp`, `udp`, `tcp`"))

    _ = await w.h.control(.post, "/servers/\(w.server)/offline")
    let offline = await w.start(#"{"target":"1.1.1.1"}"#)
    #expect(offline.status == 404)
    #expect(offline.message == "Not found: Server \(w.server) is not online")
    let unknownServer = await w.start(#"{"target":"1.1.1.1"}"#, server: "nope")
    #expect(unknownServer.message == "Not found: Server nope is not online")

    let unknown = await w.get("/api/servers/\(w.server)/traceroute/abc")
    #expect(unknown.status == 404)
    #expect(unknown.message == "Not found: Traceroute abc not found")
    let gone = await w.h.send(
      .delete, "/api/servers/\(w.server)/traceroute/abc", bearer: w.admin)
    #expect(gone.status == 404)
    #expect(gone.message == "Not found: Traceroute record abc not found for server \(w.server)")
  }

  @Test func aRunWhoseAgentLeavesFailsAndKeepsItsHops() async throws {
    let w = try await world()
    let id = try #require(
      await w.start(#"{"target":"example.com"}"#).data?["request_id"]?.stringValue)
    w.h.clock.advance(by: 1.5)
    _ = await w.h.control(.post, "/servers/\(w.server)/offline")
    let path = "/api/servers/\(w.server)/traceroute/\(id)"
    let failed = await w.get(path)
    #expect(failed.data?["error"]?.stringValue == "agent disconnected")
    #expect(failed.data?["completed"] == .bool(false))
    #expect(failed.data?["hops"]?.items?.count == 2)
    _ = await w.h.control(.post, "/servers/\(w.server)/online")
    w.h.clock.advance(by: 30)
    #expect(await w.get(path).data == failed.data)
  }

  @Test func deletingOneAndClearingTheRest() async throws {
    let w = try await world()
    var ids: [String] = []
    for target in ["a.example", "b.example", "c.example"] {
      ids.append(
        try #require(
          await w.start(#"{"target":"\#(target)"}"#).data?["request_id"]?.stringValue))
      w.h.clock.advance(by: 1)
    }
    let listed = await w.get("/api/servers/\(w.server)/traceroute?limit=2&offset=0")
    #expect(
      listed.data?.items?.compactMap { $0["request_id"]?.stringValue } == [ids[2], ids[1]])
    let deleted = await w.h.send(
      .delete, "/api/servers/\(w.server)/traceroute/\(ids[0])", bearer: w.admin)
    #expect(deleted.status == 200)
    #expect(deleted.text == #"{"data":null}"#)
    let cleared = await w.h.send(.delete, "/api/servers/\(w.server)/traceroute", bearer: w.admin)
    #expect(cleared.text == #"{"data":{"deleted":2}}"#)
    #expect(await w.get("/api/servers/\(w.server)/traceroute").data == .array([]))
  }

  /// The control API's stalled agent: a run keeps the hops it had and never completes, one
  /// started later shows none, and the agent going away still fails them; once it answers
  /// again the runs go on by the clock.
  @Test func aStalledAgentLeavesARunUnfinished() async throws {
    let w = try await world()
    let started = await w.start(#"{"target":"example.com"}"#)
    let id = try #require(started.data?["request_id"]?.stringValue)
    let path = "/api/servers/\(w.server)/traceroute/\(id)"
    w.h.clock.advance(by: 1.5)
    let stall = await w.h.control(.post, "/servers/\(w.server)/traceroute-agent", ["stalled": true])
    #expect(stall?["stalled"] == .bool(true), "\(String(describing: stall))")
    w.h.clock.advance(by: 120)
    let held = try #require(await w.get(path).data)
    #expect(held["hops"]?.items?.count == 2)
    #expect(held["completed"] == .bool(false) && held["error"] == .null)
    let later = try #require(
      await w.start(#"{"target":"1.1.1.1"}"#).data?["request_id"]?.stringValue)
    w.h.clock.advance(by: 60)
    let none = try #require(await w.get("/api/servers/\(w.server)/traceroute/\(later)").data)
    #expect(none["hops"]?.items?.isEmpty == true && none["completed"] == .bool(false))
    let history = await w.get("/api/servers/\(w.server)/traceroute")
    #expect(
      history.data?[0]?["completed_at"] == .null && history.data?[1]?["hop_count"] == .number(2))

    _ = await w.h.control(.post, "/servers/\(w.server)/traceroute-agent", ["stalled": false])
    let resumed = try #require(await w.get(path).data)
    #expect(resumed["completed"] == .bool(true))
    let unknown = await w.h.send(
      .post, "/__simulator/servers/nope/traceroute-agent", raw: Data("{}".utf8), control: true)
    #expect(unknown.status == 404)

    // Stalled, then offline: the run fails with the hops it had.
    let third = try #require(
      await w.start(#"{"target":"example.org"}"#).data?["request_id"]?.stringValue)
    w.h.clock.advance(by: 0.8)
    _ = await w.h.control(.post, "/servers/\(w.server)/traceroute-agent")
    _ = await w.h.control(.post, "/servers/\(w.server)/offline")
    w.h.clock.advance(by: 30)
    let failed = try #require(await w.get("/api/servers/\(w.server)/traceroute/\(third)").data)
    #expect(failed["error"]?.stringValue == "agent disconnected")
    #expect(failed["hops"]?.items?.count == 1)
  }
}

extension JSONValue {
  /// The elements of an array, else `nil`.
  fileprivate var items: [JSONValue]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }
}
