import Foundation
import ServerBeeKit
import ServerBeeTestSupport
import StarterSupport
import Testing

/// `api-key-report`'s report against the public `StubHTTPTransport`: what an integrator's test
/// of their own bot looks like.
@Suite(.timeLimit(.minutes(1))) struct FleetReportTests {
  private let server = "https://monitor.example.com"

  /// A `{"data": …}` answer built from model values, so the test never spells a wire shape.
  private func answer(_ value: some Encodable) throws -> HTTPResponse {
    .json(200, #"{"data":"# + String(decoding: try WireJSON.encode(value), as: UTF8.self) + "}")
  }

  @Test func reportsServersAndFiringAlertsWithTheKey() async throws {
    let stub = StubHTTPTransport()
    let created = try RFC3339Timestamp(parsing: "2026-12-01T10:00:00Z")
    await stub.expect(
      .get, "/api/servers",
      reply: try answer([
        ServerResponse(
          id: "b", name: "web-2", cpuCores: 2, os: "Debian GNU/Linux 12", createdAt: created,
          updatedAt: created),
        ServerResponse(
          id: "a", name: "db-1", cpuCores: 8, memTotal: 16 << 30, region: "fra",
          createdAt: created, updatedAt: created),
      ]))
    await stub.expect(
      .get, "/api/alert-events",
      reply: try answer([
        AlertEvent(
          ruleID: "r1", ruleName: "High CPU", serverID: "a", serverName: "db-1",
          status: .firing, eventAt: created, count: 3),
        AlertEvent(
          ruleID: "r2", ruleName: "Disk", serverID: "b", serverName: "web-2",
          status: .resolved, eventAt: created, count: 1),
      ]))
    let api = ServerBeeAPIClient(
      server: try ServerURL(server), apiKey: try APIKey("serverbee_test-key"), transport: stub)

    let report = try await FleetReport.load(from: api, alertLimit: 20)

    #expect(
      report.lines == [
        "2 servers on \(try ServerURL(server))",
        "  db-1  fra, 8 cores, 16.0 GiB",
        "  web-2  Debian GNU/Linux 12, 2 cores",
        "1 alerts firing (of the last 2 events)",
        "  High CPU on db-1 since 2026-12-01T10:00:00Z, 3 time(s)",
      ])
    let requests = await stub.received
    #expect(requests.allSatisfy { $0.headers["x-api-key"] == "serverbee_test-key" })
    #expect(await stub.requests(to: "/api/alert-events").first?.url.query == "limit=20")
    await stub.verifyAllConsumed()
  }

  @Test func aRejectedKeyIsOneSentence() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(.get, "/api/servers", reply: HTTPResponse(status: 401))
    let api = ServerBeeAPIClient(
      server: try ServerURL(server), apiKey: try APIKey("serverbee_deleted"), transport: stub)

    let error = await #expect(throws: ServerBeeAPIError.self) {
      try await FleetReport.load(from: api)
    }
    #expect(error?.code == .apiKeyRejected)
    #expect(error?.localizedDescription.contains("serverbee_deleted") == false)
    await stub.verifyAllConsumed()
  }
}
