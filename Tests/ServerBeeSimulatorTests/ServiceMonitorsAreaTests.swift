import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Service monitors (Protocol/AppRoutes.md §11): the seeded monitors oldest first with the type
/// filter, the detail flattened with its latest record, records newest first within inclusive
/// bounds and the limit, the query's plain-text 400s, a check run now that moves the state, the
/// admin rule, and answers that depend only on the clock.
@Suite(.timeLimit(.minutes(5))) struct ServiceMonitorsAreaTests {
  struct World {
    let h: Harness
    let admin: String
    let member: String

    func get(_ path: String, member: Bool = false) async -> Harness.Reply {
      await h.send(.get, path, bearer: member ? self.member : admin)
    }
  }

  func world() async throws -> World {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let admin = try #require(await h.login("ada").1).access
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    return World(h: h, admin: admin, member: member)
  }

  func items(_ reply: Harness.Reply) -> [JSONValue] {
    guard case .array(let items) = reply.data else { return [] }
    return items
  }

  func number(_ value: JSONValue?) -> Double? {
    guard case .number(let n) = value else { return nil }
    return n
  }

  @Test func theMonitorsAreListedOldestFirstAndFilteredByType() async throws {
    let w = try await world()
    let all = items(await w.get("/api/service-monitors", member: true))
    #expect(
      all.compactMap { $0["id"]?.stringValue } == [
        "ssl-example", "dns-example", "http-status-page", "tcp-database", "whois-example",
        "tcp-legacy-smtp",
      ])
    let created = all.compactMap { $0["created_at"]?.stringValue }
    #expect(created == created.sorted())
    let tcp = items(await w.get("/api/service-monitors?type=tcp"))
    #expect(tcp.compactMap { $0["id"]?.stringValue } == ["tcp-database", "tcp-legacy-smtp"])
    #expect(items(await w.get("/api/service-monitors?type=icmp")).isEmpty)
    let anonymous = await w.h.send(.get, "/api/service-monitors")
    #expect(anonymous.status == 401 && anonymous.body.isEmpty)
    // The disabled monitor was never checked.
    let legacy = try #require(all.last)
    #expect(legacy["enabled"] == .bool(false))
    #expect(legacy["last_status"] == .null && legacy["last_checked_at"] == .null)
  }

  @Test func theDetailIsTheMonitorFlattenedWithItsLatestRecord() async throws {
    let w = try await world()
    // The list's object, then `latest_record`, in the server's key order (compared as text:
    // the harness's JSON values do not keep the order).
    let listed = await w.get("/api/service-monitors?type=http_keyword")
    #expect(listed.text.hasPrefix(#"{"data":[{"id":"http-status-page","name":"Status page","#))
    let object = String(listed.text.dropFirst(#"{"data":["#.count).dropLast(#"}]}"#.count))
    let reply = await w.get("/api/service-monitors/http-status-page")
    #expect(reply.text.hasPrefix(#"{"data":"# + object + #","latest_record":{"id":"#))
    let detail = try #require(reply.data)
    let newest = items(await w.get("/api/service-monitors/http-status-page/records?limit=1"))
    #expect(detail["latest_record"] == newest.first)
    #expect(detail["last_checked_at"] == newest.first?["time"])
    #expect(detail["last_checked_at"]?.stringValue == "2027-01-15T08:00:00Z")
    #expect(detail["last_status"] == newest.first?["success"])
    let never = await w.get("/api/service-monitors/tcp-legacy-smtp", member: true)
    #expect(never.data?["latest_record"] == .null)
    let unknown = await w.get("/api/service-monitors/nope")
    #expect(unknown.status == 404)
    #expect(unknown.message == "Not found: Service monitor nope not found")
  }

  @Test func recordsAreNewestFirstWithinInclusiveBoundsAndTheLimit() async throws {
    let w = try await world()
    let base = "/api/service-monitors/tcp-database/records"
    let window = items(
      await w.get(base + "?from=2027-01-15T07:50:00Z&to=2027-01-15T08:00:00Z", member: true))
    // One check a minute, both ends included.
    #expect(window.count == 11)
    #expect(window.first?["time"]?.stringValue == "2027-01-15T08:00:00Z")
    #expect(window.last?["time"]?.stringValue == "2027-01-15T07:50:00Z")
    let ids = window.compactMap { number($0["id"]) }
    #expect(ids == ids.sorted(by: >) && Set(ids).count == ids.count)
    #expect(window.allSatisfy { $0["monitor_id"]?.stringValue == "tcp-database" })
    for record in window {
      let detail = try #require(record["detail_json"]?.stringValue)
      let success = record["success"] == .bool(true)
      #expect(detail == (success ? #"{"connected":true}"# : #"{"connected":false}"#))
      #expect((record["error"] == .null) == success)
    }
    let limited = items(await w.get(base + "?limit=3"))
    #expect(limited == Array(window.prefix(3)))
    #expect(items(await w.get(base + "?limit=0")).isEmpty)
    #expect(items(await w.get("/api/service-monitors/nope/records")).isEmpty)
    // Kept for 7 days: nothing older, whatever `from` says.
    let all = items(await w.get(base + "?from=2027-01-01T00:00:00Z"))
    #expect(all.count == 7 * 24 * 60 + 1)
    #expect(all.last?["time"]?.stringValue == "2027-01-08T08:00:00Z")

    for query in ["from=yesterday", "to=2027-13-01T00:00:00Z", "limit=-1", "limit=ten"] {
      let bad = await w.get(base + "?" + query)
      #expect(bad.status == 400, "\(query)")
      #expect(bad.json == nil, "\(query): \(bad.text)")
      #expect(bad.text.hasPrefix("Failed to deserialize query string: "), "\(query)")
    }
  }

  @Test func theStateFollowsTheRecords() async throws {
    let w = try await world()
    for monitor in items(await w.get("/api/service-monitors")) {
      let id = try #require(monitor["id"]?.stringValue)
      let records = items(await w.get("/api/service-monitors/\(id)/records"))
      let failures = records.prefix { $0["success"] == .bool(false) }.count
      #expect(number(monitor["consecutive_failures"]) == Double(failures), "\(id)")
      #expect(monitor["last_status"] == (records.first?["success"] ?? .null), "\(id)")
    }
  }

  @Test func aCheckRunsNowForAdminsAndBecomesTheLatestRecord() async throws {
    let w = try await world()
    let before = try #require(await w.get("/api/service-monitors/dns-example").data)
    w.h.clock.advance(by: 30.5)
    let denied = await w.h.send(.post, "/api/service-monitors/dns-example/check", bearer: w.member)
    #expect(denied.status == 403 && denied.body.isEmpty)
    let checked = await w.h.send(.post, "/api/service-monitors/dns-example/check", bearer: w.admin)
    #expect(checked.status == 200, "\(checked.text)")
    let record = try #require(checked.data)
    #expect(record["time"]?.stringValue == "2027-01-15T08:00:30.500Z")
    #expect(record["monitor_id"]?.stringValue == "dns-example")
    #expect(
      (number(record["id"]) ?? 0) > (number(before["latest_record"]?["id"]) ?? .infinity))
    let after = try #require(await w.get("/api/service-monitors/dns-example").data)
    #expect(after["latest_record"] == record)
    #expect(after["last_checked_at"] == record["time"])
    #expect(after["updated_at"] == record["time"])
    #expect(items(await w.get("/api/service-monitors/dns-example/records?limit=1")).first == record)
    // A second check at the same instant comes after the first.
    let again = try #require(
      await w.h.send(.post, "/api/service-monitors/dns-example/check", bearer: w.admin).data)
    #expect((number(again["id"]) ?? 0) == (number(record["id"]) ?? 0) + 1)
    // A disabled monitor can be checked; it then has a state.
    let legacy = await w.h.send(
      .post, "/api/service-monitors/tcp-legacy-smtp/check", bearer: w.admin)
    #expect(legacy.status == 200)
    let state = try #require(await w.get("/api/service-monitors/tcp-legacy-smtp").data)
    #expect(state["last_status"] == legacy.data?["success"])
    let unknown = await w.h.send(.post, "/api/service-monitors/nope/check", bearer: w.admin)
    #expect(unknown.status == 404)
    #expect(unknown.message == "Not found: Service monitor nope not found")
  }

  @Test func theSameClockGivesTheSameAnswers() async throws {
    let a = try await world()
    let b = try await world()
    for path in [
      "/api/service-monitors", "/api/service-monitors/ssl-example",
      "/api/service-monitors/http-status-page/records?limit=200",
    ] {
      let first = await a.get(path)
      #expect(first.status == 200)
      #expect(first.body == (await b.get(path)).body, "\(path)")
    }
    a.h.clock.advance(by: 60)
    let later = try #require(await a.get("/api/service-monitors/http-status-page").data)
    #expect(later["last_checked_at"]?.stringValue == "2027-01-15T08:01:00Z")
  }
}
