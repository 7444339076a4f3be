import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The service monitor calls (Protocol/AppRoutes.md §11): the query each sends (only what is
/// given, times in the `Z` form), the flattened detail, the arguments refused before sending,
/// and a member's check read as `.forbidden`.
@Suite(.timeLimit(.minutes(5))) struct ServiceMonitorClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  static let monitor = ServiceMonitor(
    id: "m1", name: "Database port", monitorType: .tcp, target: "db.example.net:5432",
    interval: 60, createdAt: Samples.time, updatedAt: Samples.time)
  static let record = ServiceMonitorRecord(
    id: 7, monitorID: "m1", success: true, latency: 12.5, detailJSON: #"{"connected":true}"#,
    error: nil, time: Samples.time)

  @Test func theListSendsTheTypeOnlyWhenGiven() async throws {
    await http.expect(.get, "/api/service-monitors", reply: try Samples.reply([Self.monitor]))
    await http.expect(.get, "/api/service-monitors", reply: try Samples.reply([Self.monitor]))
    #expect(try await api.serviceMonitors() == [Self.monitor])
    _ = try await api.serviceMonitors(type: .httpKeyword)
    #expect(
      await http.received.map { $0.url.query ?? "" } == ["", "type=http_keyword"])
  }

  @Test func theRecordsSendTheirBoundsAndLimitAndTheDetailIsFlat() async throws {
    await http.expect(
      .get, "/api/service-monitors/m1/records", reply: try Samples.reply([Self.record]))
    let from = RFC3339Timestamp(secondsSince1970: 1_799_996_400, style: .utcOffset)
    let records = try await api.serviceMonitorRecords(
      id: "m1", from: from, to: Samples.time, limit: 50)
    #expect(records == [Self.record])
    #expect(records.first?.detail?["connected"] == .bool(true))
    #expect(
      try await sut.onlyURL()
        == Samples.base
        + "/api/service-monitors/m1/records?from=2027-01-15T07:00:00Z&to=2027-01-15T08:00:00Z&limit=50"
    )
    let detail = ServiceMonitorDetail(monitor: Self.monitor, latestRecord: Self.record)
    await http.expect(.get, "/api/service-monitors/m1", reply: try Samples.reply(detail))
    #expect(try await api.serviceMonitor(id: "m1") == detail)
  }

  @Test func badArgumentsAreRefusedBeforeSending() async throws {
    let negative = try await #require(throws: ServerBeeAPIError.self) {
      try await api.serviceMonitorRecords(id: "m1", limit: -1)
    }
    #expect(negative.code == .invalidArgument)
    let reversed = try await #require(throws: ServerBeeAPIError.self) {
      try await api.serviceMonitorRecords(
        id: "m1", from: Samples.time, to: RFC3339Timestamp(secondsSince1970: 1_799_999_999))
    }
    #expect(reversed.code == .invalidArgument)
    let empty = try await #require(throws: ServerBeeAPIError.self) {
      try await api.serviceMonitorRecords(id: "")
    }
    #expect(empty.code == .invalidArgument)
    await #expect(throws: ServerBeeAPIError.self) { _ = try await api.serviceMonitor(id: "") }
    #expect(await http.received.isEmpty)
  }

  @Test func aCheckAnswersTheNewRecordAndAMembersIsForbidden() async throws {
    await http.expect(
      .post, "/api/service-monitors/m1/check", reply: try Samples.reply(Self.record))
    await http.expect(.post, "/api/service-monitors/m1/check", reply: HTTPResponse(status: 403))
    #expect(try await api.checkServiceMonitor(id: "m1") == Self.record)
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.checkServiceMonitor(id: "m1")
    }
    #expect(error.code == .forbidden)
  }
}
