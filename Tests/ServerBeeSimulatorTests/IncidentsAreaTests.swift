import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Incidents, maintenance windows and the status page (Protocol/Incidents.md): admin-only lists,
/// `server_ids_json` as an array in and a string out, `null` that does not clear, and the
/// status transitions of incident updates.
@Suite(.timeLimit(.minutes(5))) struct IncidentsAreaTests {
  static let start: Int64 = 1_800_000_000  // 2027-01-15T08:00:00Z, the harness default

  func tokens(_ h: Harness) async throws -> (admin: String, member: String) {
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let admin = try #require(await h.login("ada").1).access
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    return (admin, member)
  }

  func body(_ text: String) -> Data { Data(text.utf8) }

  /// Whether the object's keys `"k":` come in this order in the answer's text (the harness's
  /// JSON values do not keep the order).
  static func inOrder(_ text: String, _ keys: [String]) -> Bool {
    var rest = Substring(text)
    for key in keys {
      guard let range = rest.range(of: "\"\(key)\":") else { return false }
      rest = rest[range.upperBound...]
    }
    return true
  }

  @Test func aMemberGetsTheEmptyBody403NotAnEmptyList() async throws {
    let h = try Harness()
    let (_, member) = try await tokens(h)
    for (method, path) in [
      (HTTPMethod.get, "/api/incidents"), (.get, "/api/maintenances"),
      (.post, "/api/incidents"), (.post, "/api/incidents/x/updates"),
      (.delete, "/api/incidents/x"), (.post, "/api/maintenances"), (.put, "/api/maintenances/x"),
      (.delete, "/api/maintenances/x"), (.put, "/api/status-page"),
    ] {
      let reply = await h.send(method, path, raw: body("{}"), bearer: member)
      #expect(reply.status == 403, "\(method) \(path)")
      #expect(reply.body.isEmpty, "\(method) \(path): \(reply.text)")
    }
    // Reading the status page needs any credential, and none is a bare 401.
    #expect(await h.send(.get, "/api/status-page", bearer: member).status == 200)
    let anonymous = await h.send(.get, "/api/status-page")
    #expect(anonymous.status == 401 && anonymous.body.isEmpty)
  }

  @Test func anIncidentIsCreatedWithDefaultsAndItsServersAsAString() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let plain = await h.send(
      .post, "/api/incidents", raw: body(#"{"title":"Down"}"#), bearer: admin)
    #expect(plain.status == 200, "\(plain.text)")
    let data = try #require(plain.data)
    #expect(data["status"]?.stringValue == "investigating")
    #expect(data["severity"]?.stringValue == "minor")
    #expect(data["server_ids_json"] == .null)
    #expect(data["is_public"] == .bool(false))
    #expect(data["resolved_at"] == .null)
    #expect(data["created_at"]?.stringValue == "2027-01-15T08:00:00Z")
    #expect(
      plain.text.contains(#""title":"Down","status":"investigating","severity":"minor""#))

    let listed = await h.send(
      .post, "/api/incidents",
      raw: body(
        #"{"title":"Slow","status":"resolved","severity":"critical","server_ids_json":["a","b"],"is_public":true}"#
      ), bearer: admin)
    #expect(listed.data?["server_ids_json"]?.stringValue == #"["a","b"]"#)
    #expect(listed.data?["is_public"] == .bool(true))
    // Created resolved, it is stamped resolved at once.
    #expect(listed.data?["resolved_at"]?.stringValue == "2027-01-15T08:00:00Z")
    let nullList = await h.send(
      .post, "/api/incidents", raw: body(#"{"title":"All","server_ids_json":null}"#),
      bearer: admin)
    #expect(nullList.data?["server_ids_json"] == .null)

    let badStatus = await h.send(
      .post, "/api/incidents", raw: body(#"{"title":"x","status":"open","severity":"huge"}"#),
      bearer: admin)
    #expect(badStatus.status == 422)
    #expect(
      badStatus.message
        == "Validation error: status must be one of: investigating, identified, monitoring, resolved"
    )
    let badSeverity = await h.send(
      .post, "/api/incidents", raw: body(#"{"title":"x","severity":"huge"}"#), bearer: admin)
    #expect(badSeverity.status == 422)
    #expect(
      badSeverity.message == "Validation error: severity must be one of: minor, major, critical")
    let noTitle = await h.send(.post, "/api/incidents", raw: body("{}"), bearer: admin)
    #expect(noTitle.status == 422 && noTitle.json == nil)

    // Newest first, and filtered by status.
    h.clock.advance(by: 5)
    _ = await h.send(.post, "/api/incidents", raw: body(#"{"title":"Newest"}"#), bearer: admin)
    let list = await h.send(.get, "/api/incidents", bearer: admin)
    let titles = list.data?.arrayValue?.compactMap { $0["title"]?.stringValue }
    #expect(titles?.first == "Newest" && titles?.count == 4)
    let resolved = await h.send(.get, "/api/incidents?status=resolved", bearer: admin)
    #expect(resolved.data?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Slow"])
  }

  @Test func updatesMoveTheStatusAndResolvingStampsTheTimeEachTime() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let created = await h.send(
      .post, "/api/incidents", raw: body(#"{"title":"Latency"}"#), bearer: admin)
    let id = try #require(created.data?["id"]?.stringValue)
    h.clock.advance(by: 60)
    let monitoring = await h.send(
      .post, "/api/incidents/\(id)/updates",
      raw: body(#"{"status":"monitoring","message":"A fix is out."}"#), bearer: admin)
    #expect(monitoring.status == 200, "\(monitoring.text)")
    #expect(monitoring.data?["incident_id"]?.stringValue == id)
    #expect(monitoring.data?["status"]?.stringValue == "monitoring")
    #expect(monitoring.data?["message"]?.stringValue == "A fix is out.")
    #expect(monitoring.data?["created_at"]?.stringValue == "2027-01-15T08:01:00Z")
    #expect(
      Self.inOrder(monitoring.text, ["id", "incident_id", "status", "message", "created_at"]))
    var incident = try #require(await h.send(.get, "/api/incidents", bearer: admin).data?[0])
    #expect(incident["status"]?.stringValue == "monitoring")
    #expect(incident["updated_at"]?.stringValue == "2027-01-15T08:01:00Z")
    #expect(incident["resolved_at"] == .null)

    h.clock.advance(by: 60)
    _ = await h.send(
      .post, "/api/incidents/\(id)/updates",
      raw: body(#"{"status":"resolved","message":"Fixed."}"#), bearer: admin)
    incident = try #require(await h.send(.get, "/api/incidents", bearer: admin).data?[0])
    #expect(incident["status"]?.stringValue == "resolved")
    #expect(incident["resolved_at"]?.stringValue == "2027-01-15T08:02:00Z")
    // Resolved again: the time is overwritten.
    h.clock.advance(by: 60)
    _ = await h.send(
      .post, "/api/incidents/\(id)/updates",
      raw: body(#"{"status":"resolved","message":"Really fixed."}"#), bearer: admin)
    incident = try #require(await h.send(.get, "/api/incidents", bearer: admin).data?[0])
    #expect(incident["resolved_at"]?.stringValue == "2027-01-15T08:03:00Z")

    let unknown = await h.send(
      .post, "/api/incidents/nope/updates", raw: body(#"{"status":"resolved","message":"x"}"#),
      bearer: admin)
    #expect(unknown.status == 404)
    #expect(unknown.message == "Not found: Incident nope not found")
    let badStatus = await h.send(
      .post, "/api/incidents/\(id)/updates", raw: body(#"{"status":"done","message":"x"}"#),
      bearer: admin)
    #expect(badStatus.status == 422)
    #expect(badStatus.message?.hasPrefix("Validation error: status must be one of:") == true)
    let noMessage = await h.send(
      .post, "/api/incidents/\(id)/updates", raw: body(#"{"status":"resolved"}"#), bearer: admin)
    #expect(noMessage.status == 422)
    #expect(
      noMessage.text
        == "Failed to deserialize the JSON body into the target type: missing field `message`")

    let deleted = await h.send(.delete, "/api/incidents/\(id)", bearer: admin)
    #expect(deleted.text == #"{"data":"ok"}"#)
    let updates = try h.simulator.core.db.serial {
      try h.simulator.core.db.scalar("SELECT COUNT(*) FROM incident_updates").int
    }
    #expect(updates == 0)
    let again = await h.send(.delete, "/api/incidents/\(id)", bearer: admin)
    #expect(again.status == 404 && again.message == "Not found: Incident \(id) not found")
  }

  @Test func aMaintenanceWindowKeepsWhatNullWouldClearAndBlanksOnEmpty() async throws {
    let h = try Harness()
    let (admin, _) = try await tokens(h)
    let backwards = await h.send(
      .post, "/api/maintenances",
      raw: body(
        #"{"title":"x","start_at":"2027-01-15T10:00:00Z","end_at":"2027-01-15T10:00:00Z"}"#),
      bearer: admin)
    #expect(backwards.status == 422)
    #expect(backwards.message == "Validation error: end_at must be after start_at")
    let notATime = await h.send(
      .post, "/api/maintenances",
      raw: body(#"{"title":"x","start_at":"tomorrow","end_at":"2027-01-15T10:00:00Z"}"#),
      bearer: admin)
    #expect(notATime.status == 422 && notATime.json == nil)

    let created = await h.send(
      .post, "/api/maintenances",
      raw: body(
        #"{"title":"Kernel","description":"Reboots","start_at":"2027-01-15T10:00:00+01:00","end_at":"2027-01-15T11:30:00Z","server_ids_json":["s1"]}"#
      ), bearer: admin)
    #expect(created.status == 200, "\(created.text)")
    let window = try #require(created.data)
    let id = try #require(window["id"]?.stringValue)
    #expect(window["start_at"]?.stringValue == "2027-01-15T09:00:00Z")
    #expect(window["server_ids_json"]?.stringValue == #"["s1"]"#)
    #expect(window["is_public"] == .bool(false) && window["active"] == .bool(true))
    #expect(
      Self.inOrder(
        created.text,
        [
          "id", "title", "description", "start_at", "end_at", "server_ids_json", "is_public",
          "active", "created_at", "updated_at",
        ]))

    // null leaves both unchanged.
    let kept = await h.send(
      .put, "/api/maintenances/\(id)",
      raw: body(#"{"description":null,"server_ids_json":null}"#), bearer: admin)
    #expect(kept.data?["description"]?.stringValue == "Reboots")
    #expect(kept.data?["server_ids_json"]?.stringValue == #"["s1"]"#)
    // "" blanks the description, [] stores an empty list (every server).
    h.clock.advance(by: 10)
    let blanked = await h.send(
      .put, "/api/maintenances/\(id)",
      raw: body(#"{"description":"","server_ids_json":[],"is_public":true}"#), bearer: admin)
    #expect(blanked.data?["description"]?.stringValue == "")
    #expect(blanked.data?["server_ids_json"]?.stringValue == "[]")
    #expect(blanked.data?["is_public"] == .bool(true))
    #expect(blanked.data?["updated_at"]?.stringValue == "2027-01-15T08:00:10Z")
    // The times are not checked again.
    let reversed = await h.send(
      .put, "/api/maintenances/\(id)", raw: body(#"{"end_at":"2027-01-15T08:00:00Z"}"#),
      bearer: admin)
    #expect(reversed.status == 200)
    #expect(reversed.data?["end_at"]?.stringValue == "2027-01-15T08:00:00Z")

    let unknown = await h.send(
      .put, "/api/maintenances/nope", raw: body(#"{"title":"x"}"#), bearer: admin)
    #expect(unknown.status == 404 && unknown.message == "Not found: Maintenance nope not found")
    let list = await h.send(.get, "/api/maintenances", bearer: admin)
    #expect(list.data?.arrayValue?.count == 1)
    #expect(
      await h.send(.delete, "/api/maintenances/\(id)", bearer: admin).text == #"{"data":"ok"}"#)
    let gone = await h.send(.delete, "/api/maintenances/\(id)", bearer: admin)
    #expect(gone.status == 404 && gone.message == "Not found: Maintenance \(id) not found")
  }

  @Test func theStatusPageStoresEveryValueAsGivenAndNullKeepsTheDescription() async throws {
    let h = try Harness()
    let (admin, member) = try await tokens(h)
    let first = await h.send(.get, "/api/status-page", bearer: member)
    #expect(
      Self.inOrder(
        first.text,
        [
          "id", "title", "description", "server_ids_json", "group_by_server_group", "enabled",
          "uptime_yellow_threshold", "uptime_red_threshold", "show_ip_quality", "default_layout",
          "show_server_detail", "show_network", "show_incidents", "show_maintenance",
          "created_at", "updated_at",
        ]))
    #expect(first.data?.objectKeys?.count == 16)
    #expect(first.data?["server_ids_json"]?.stringValue == "[]")
    #expect(first.data?["description"] == .null)

    let full = await h.send(
      .put, "/api/status-page",
      raw: body(
        #"{"title":"Acme","description":"Our servers","server_ids":["s1","s2"],"enabled":false,"uptime_yellow_threshold":150.5,"uptime_red_threshold":-1,"show_ip_quality":true,"default_layout":"mosaic","show_server_detail":false,"show_network":false,"show_incidents":false,"show_maintenance":false,"group_by_server_group":true}"#
      ), bearer: admin)
    #expect(full.status == 200, "\(full.text)")
    let page = try #require(full.data)
    #expect(page["title"]?.stringValue == "Acme")
    #expect(page["server_ids_json"]?.stringValue == #"["s1","s2"]"#)
    #expect(page["uptime_yellow_threshold"]?.numberValue == 150.5)
    #expect(full.text.contains(#""uptime_red_threshold":-1.0"#))
    #expect(page["default_layout"]?.stringValue == "mosaic")
    #expect(page["enabled"] == .bool(false) && page["show_ip_quality"] == .bool(true))
    #expect(page["show_maintenance"] == .bool(false))
    // Not changeable here.
    #expect(page["group_by_server_group"] == .bool(false))

    let kept = await h.send(
      .put, "/api/status-page", raw: body(#"{"description":null}"#), bearer: admin)
    #expect(kept.data?["description"]?.stringValue == "Our servers")
    let blanked = await h.send(
      .put, "/api/status-page", raw: body(#"{"description":""}"#), bearer: admin)
    #expect(blanked.data?["description"]?.stringValue == "")
    let emptied = await h.send(
      .put, "/api/status-page", raw: body(#"{"server_ids":[]}"#), bearer: admin)
    #expect(emptied.data?["server_ids_json"]?.stringValue == "[]")
    #expect(emptied.data?["title"]?.stringValue == "Acme")
  }

  @Test func anActiveCurrentWindowSilencesAlertsForTheServersItCovers() async throws {
    let h = try Harness { $0.relayURL = Harness.relayPlaceholder }
    _ = try await h.pushDevice("admin")
    let admin = try #require(await h.login("admin", installation: "INST-9").1).access
    let covered = try #require(
      await h.control(.post, "/servers", ["name": "vps-a"])?["data"]?["id"]?.stringValue)
    let other = try #require(
      await h.control(.post, "/servers", ["name": "vps-b"])?["data"]?["id"]?.stringValue)
    func pushes(_ server: String, _ rule: String) async -> Int {
      let answer = await h.control(
        .post, "/alerts/fire", ["server_id": server, "rule_id": rule, "trigger_mode": "once"])
      return Int(answer?["pushes"]?.numberValue ?? -1)
    }
    // Inactive: no effect.
    let inactive = await h.send(
      .post, "/api/maintenances",
      raw: body(
        #"{"title":"off","start_at":"2027-01-15T07:00:00Z","end_at":"2027-01-15T09:00:00Z","active":false}"#
      ), bearer: admin)
    #expect(inactive.status == 200)
    #expect(await pushes(covered, "r1") == 1)
    // Active and current, covering one server: that server is silenced, the other is not.
    let window = await h.send(
      .post, "/api/maintenances",
      raw: body(
        #"{"title":"on","start_at":"2027-01-15T07:00:00Z","end_at":"2027-01-15T08:00:30Z","server_ids_json":["\#(covered)"]}"#
      ), bearer: admin)
    #expect(window.status == 200)
    #expect(await pushes(covered, "r2") == 0)
    #expect(await pushes(other, "r2") == 1)
    // end_at is included; one second later the window is over.
    h.clock.advance(by: 30)
    #expect(await pushes(covered, "r3") == 0)
    h.clock.advance(by: 1)
    #expect(await pushes(covered, "r4") == 1)
    // An empty list covers every server.
    let everyone = await h.send(
      .post, "/api/maintenances",
      raw: body(
        #"{"title":"all","start_at":"2027-01-15T08:00:00Z","end_at":"2027-01-15T09:00:00Z","server_ids_json":[]}"#
      ), bearer: admin)
    #expect(everyone.status == 200)
    #expect(await pushes(other, "r5") == 0)
  }
}

extension JSONValue {
  /// The elements of an array.
  fileprivate var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The keys of an object, in order.
  fileprivate var objectKeys: [String]? {
    if case .object(let members) = self { return members.map(\.key) }
    return nil
  }
}
