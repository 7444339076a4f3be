import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// `GET /api/security/stats` (Protocol/Security.md §3).
@Suite(.timeLimit(.minutes(5))) struct SecurityStatsTests {
  /// A harness with an admin Bearer and one server.
  func seeded() async throws -> (Harness, access: String, server: String) {
    let h = try Harness()
    await h.user("admin")
    let access = try #require(await h.login("admin").1).access
    let server = try #require(try h.simulator.createServers(count: 1).first)
    return (h, access, server)
  }

  func event(_ h: Harness, _ server: String, _ type: String, ip: String = "203.0.113.7") async {
    _ = await h.control(
      .post, "/security-events", ["server_id": server, "event_type": type, "source_ip": ip])
  }

  func stats(_ h: Harness, _ access: String, _ query: String) async -> Harness.Reply {
    await h.send(.get, "/api/security/stats?" + query, bearer: access)
  }

  @Test func groupsByEventTypeLargestCountFirst() async throws {
    let (h, access, server) = try await seeded()
    for type in ["port_scan", "ssh_login", "ssh_brute_force", "ssh_login", "ssh_brute_force"] {
      await event(h, server, type)
    }
    await event(h, server, "ssh_login")
    let reply = await stats(h, access, "group_by=event_type")
    #expect(reply.status == 200)
    #expect(
      reply.text
        == #"{"data":[{"key":"ssh_login","count":3},{"key":"ssh_brute_force","count":2},"#
        + #"{"key":"port_scan","count":1}]}"#)
    #expect(
      try WireJSON.decode(APIResponse<[SecurityStatsEntry]>.self, from: reply.body).data.first
        == SecurityStatsEntry(key: "ssh_login", count: 3))
  }

  @Test func sourceIPTiesAreOrderedByKeyAndLimitCuts() async throws {
    let (h, access, server) = try await seeded()
    for ip in ["198.51.100.2", "198.51.100.1", "198.51.100.3", "198.51.100.3"] {
      await event(h, server, "ssh_login", ip: ip)
    }
    let reply = await stats(h, access, "group_by=source_ip&limit=2")
    #expect(
      reply.text
        == #"{"data":[{"key":"198.51.100.3","count":2},{"key":"198.51.100.1","count":1}]}"#)
    let zero = await stats(h, access, "group_by=source_ip&limit=0")
    #expect(zero.dataCount == 1)
  }

  @Test func dayKeysAreUtcDatesOfCreatedAt() async throws {
    let (h, _, server) = try await seeded()
    await event(h, server, "ssh_login")  // 2027-01-15T08:00:00Z
    h.clock.advance(by: 16 * 3600)  // 2027-01-16T00:00:00Z
    await event(h, server, "ssh_login")
    await event(h, server, "port_scan")
    let access = try #require(await h.login("admin").1).access  // the first one has expired
    let reply = await stats(h, access, "group_by=day")
    #expect(
      reply.text
        == #"{"data":[{"key":"2027-01-16","count":2},{"key":"2027-01-15","count":1}]}"#)
  }

  @Test func serverAndTimeFiltersNarrowTheCount() async throws {
    let (h, access, server) = try await seeded()
    let other = try #require(try h.simulator.createServers(count: 1).first)
    await event(h, server, "ssh_login")
    h.clock.advance(by: 60)
    await event(h, server, "ssh_login")
    await event(h, other, "ssh_login")
    let byServer = await stats(h, access, "group_by=event_type&server_id=\(server)")
    #expect(byServer.text == #"{"data":[{"key":"ssh_login","count":2}]}"#)
    let since = await stats(
      h, access, "group_by=event_type&server_id=\(server)&since=2027-01-15T08:00:30Z")
    #expect(since.text == #"{"data":[{"key":"ssh_login","count":1}]}"#)
    let until = await stats(h, access, "group_by=event_type&until=2027-01-15T08:00:30Z")
    #expect(until.text == #"{"data":[{"key":"ssh_login","count":1}]}"#)
    let none = await stats(h, access, "group_by=event_type&server_id=nope")
    #expect(none.text == #"{"data":[]}"#)
  }

  @Test func limitDefaultsTo50AndIsCappedAt500() async throws {
    let (h, access, server) = try await seeded()
    let db = h.simulator.core.db
    try db.transaction {
      for index in 0..<501 {
        try db.execute(
          """
          INSERT INTO security_events VALUES (?, ?, 'ssh_login', 'info', ?, NULL, NULL, 0, 0, 0,
            'journal', NULL, 0)
          """, [.text("e\(index)"), .text(server), .text("10.0.\(index / 256).\(index % 256)")])
      }
    }
    let standard = await stats(h, access, "group_by=source_ip")
    #expect(standard.dataCount == 50)
    let capped = await stats(h, access, "group_by=source_ip&limit=100000")
    #expect(capped.dataCount == 500)
  }

  @Test func badOrMissingGroupByIsPlainText400() async throws {
    let (h, access, _) = try await seeded()
    let bad = await stats(h, access, "group_by=severity")
    #expect(bad.status == 400 && bad.json == nil)
    #expect(bad.text.contains("unknown variant `severity`"))
    let missing = await stats(h, access, "limit=5")
    #expect(missing.status == 400 && missing.json == nil)
    let badLimit = await stats(h, access, "group_by=day&limit=-1")
    #expect(badLimit.status == 400 && badLimit.json == nil)
    let badSince = await stats(h, access, "group_by=day&since=yesterday")
    #expect(badSince.status == 400 && badSince.json == nil)
  }

  @Test func anyAuthenticatedUserMayReadAndAnonymousIsBare401() async throws {
    let (h, _, server) = try await seeded()
    await event(h, server, "ssh_login")
    await h.user("member", role: "member")
    let member = try #require(await h.login("member", installation: "M").1).access
    #expect(await stats(h, member, "group_by=event_type").status == 200)
    let anonymous = await h.send(.get, "/api/security/stats?group_by=event_type")
    #expect(anonymous.status == 401 && anonymous.body.isEmpty)
  }
}

extension Harness.Reply {
  /// The number of elements of an array `data` payload.
  fileprivate var dataCount: Int? {
    guard case .array(let items)? = data else { return nil }
    return items.count
  }
}
