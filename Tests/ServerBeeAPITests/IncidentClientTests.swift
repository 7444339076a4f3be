import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// Incidents, maintenance windows and the status page (Protocol/Incidents.md): each call's
/// method, path, query and exact body bytes, and the member's empty-body 403 as `.forbidden`.
@Suite(.timeLimit(.minutes(5))) struct IncidentClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  static let window = Maintenance(
    id: "m1", title: "Kernel", description: "", startAt: Samples.time, endAt: Samples.time,
    serverIDsJSON: "[]", isPublic: false, active: true, createdAt: Samples.time,
    updatedAt: Samples.time)

  private func body() async throws -> String {
    let request = try #require(await http.received.first)
    return String(decoding: request.body, as: UTF8.self)
  }

  @Test func aMemberListingIncidentsIsForbiddenNotAnEmptyList() async throws {
    await http.expect(.get, "/api/incidents", reply: HTTPResponse(status: 403))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.incidents()
    }
    #expect(error.code == .forbidden)
  }

  @Test func theStatusFilterIsAQueryAndAnUpdatePostsStatusAndMessage() async throws {
    await http.expect(.get, "/api/incidents", reply: try Samples.reply([Incident]()))
    #expect(try await api.incidents(status: .resolved).isEmpty)
    #expect(try await sut.onlyURL() == Samples.base + "/api/incidents?status=resolved")
    let update = IncidentUpdate(
      id: "u1", incidentID: "i1", status: .resolved, message: "Fixed.", createdAt: Samples.time)
    let other = try SUT()
    await other.http.expect(.post, "/api/incidents/i1/updates", reply: try Samples.reply(update))
    let got = try await other.api.postIncidentUpdate(
      incidentID: "i1", status: .resolved, message: "Fixed.")
    #expect(got == update)
    let sent = try #require(await other.http.received.first)
    #expect(
      String(decoding: sent.body, as: UTF8.self) == #"{"status":"resolved","message":"Fixed."}"#)
  }

  @Test func aMaintenanceEditSendsOnlyItsChangesAndBlanksWithAnEmptyString() async throws {
    await http.expect(.put, "/api/maintenances/m1", reply: try Samples.reply(Self.window))
    let got = try await api.updateMaintenance(
      id: "m1", MaintenanceUpdateRequest(description: "", serverIDs: []))
    #expect(got == Self.window)
    #expect(try await body() == #"{"description":"","server_ids_json":[]}"#)
    await http.verifyAllConsumed()
  }

  @Test func anEmptyChangeIsRefusedBeforeAnythingIsSent() async throws {
    let window = try await #require(throws: ServerBeeAPIError.self) {
      try await api.updateMaintenance(id: "m1", MaintenanceUpdateRequest())
    }
    #expect(window.code == .invalidArgument)
    let page = try await #require(throws: ServerBeeAPIError.self) {
      try await api.updateStatusPage(StatusPageUpdate())
    }
    #expect(page.code == .invalidArgument)
    #expect(await http.received.isEmpty)
  }

  @Test func theStatusPageTakesItsServersAsServerIDs() async throws {
    let page = StatusPageConfig(
      id: "default", title: "Acme", description: nil, serverIDsJSON: #"["s1"]"#,
      groupByServerGroup: false, enabled: true, uptimeYellowThreshold: 99,
      uptimeRedThreshold: 95, showIPQuality: false, defaultLayout: "list",
      showServerDetail: true, showNetwork: true, showIncidents: true, showMaintenance: true,
      createdAt: Samples.time, updatedAt: Samples.time)
    await http.expect(.put, "/api/status-page", reply: try Samples.reply(page))
    var changes = StatusPageUpdate()
    changes.serverIDs = ["s1"]
    changes.enabled = true
    #expect(try await api.updateStatusPage(changes).serverIDs == ["s1"])
    #expect(try await body() == #"{"server_ids":["s1"],"enabled":true}"#)
  }
}
