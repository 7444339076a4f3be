import Foundation
import ServerBeeModels
import Testing

/// Incidents, maintenance windows and the status page (Protocol/Incidents.md): the documented
/// shapes decode, `server_ids_json` is an array going out and text coming in, and an update body
/// leaves out what is `nil` (a JSON `null` would not clear) while `""` goes out as a value.
@Suite struct IncidentModelsTests {
  private func json(_ value: some Encodable) throws -> String {
    String(decoding: try WireJSON.encode(value), as: UTF8.self)
  }

  private func time(_ text: String) throws -> RFC3339Timestamp {
    try RFC3339Timestamp(parsing: text)
  }

  @Test func theDocumentedIncidentsDecodeAndReadTheirServerLists() throws {
    let incidents = try APIResponse<[Incident]>.payload(
      status: 200, body: try Fixtures.data("incidents/incidents.json"))
    #expect(incidents.count == 2)
    #expect(incidents[0].status == .resolved && incidents[0].severity == .major)
    #expect(incidents[0].serverIDs == ["0b830a68-443e-4545-9109-4fac723c4b9d"])
    #expect(incidents[0].resolvedAt?.nanoseconds == 123_456_789)
    #expect(incidents[1].serverIDsJSON == nil && incidents[1].serverIDs == nil)
    #expect(incidents[1].resolvedAt == nil)
    let update = try APIResponse<IncidentUpdate>.payload(
      status: 200, body: try Fixtures.data("incidents/incident_update.json"))
    #expect(update.incidentID == incidents[0].id && update.status == .resolved)
    // Unknown values survive.
    #expect(IncidentStatus(rawValue: "postmortem").rawValue == "postmortem")
  }

  @Test func theDocumentedWindowsAndStatusPagesDecode() throws {
    let windows = try APIResponse<[Maintenance]>.payload(
      status: 200, body: try Fixtures.data("incidents/maintenances.json"))
    #expect(windows[0].description == "Reboots one server at a time.")
    #expect(windows[0].serverIDs == ["0b830a68-443e-4545-9109-4fac723c4b9d"])
    #expect(windows[1].description == nil && windows[1].serverIDs == nil && !windows[1].active)
    let page = try APIResponse<StatusPageConfig>.payload(
      status: 200, body: try Fixtures.data("incidents/status_page.json"))
    #expect(page.serverIDs?.count == 2 && page.uptimeYellowThreshold == 99.5)
    #expect(page.defaultLayout == "grid" && !page.showMaintenance)
    let blank = try APIResponse<StatusPageConfig>.payload(
      status: 200, body: try Fixtures.data("incidents/status_page_no_description.json"))
    #expect(blank.description == nil && blank.serverIDs == [])
    // Written back in the documented field order, floats with their point.
    let text = try Fixtures.text("incidents/status_page.json")
    #expect(try Fixtures.reencoded(APIResponse<StatusPageConfig>.self, text: text) == text)
  }

  @Test func aCreateBodySendsTheServerListAsAnArrayAndLeavesDefaultsOut() throws {
    #expect(try json(IncidentCreateRequest(title: "Down")) == #"{"title":"Down"}"#)
    #expect(
      try json(
        IncidentCreateRequest(
          title: "Slow", status: .identified, severity: .critical, serverIDs: ["a", "b"],
          isPublic: true))
        == #"{"title":"Slow","status":"identified","severity":"critical","#
        + #""server_ids_json":["a","b"],"is_public":true}"#)
    #expect(
      try json(IncidentUpdateRequest(status: .resolved, message: "Fixed."))
        == #"{"status":"resolved","message":"Fixed."}"#)
    let window = MaintenanceCreateRequest(
      title: "Kernel", startAt: try time("2026-12-06T03:00:00+01:00"),
      endAt: try time("2026-12-06T03:00:00Z"), serverIDs: [])
    #expect(
      try json(window)
        == #"{"title":"Kernel","start_at":"2026-12-06T02:00:00Z","end_at":"2026-12-06T03:00:00Z","#
        + #""server_ids_json":[]}"#)
  }

  @Test func anUpdateBodyLeavesNilOutAndSendsAnEmptyStringToBlank() throws {
    #expect(MaintenanceUpdateRequest().isEmpty)
    #expect(try json(MaintenanceUpdateRequest()) == "{}")
    let blank = MaintenanceUpdateRequest(description: "", serverIDs: [], active: false)
    #expect(!blank.isEmpty)
    #expect(
      try json(blank) == #"{"description":"","server_ids_json":[],"active":false}"#)
    var page = StatusPageUpdate()
    #expect(page.isEmpty)
    #expect(try json(page) == "{}")
    page.description = ""
    page.serverIDs = ["s1"]
    page.uptimeRedThreshold = 90
    page.showMaintenance = false
    #expect(
      try json(page)
        == #"{"description":"","server_ids":["s1"],"uptime_red_threshold":90.0,"#
        + #""show_maintenance":false}"#)
    let text = try json(page)
    #expect(!text.contains("null"))
  }
}
