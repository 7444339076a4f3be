import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Ping tasks (Protocol/Tasks.md §5): members list, admins change; `server_ids` in as an array
/// and `server_ids_json` out as text; the defaults; the probe-type and SSRF checks with their
/// texts; `null` and absent members left alone; the toggle; delete and the 404s.
@Suite(.timeLimit(.minutes(5))) struct PingTaskRouteTests {
  func tokens(_ h: Harness) async throws -> (admin: String, member: String) {
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let admin = try #require(await h.login("ada").1).access
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    return (admin, member)
  }

  func body(_ text: String) -> Data { Data(text.utf8) }

  func message(_ reply: Harness.Reply) -> String? { reply.json?["error"]?["message"]?.stringValue }

  @Test func aCreatedTaskHasTheDefaultsAndItsServersAsText() async throws {
    let h = try Harness()
    let (admin, member) = try await tokens(h)
    let made = await h.send(
      .post, "/api/ping-tasks",
      raw: body(#"{"name":"DNS","probe_type":"icmp","target":"1.1.1.1"}"#),
      bearer: admin)
    #expect(made.status == 200, "\(made.text)")
    let data = try #require(made.data)
    #expect(data["interval"]?.numberValue == 60)
    #expect(data["server_ids_json"]?.stringValue == "[]")
    #expect(data["enabled"]?.boolValue == true)
    #expect(made.text.contains(#""created_at":"2027-01-15T08:00:00Z""#))
    let listed = await h.send(
      .post, "/api/ping-tasks",
      raw: body(
        #"{"name":"Shop","probe_type":"http","target":"https://shop.example.com/","interval":5,"#
          + #""server_ids":["s1","s2"],"enabled":false}"#),
      bearer: admin)
    #expect(listed.data?["server_ids_json"]?.stringValue == #"["s1","s2"]"#)
    #expect(listed.data?["interval"]?.numberValue == 5)
    // Any member may list them, oldest first.
    let list = await h.send(.get, "/api/ping-tasks", bearer: member)
    #expect(list.status == 200)
    #expect(list.data?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["DNS", "Shop"])
  }

  @Test func onlyAnAdminChangesThemAndAMemberGetsTheBare403() async throws {
    let h = try Harness()
    let (_, member) = try await tokens(h)
    for (method, path) in [
      (HTTPMethod.post, "/api/ping-tasks"), (.put, "/api/ping-tasks/x"),
      (.delete, "/api/ping-tasks/x"),
    ] {
      let reply = await h.send(method, path, raw: body("{}"), bearer: member)
      #expect(reply.status == 403 && reply.body.isEmpty, "\(method) \(path): \(reply.text)")
    }
  }

  @Test func aBadProbeTypeOrAMissingMemberIsRefusedWithTheServersText() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let kind = await h.send(
      .post, "/api/ping-tasks", raw: body(#"{"name":"x","probe_type":"udp","target":"a.example"}"#),
      bearer: admin)
    #expect(kind.status == 422)
    #expect(message(kind) == "Validation error: probe_type must be icmp, tcp, or http")
    let missing = await h.send(
      .post, "/api/ping-tasks", raw: body(#"{"name":"x","probe_type":"icmp"}"#), bearer: admin)
    #expect(missing.status == 422)
    #expect(missing.text.contains("missing field `target`"))
    let list = await h.send(.get, "/api/ping-tasks", bearer: admin)
    #expect(list.data?.arrayValue?.isEmpty == true)
  }

  @Test(arguments: [
    ("icmp", "127.0.0.1", "loopback"), ("tcp", "127.0.0.53:53", "loopback"),
    ("http", "http://169.254.169.254/latest/meta-data", "metadata"),
    ("icmp", "169.254.1.1", "link-local"), ("tcp", "[::1]:22", "loopback"),
    ("icmp", "fe80::1", "link-local"), ("icmp", "64:ff9b::a00:1", "NAT64"),
    ("icmp", "0.1.2.3", "unspecified"), ("icmp", "255.255.255.255", "broadcast"),
    ("http", "http://[::ffff:127.0.0.1]:8080/", "loopback"),
  ])
  func aLiteralBlockedAddressIsRefusedByTheSSRFGuard(
    probeType: String, target: String, kind: String
  ) async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let object: [String: String] = ["name": "x", "probe_type": probeType, "target": target]
    let reply = await h.send(
      .post, "/api/ping-tasks", raw: try WireJSON.encode(object), bearer: admin)
    #expect(reply.status == 422, "\(reply.text)")
    #expect(
      message(reply)
        == "Validation error: SSRF guard: target '\(target)' points at a blocked address (\(kind))")
  }

  @Test(arguments: [
    ("icmp", "10.0.0.1"), ("tcp", "192.168.1.10:443"), ("http", "http://localhost:8080/"),
    ("icmp", "example.com"), ("tcp", "[2001:db8::1]:443"), ("http", "https://1.1.1.1/"),
  ])
  func namesAndPrivateAddressesPassTheGuard(probeType: String, target: String) async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let object: [String: String] = ["name": "x", "probe_type": probeType, "target": target]
    let reply = await h.send(
      .post, "/api/ping-tasks", raw: try WireJSON.encode(object), bearer: admin)
    #expect(reply.status == 200, "\(target): \(reply.text)")
  }

  @Test func aChangeTouchesOnlyWhatItNamesAndTheToggleSendsOnlyEnabled() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let made = await h.send(
      .post, "/api/ping-tasks",
      raw: body(
        #"{"name":"Edge","probe_type":"tcp","target":"10.0.0.8:443","interval":30,"#
          + #""server_ids":["s1"]}"#), bearer: admin)
    let id = try #require(made.data?["id"]?.stringValue)
    let toggled = await h.send(
      .put, "/api/ping-tasks/\(id)", raw: body(#"{"enabled":false}"#), bearer: admin)
    #expect(toggled.status == 200, "\(toggled.text)")
    #expect(toggled.data?["enabled"]?.boolValue == false)
    #expect(toggled.data?["name"]?.stringValue == "Edge")
    #expect(toggled.data?["server_ids_json"]?.stringValue == #"["s1"]"#)
    // `null` leaves a member as it is; a new list replaces the old one.
    let changed = await h.send(
      .put, "/api/ping-tasks/\(id)",
      raw: body(#"{"name":null,"interval":90,"server_ids":[]}"#), bearer: admin)
    #expect(changed.data?["name"]?.stringValue == "Edge")
    #expect(changed.data?["interval"]?.numberValue == 90)
    #expect(changed.data?["server_ids_json"]?.stringValue == "[]")
    #expect(changed.data?["created_at"] == made.data?["created_at"])
    // A new target is checked against the stored probe type.
    let blocked = await h.send(
      .put, "/api/ping-tasks/\(id)", raw: body(#"{"target":"127.0.0.1:22"}"#), bearer: admin)
    #expect(blocked.status == 422)
    let after = await h.send(.get, "/api/ping-tasks", bearer: admin)
    #expect(after.data?[0]?["target"]?.stringValue == "10.0.0.8:443")
  }

  @Test func deleteAnswersOkAndUnknownIdsAreThe404() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let made = await h.send(
      .post, "/api/ping-tasks", raw: body(#"{"name":"x","probe_type":"icmp","target":"9.9.9.9"}"#),
      bearer: admin)
    let id = try #require(made.data?["id"]?.stringValue)
    let deleted = await h.send(.delete, "/api/ping-tasks/\(id)", bearer: admin)
    #expect(deleted.status == 200 && deleted.data?.stringValue == "ok")
    #expect(await h.send(.get, "/api/ping-tasks", bearer: admin).data?.arrayValue?.isEmpty == true)
    for (method, raw) in [(HTTPMethod.put, body(#"{"enabled":true}"#)), (.delete, nil)] {
      let reply = await h.send(method, "/api/ping-tasks/\(id)", raw: raw, bearer: admin)
      #expect(reply.status == 404)
      #expect(message(reply) == "Not found: Ping task \(id) not found")
    }
  }
}

extension JSONValue {
  /// The elements of an array.
  fileprivate var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}
