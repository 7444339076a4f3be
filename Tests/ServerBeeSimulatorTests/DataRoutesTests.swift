import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

@Suite(.timeLimit(.minutes(5))) struct DataRoutesTests {
  func adminAndMember(_ h: Harness) async throws -> (admin: String, member: String) {
    await h.user("admin")
    await h.user("member", role: "member")
    let admin = try #require(await h.login("admin").1).access
    let member = try #require(await h.login("member", installation: "M").1).access
    return (admin, member)
  }

  @Test func unknownApiPathIsBare404AndWrongMethodBare405() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    let unknown = await h.send(.get, "/api/nope", bearer: admin)
    #expect(unknown.status == 404 && unknown.body.isEmpty)
    let wrongMethod = await h.send(.patch, "/api/servers", bearer: admin)
    #expect(wrongMethod.status == 405 && wrongMethod.body.isEmpty)
    let health = await h.send(.get, "/healthz")
    #expect(health.status == 200 && health.text == "ok")
  }

  @Test func unauthenticatedDataRouteIsBare401() async throws {
    let h = try Harness()
    let reply = await h.send(.get, "/api/servers")
    #expect(reply.status == 401 && reply.body.isEmpty)
  }

  @Test func jsonBodyProblemsAreFrameworkRejections() async throws {
    let h = try Harness()
    let noType = await h.send(.post, "/api/mobile/auth/login")
    #expect(noType.status == 415)
    let malformed = await h.send(.post, "/api/mobile/auth/login", raw: Data("{".utf8))
    #expect(malformed.status == 400 && malformed.json == nil)
    let missing = await h.send(.post, "/api/mobile/auth/login", json: ["username": "a"])
    #expect(missing.status == 422 && missing.json == nil)
  }

  @Test func membersGetBare403FromAdminRoutesButReadAlertsAndSecurity() async throws {
    let h = try Harness()
    let (admin, member) = try await adminAndMember(h)
    for path in ["/api/tasks", "/api/alert-rules", "/api/tasks/x/results"] {
      let reply = await h.send(.get, path, bearer: member)
      #expect(reply.status == 403 && reply.body.isEmpty)
      #expect(await h.send(.get, path, bearer: admin).status == 200)
    }
    #expect(await h.send(.get, "/api/alert-events", bearer: member).status == 200)
    #expect(await h.send(.get, "/api/security/events", bearer: member).status == 200)
  }

  @Test func serversListDetailAndRecordsFollowTheContract() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    let ids = try h.simulator.createServers(count: 2)
    try h.simulator.tick()
    h.clock.advance(by: 60)
    try h.simulator.tick()
    let list = await h.send(.get, "/api/servers", bearer: admin)
    guard case .array(let servers) = list.data else {
      Issue.record("no list")
      return
    }
    #expect(servers.count == 2)
    #expect(list.text.hasPrefix(#"{"data":[{"id":""#))
    #expect(!list.text.contains("\"online\""))
    let detail = await h.send(.get, "/api/servers/\(ids[0])", bearer: admin)
    #expect(detail.data?["id"]?.stringValue == ids[0])
    #expect(detail.data?["created_at"]?.stringValue?.hasSuffix("Z") == true)
    let missing = await h.send(.get, "/api/servers/nope", bearer: admin)
    #expect(missing.status == 404 && missing.message == "Not found: Server not found")
    let records = await h.send(
      .get,
      "/api/servers/\(ids[0])/records?from=2027-01-01T00:00:00Z&to=2027-01-16T00:00:00Z&interval=raw",
      bearer: admin)
    guard case .array(let rows) = records.data else {
      Issue.record("no records")
      return
    }
    #expect(rows.count == 2)
    #expect(rows.first?["disk_io_json"]?.stringValue?.hasPrefix("[{") == true)
    #expect(records.text.contains(#""temperature":null"#))
    let hourly = await h.send(
      .get,
      "/api/servers/\(ids[0])/records?from=2027-01-01T00:00:00Z&to=2027-01-16T00:00:00Z",
      bearer: admin)
    guard case .array(let buckets) = hourly.data else {
      Issue.record("no hourly")
      return
    }
    #expect(buckets.count == 1)
    let missingFrom = await h.send(.get, "/api/servers/\(ids[0])/records", bearer: admin)
    #expect(missingFrom.status == 400)
    let unknown = await h.send(
      .get, "/api/servers/nope/records?from=2027-01-01T00:00:00Z&to=2027-01-02T00:00:00Z",
      bearer: admin)
    #expect(unknown.text == #"{"data":[]}"#)
  }

  @Test func serverGroupsListInWireOrder() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    _ = await h.control(.post, "/server-groups", ["name": "EU", "weight": 2])
    let reply = await h.send(.get, "/api/server-groups", bearer: admin)
    #expect(reply.text.hasPrefix(#"{"data":[{"id":""#))
    #expect(reply.text.contains(#""name":"EU","weight":2,"created_at":""#))
  }

  @Test func alertListHasV1KeysFirstAndDetailAcceptsBothKeyForms() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    let server = try #require(try h.simulator.createServers(count: 1).first)
    let fired = try #require(
      await h.control(.post, "/alerts/fire", ["server_id": server, "rule_id": "rule-1"]))
    let key = try #require(fired["alert_key"]?.stringValue)
    #expect(key.hasPrefix("v1."))
    let list = await h.send(.get, "/api/alert-events", bearer: admin)
    #expect(list.text.hasPrefix(#"{"data":[{"alert_key":"v1."#))
    #expect(list.data?[0]?["status"]?.stringValue == "firing")
    #expect(list.data?[0]?["event_at"]?.stringValue?.hasSuffix("+00:00") == true)
    let detail = await h.send(.get, "/api/alert-events/\(key)", bearer: admin)
    #expect(detail.data?["alert_key"]?.stringValue == key)
    #expect(detail.data?["message"]?.stringValue == "Alert firing \u{2014} triggered 1 time(s)")
    let legacy = await h.send(.get, "/api/alert-events/rule-1:\(server)", bearer: admin)
    #expect(legacy.data?["alert_key"]?.stringValue == "rule-1:\(server)")
    let noColon = await h.send(.get, "/api/alert-events/rule-1", bearer: admin)
    #expect(noColon.status == 400)
    #expect(noColon.message == "Bad request: alert_key must be in the format rule_id:server_id")
  }

  @Test func refiringAResolvedAlertStartsANewCycleAndTheOldKeyIs404() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    let server = try #require(try h.simulator.createServers(count: 1).first)
    let body: [String: Any] = ["server_id": server, "rule_id": "rule-1"]
    _ = await h.control(.post, "/alerts/fire", body)
    let second = try #require(await h.control(.post, "/alerts/fire", body))
    #expect(second["count"] == .number(2))
    let oldKey = try #require(second["alert_key"]?.stringValue)
    _ = await h.control(.post, "/alerts/resolve", body)
    let resolved = await h.send(.get, "/api/alert-events/\(oldKey)", bearer: admin)
    #expect(resolved.data?["message"]?.stringValue == "Alert resolved after 2 trigger(s)")
    h.clock.advance(by: 60)
    let refired = try #require(await h.control(.post, "/alerts/fire", body))
    #expect(refired["count"] == .number(1))
    #expect(await h.send(.get, "/api/alert-events/\(oldKey)", bearer: admin).status == 404)
    let newKey = try #require(refired["alert_key"]?.stringValue)
    #expect(await h.send(.get, "/api/alert-events/\(newKey)", bearer: admin).status == 200)
  }

  @Test func securityRuleStatesArePerSourceIPAndLegacyKeyIs404() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    let server = try #require(try h.simulator.createServers(count: 1).first)
    var body: [String: Any] = [
      "server_id": server, "rule_id": "sec", "rule_type": "ssh_brute_force_detected",
      "source_ip": "203.0.113.7",
    ]
    let first = try #require(await h.control(.post, "/alerts/fire", body))
    body["source_ip"] = "198.51.100.1"
    let second = try #require(await h.control(.post, "/alerts/fire", body))
    #expect(first["alert_key"] != second["alert_key"])
    let list = await h.send(.get, "/api/alert-events", bearer: admin)
    guard case .array(let rows) = list.data else {
      Issue.record("no list")
      return
    }
    #expect(rows.count == 2)
    #expect(await h.send(.get, "/api/alert-events/sec:\(server)", bearer: admin).status == 404)
    let key = try #require(first["alert_key"]?.stringValue)
    #expect(await h.send(.get, "/api/alert-events/\(key)", bearer: admin).status == 200)
    _ = await h.control(.delete, "/alert-rules/sec")
    #expect(await h.send(.get, "/api/alert-events/\(key)", bearer: admin).status == 404)
  }

  @Test func taskResultsFilterByRunIdAndUnknownRunIs404() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    let servers = try h.simulator.createServers(count: 2)
    let task = try #require(
      await h.control(
        .post, "/tasks",
        ["command": "uptime", "server_ids": servers, "task_type": "scheduled", "name": "up"]))
    let taskID = try #require(task["data"]?["id"]?.stringValue)
    let outcomes: [[String: Any]] = [
      ["server_id": servers[0], "exit_code": 0], ["server_id": servers[1], "exit_code": -3],
    ]
    let run1 = try #require(
      await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": outcomes])?["run_id"]?
        .stringValue)
    let retried: [[String: Any]] = [["server_id": servers[0], "exit_code": 0, "attempts": 2]]
    _ = await h.control(.post, "/tasks/\(taskID)/runs", ["outcomes": retried])
    let all = await h.send(.get, "/api/tasks/\(taskID)/results", bearer: admin)
    guard case .array(let rows) = all.data else {
      Issue.record("no rows")
      return
    }
    #expect(rows.count == 4)
    let one = await h.send(.get, "/api/tasks/\(taskID)/results?run_id=\(run1)", bearer: admin)
    guard case .array(let runRows) = one.data else {
      Issue.record("no run rows")
      return
    }
    #expect(runRows.count == 2)
    #expect(runRows.allSatisfy { $0["run_id"]?.stringValue == run1 })
    #expect(one.text.contains(#""exit_code":-3"#) && one.text.contains("Server offline"))
    let unknown = await h.send(
      .get, "/api/tasks/\(taskID)/results?run_id=\(UUID().uuidString.lowercased())", bearer: admin)
    #expect(unknown.status == 404)
    let detail = await h.send(.get, "/api/tasks/\(taskID)", bearer: admin)
    #expect(detail.text.hasPrefix(#"{"data":{"id":""#))
    #expect(detail.data?["task_type"]?.stringValue == "scheduled")
    #expect(
      await h.send(.get, "/api/tasks/nope", bearer: admin).message
        == "Not found: Task nope not found")
  }

  @Test func securityEventsPageWithACursor() async throws {
    let h = try Harness()
    let (admin, member) = try await adminAndMember(h)
    let server = try #require(try h.simulator.createServers(count: 1).first)
    for index in 0..<5 {
      h.clock.advance(by: 1)
      _ = await h.control(
        .post, "/security-events",
        [
          "server_id": server, "event_type": "ssh_login", "severity": "info",
          "source_ip": "203.0.113.\(index)", "first_seen": true,
          "evidence": ["kind": "ssh_login", "auth_method": "publickey"],
        ])
    }
    let page1 = await h.send(.get, "/api/security/events?limit=2", bearer: member)
    guard case .array(let items) = page1.data?["items"] else {
      Issue.record("no items")
      return
    }
    #expect(items.count == 2)
    #expect(items.first?["source_ip"]?.stringValue == "203.0.113.4")
    #expect(items.first?["started_at"]?.stringValue?.hasSuffix("+00:00") == true)
    #expect(page1.text.contains(#""evidence":{"kind":"ssh_login","auth_method":"publickey"}"#))
    let cursor = try #require(page1.data?["next_cursor"]?.stringValue)
    var seen = items.count
    var next: String? = cursor
    while let current = next {
      let page = await h.send(
        .get, "/api/security/events?limit=2&cursor=\(current)", bearer: member)
      guard case .array(let more) = page.data?["items"] else { break }
      seen += more.count
      next = page.data?["next_cursor"]?.stringValue
    }
    #expect(seen == 5)
    let garbage = await h.send(.get, "/api/security/events?cursor=%%%", bearer: member)
    #expect(garbage.status == 400)
    let id = try #require(items.first?["id"]?.stringValue)
    #expect(await h.send(.get, "/api/security/events/\(id)", bearer: member).status == 200)
    #expect(await h.send(.delete, "/api/security/events/\(id)", bearer: member).status == 403)
    let deleted = await h.send(.delete, "/api/security/events/\(id)", bearer: admin)
    #expect(deleted.text == #"{"data":true}"#)
    let gone = await h.send(.get, "/api/security/events/\(id)", bearer: member)
    #expect(gone.message == "Not found: security event \(id) not found")
  }

  @Test func bruteForceEvidenceKeepsTheServerKeyOrder() async throws {
    let h = try Harness()
    let (admin, _) = try await adminAndMember(h)
    let evidence: [String: Any] = [
      "threshold": 5, "window_seconds": 60, "invalid_user_count": 1, "sample_users": ["root"],
      "distinct_users": 1, "failed_count": 12, "kind": "ssh_brute_force",
    ]
    _ = await h.control(
      .post, "/security-events",
      ["server_id": "s", "event_type": "ssh_brute_force", "evidence": evidence])
    let reply = await h.send(.get, "/api/security/events", bearer: admin)
    let expected =
      #""evidence":{"kind":"ssh_brute_force","failed_count":12,"distinct_users":1,"#
      + #""sample_users":["root"],"invalid_user_count":1,"window_seconds":60,"threshold":5}"#
    #expect(reply.text.contains(expected))
  }

  @Test func controlApiNeedsItsToken() async throws {
    let h = try Harness()
    let reply = await h.send(.post, "/__simulator/users", json: ["username": "x", "password": "y"])
    #expect(reply.status == 401)
  }
}
