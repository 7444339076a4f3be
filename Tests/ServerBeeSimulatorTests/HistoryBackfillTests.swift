import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// `Simulator.backfillHistory(days:)` (`serverbee-simulator --history DAYS`): a made-up past a
/// minute apart that the records route serves like any other rows.
@Suite(.timeLimit(.minutes(5))) struct HistoryBackfillTests {
  // 2027-01-15 08:00:00Z.
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  private func admin(_ h: Harness) async throws -> String {
    await h.user("admin")
    return try #require(await h.login("admin").1).access
  }

  @Test func backfillWritesARowAMinuteForEveryServerAndNothingTwice() async throws {
    let h = try Harness(start: Self.start)
    let ids = try h.simulator.createServers(count: 2)
    #expect(try h.simulator.backfillHistory(days: 2) == 2 * 2 * 1440)
    #expect(try h.simulator.backfillHistory(days: 2) == 0)
    try h.simulator.tick()
    #expect(try h.simulator.backfillHistory(days: 2) == 0)
    // A longer past is added before the oldest row only.
    #expect(try h.simulator.backfillHistory(days: 3) == 2 * 1440)
    let token = try await admin(h)
    let hour = await h.send(
      .get,
      "/api/servers/\(ids[0])/records?from=2027-01-15T07:00:00Z&to=2027-01-15T07:59:59Z&interval=raw",
      bearer: token)
    guard case .array(let rows) = hour.data else {
      Issue.record("no records: \(hour.text)")
      return
    }
    #expect(rows.count == 60)
    #expect(rows.first?["time"]?.stringValue == "2027-01-15T07:00:00Z")
    #expect(rows.last?["time"]?.stringValue == "2027-01-15T07:59:00Z")
  }

  @Test func thePastStaysInRangeAndFollowsTheTimeOfDay() async throws {
    let h = try Harness(start: Self.start)
    let id = try #require(try h.simulator.createServers(count: 1).first)
    try h.simulator.backfillHistory(days: 3)
    let token = try await admin(h)
    let reply = await h.send(
      .get,
      "/api/servers/\(id)/records?from=2027-01-12T08:00:00Z&to=2027-01-15T08:00:00Z&interval=raw",
      bearer: token)
    struct Envelope: Decodable { let data: [ServerRecord] }
    let records = try WireJSON.decode(Envelope.self, from: reply.body).data
    #expect(records.count == 3 * 1440)
    let server = await h.send(.get, "/api/servers/\(id)", bearer: token)
    guard case .number(let total)? = server.data?["mem_total"] else {
      Issue.record("no mem_total: \(server.text)")
      return
    }
    for record in records {
      let cpu = try #require(record.cpu)
      #expect((0...100).contains(cpu))
      #expect(Double(try #require(record.memUsed)) < total)
      #expect(try #require(record.netInSpeed) > 0)
    }
    // The daily wave: the hours around noon (UTC) are busier than those around midnight.
    func meanCPU(hours: ClosedRange<Int>) -> Double {
      let picked = records.filter {
        hours.contains(Int($0.time.date.timeIntervalSince1970) / 3600 % 24)
      }
      return picked.compactMap(\.cpu).reduce(0, +) / Double(max(1, picked.count))
    }
    #expect(meanCPU(hours: 10...14) > meanCPU(hours: 0...2) + 10)
  }
}
