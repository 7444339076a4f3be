import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// The firewall blocklist (Protocol/Firewall.md): canonical targets, the 400 and the three
/// 409s with their texts, members read and admins write (the bare 403), the lossy `+00:00`
/// cursor and its 400 when `+` arrives unencoded, the filters, the counts and the audit rows.
@Suite(.timeLimit(.minutes(5))) struct FirewallAreaTests {
  func tokens(_ h: Harness) async throws -> (admin: String, member: String) {
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let admin = try #require(await h.login("ada").1).access
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    return (admin, member)
  }

  func block(_ h: Harness, _ target: String, _ admin: String) async -> Harness.Reply {
    await h.send(.post, "/api/firewall/blocks", json: ["target": target], bearer: admin)
  }

  /// Seeds an entry through the control API at `created_at`.
  func seed(_ h: Harness, _ target: String, at time: String, origin: String = "auto") async
    -> String
  {
    await h.control(
      .post, "/firewall/blocks", ["target": target, "created_at": time, "origin": origin]
    )?["data"]?["id"]?.stringValue ?? ""
  }

  @Test(arguments: [
    ("203.0.113.7", "203.0.113.7/32", 4), ("198.51.100.77/24", "198.51.100.0/24", 4),
    ("8.8.4.4/31", "8.8.4.4/31", 4), ("8.8.4.5/31", "8.8.4.4/31", 4),
    ("2001:db8::1", "2001:db8::1/128", 6), ("2001:DB8:abcd:12::1/48", "2001:db8:abcd::/48", 6),
    ("001:0db8::/32", "1:db8::/32", 6), ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1/128", 6),
    ("2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1/128", 6),
    ("2001:db8::203.0.113.9", "2001:db8::cb00:7109/128", 6),
    ("::ffff:203.0.113.9", "::ffff:203.0.113.9/128", 6),
  ])
  func aTargetIsStoredCanonical(input: String, target: String, family: Int) async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let reply = await block(h, input, admin)
    #expect(reply.status == 200, "\(input): \(reply.text)")
    #expect(reply.data?["target"]?.stringValue == target)
    #expect(reply.data?["family"]?.numberValue == Double(family))
    #expect(reply.data?["origin"]?.stringValue == "manual")
    #expect(reply.data?["cover_type"]?.stringValue == "all")
    #expect(reply.text.contains(#""server_ids":null,"comment":null"#), "\(reply.text)")
  }

  @Test(arguments: [
    "not-an-ip", "203.0.113.7/33", " 203.0.113.7", "01.2.3.4", "", "203.0.113.7/", "2001:db8::/129",
    "fe80::1%eth0", "1.2.3",
  ])
  func anUnreadableTargetIsThe400WithTheInputAsSent(input: String) async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let reply = await block(h, input, admin)
    #expect(reply.status == 400)
    #expect(reply.message == "Bad request: invalid IP or CIDR: \(input)", "\(reply.text)")
  }

  @Test(arguments: [
    ("127.0.0.1", "127.0.0.0/8"), ("10.1.2.3/16", "10.0.0.0/8"),
    ("172.31.255.255", "172.16.0.0/12"), ("192.168.1.0/24", "192.168.0.0/16"),
    ("169.254.169.254", "169.254.0.0/16"), ("0.1.2.3", "0.0.0.0/8"),
    ("224.0.0.1", "224.0.0.0/4"), ("0.0.0.0/0", "127.0.0.0/8"), ("8.0.0.0/5", "10.0.0.0/8"),
    ("::1", "::1/128"), ("fd12:3456::1", "fc00::/7"), ("fe80::1/64", "fe80::/10"),
    ("ff02::1", "ff00::/8"), ("::", "::/128"), ("::/0", "::1/128"),
  ])
  func aGuardrailRangeIsThe409NamingTheRange(input: String, range: String) async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let reply = await block(h, input, admin)
    #expect(reply.status == 409)
    #expect(reply.code == "CONFLICT")
    #expect(reply.message == "Conflict: hits hard-coded guardrail: \(range)", "\(reply.text)")
  }

  @Test func anAgentsOwnAddressIsTheAllowList409AndADuplicateTheOther409() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    _ = await h.control(.post, "/servers", ["name": "edge", "ipv4": "198.51.100.10"])
    let allowed = await block(h, "198.51.100.0/24", admin)
    #expect(allowed.status == 409)
    #expect(allowed.message == "Conflict: hits allow_list: 198.51.100.10", "\(allowed.text)")

    #expect(await block(h, "203.0.113.7", admin).status == 200)
    let again = await block(h, "203.0.113.7/32", admin)
    #expect(again.status == 409)
    #expect(again.message == "Conflict: target 203.0.113.7/32 already blocked")
    // The same network written another way, and one a rule added, are duplicates too.
    #expect(await block(h, "2001:db8:abcd::5/48", admin).status == 200)
    #expect(
      await block(h, "2001:DB8:ABCD::/48", admin).message
        == "Conflict: target 2001:db8:abcd::/48 already blocked")
    _ = await seed(h, "192.0.2.44", at: "2027-01-15T07:00:00Z")
    #expect(
      await block(h, "192.0.2.44", admin).message
        == "Conflict: target 192.0.2.44/32 already blocked")
  }

  @Test func membersReadAndAMemberGetsTheBare403FromEveryWrite() async throws {
    let h = try Harness()
    let (admin, member) = try await tokens(h)
    let made = await block(h, "203.0.113.7", admin)
    let id = try #require(made.data?["id"]?.stringValue)
    for (method, path) in [
      (HTTPMethod.post, "/api/firewall/blocks"), (.delete, "/api/firewall/blocks/\(id)"),
    ] {
      let reply = await h.send(method, path, json: ["target": "203.0.113.8"], bearer: member)
      #expect(reply.status == 403 && reply.body.isEmpty, "\(method) \(path): \(reply.text)")
    }
    let list = await h.send(.get, "/api/firewall/blocks", bearer: member)
    #expect(list.status == 200)
    #expect(list.data?["items"]?.arrayValue?.count == 1)
    #expect(await h.send(.get, "/api/firewall/stats", bearer: member).status == 200)
    let anonymous = await h.send(.get, "/api/firewall/blocks")
    #expect(anonymous.status == 401 && anonymous.body.isEmpty)
  }

  @Test func aDeleteAnswersTrueThen404AndEveryChangeIsAudited() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let made = await h.send(
      .post, "/api/firewall/blocks",
      raw: Data(
        #"{"target":"203.0.113.7","cover_type":"include","server_ids":["s1"],"comment":"scan"}"#
          .utf8),
      bearer: admin)
    #expect(made.data?["server_ids"]?.arrayValue?.compactMap(\.stringValue) == ["s1"])
    #expect(made.data?["comment"]?.stringValue == "scan")
    #expect(made.data?["created_by"]?.stringValue?.isEmpty == false)
    let id = try #require(made.data?["id"]?.stringValue)
    _ = await block(h, "127.0.0.1", admin)
    let deleted = await h.send(.delete, "/api/firewall/blocks/\(id)", bearer: admin)
    #expect(deleted.status == 200 && deleted.text == #"{"data":true}"#)
    let missing = await h.send(.delete, "/api/firewall/blocks/\(id)", bearer: admin)
    #expect(missing.status == 404)
    #expect(missing.message == "Not found: block \(id) not found")

    let audit = await h.send(.get, "/api/audit-logs", bearer: admin)
    let rows = audit.data?["entries"]?.arrayValue ?? []
    let actions = rows.compactMap { $0["action"]?.stringValue }
    #expect(
      actions.filter { $0.hasPrefix("firewall_") }
        == ["firewall_block_deleted", "firewall_block_rejected_server", "firewall_block_created"],
      "\(audit.text)")
    let details = rows.compactMap { $0["detail"]?.stringValue }
    #expect(details.contains(#"{"id":"\#(id)","origin":"manual","target":"203.0.113.7/32"}"#))
    #expect(details.contains(#"{"id":"\#(id)","target":"203.0.113.7/32"}"#))
    #expect(
      details.contains(
        #"{"reason":"hits hard-coded guardrail: 127.0.0.0/8","target":"127.0.0.1/32"}"#))
  }

  @Test func aPageEndsBeforeTheCursorEntryWhichIsOnNoPage() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let times = [
      "2027-01-15T07:00:05.123456789Z", "2027-01-15T07:00:04Z", "2027-01-15T07:00:03.250Z",
      "2027-01-15T07:00:02Z", "2027-01-15T07:00:01Z",
    ]
    for (index, time) in times.enumerated() {
      _ = await seed(h, "203.0.113.\(index + 1)", at: time)
    }
    let first = await h.send(.get, "/api/firewall/blocks?limit=2", bearer: admin)
    #expect(
      first.data?["items"]?.arrayValue?.compactMap { $0["target"]?.stringValue }
        == ["203.0.113.1/32", "203.0.113.2/32"])
    #expect(first.text.contains(#""created_at":"2027-01-15T07:00:05.123456789+00:00""#))
    let cursor = try #require(first.data?["next_cursor"]?.stringValue)
    #expect(cursor == "2027-01-15T07:00:03.250+00:00")

    // `+` unencoded reads as a space: the documented 400. Encoded, the next page is strictly
    // older than the cursor, so the entry at the cursor (203.0.113.3) is on neither page.
    let raw = await h.send(.get, "/api/firewall/blocks?limit=2&cursor=\(cursor)", bearer: admin)
    #expect(raw.status == 400 && raw.message == "Bad request: invalid cursor", "\(raw.text)")
    let encoded = cursor.replacingOccurrences(of: "+", with: "%2B")
    let second = await h.send(
      .get, "/api/firewall/blocks?limit=2&cursor=\(encoded)", bearer: admin)
    #expect(
      second.data?["items"]?.arrayValue?.compactMap { $0["target"]?.stringValue }
        == ["203.0.113.4/32", "203.0.113.5/32"])
    #expect(second.text.hasSuffix(#""next_cursor":null}}"#))
    // A moved cursor (one nanosecond later) brings the boundary entry back.
    let moved = await h.send(
      .get, "/api/firewall/blocks?limit=2&cursor=2027-01-15T07:00:03.250000001%2B00:00",
      bearer: admin)
    #expect(moved.data?["items"]?.arrayValue?.first?["target"]?.stringValue == "203.0.113.3/32")
    let garbage = await h.send(.get, "/api/firewall/blocks?cursor=yesterday", bearer: admin)
    #expect(garbage.status == 400 && garbage.message == "Bad request: invalid cursor")
    let badLimit = await h.send(.get, "/api/firewall/blocks?limit=many", bearer: admin)
    #expect(badLimit.status == 400 && badLimit.code == nil)
  }

  @Test func theFiltersAndTheCountsComeFromTheRows() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    _ = await seed(h, "2001:db8:1::/48", at: "2027-01-15T07:00:01Z")
    _ = await seed(h, "203.0.113.9", at: "2027-01-15T07:00:02Z")
    _ = await block(h, "198.51.100.7", admin)
    _ = await block(h, "2001:db8:2::1", admin)
    let auto = await h.send(.get, "/api/firewall/blocks?origin=auto", bearer: admin)
    #expect(
      auto.data?["items"]?.arrayValue?.compactMap { $0["target"]?.stringValue }
        == ["203.0.113.9/32", "2001:db8:1::/48"])
    let part = await h.send(.get, "/api/firewall/blocks?target_q=2001%3Adb8", bearer: admin)
    #expect(part.data?["items"]?.arrayValue?.count == 2)
    let stats = await h.send(.get, "/api/firewall/stats", bearer: admin)
    #expect(stats.text == #"{"data":{"total":4,"auto":2,"manual":2,"v4":2,"v6":2}}"#)
  }
}

extension JSONValue {
  /// The elements of an array.
  fileprivate var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}
