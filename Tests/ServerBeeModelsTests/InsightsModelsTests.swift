import Foundation
import ServerBeeModels
import Testing

/// Traffic, cost and uptime payloads (Protocol/AppRoutes.md §5) and `CalendarDate`.
@Suite struct InsightsModelsTests {
  @Test func aCalendarDateParsesOnlyRealDaysInItsForm() throws {
    #expect(try CalendarDate(parsing: "2024-02-29").description == "2024-02-29")
    for bad in ["2023-02-29", "2026-13-01", "2026-1-01", "2026-01-01T00:00:00Z", "", "abcd-ef-gh"] {
      #expect(throws: ServerBeeModelsError.self, "\(bad)") { try CalendarDate(parsing: bad) }
    }
  }

  @Test func dayArithmeticAgreesWithUnixTime() throws {
    #expect(CalendarDate(daysSince1970: 0).description == "1970-01-01")
    #expect(CalendarDate(daysSince1970: -1).description == "1969-12-31")
    let day = CalendarDate(RFC3339Timestamp(secondsSince1970: 1_800_000_000))
    #expect(day.description == "2027-01-15")
    #expect(day.daysSince1970 == 1_800_000_000 / 86_400)
    #expect(day.adding(days: 17).description == "2027-02-01")
    #expect(day.start.secondsSince1970 == Int64(day.daysSince1970) * 86_400)
    for days in stride(from: -800_000, through: 2_900_000, by: 997) {
      #expect(CalendarDate(daysSince1970: days).daysSince1970 == days)
    }
    #expect(try CalendarDate(parsing: "2026-12-31") < CalendarDate(parsing: "2027-01-01"))
  }

  @Test func serverTrafficDecodesWithItsProjectionAndLenientHours() throws {
    let traffic = try APIResponse<ServerTraffic>.payload(
      status: 200, body: Fixtures.data("insights/server_traffic.json"))
    #expect(traffic.cycleStart.description == "2026-03-05")
    #expect(traffic.trafficLimitType == "up")
    #expect(traffic.prediction?.willExceed == false)
    #expect(traffic.daily.map(\.id.description) == ["2026-03-05", "2026-03-06"])
    #expect(traffic.hourly.first?.start?.secondsSince1970 == 1_774_742_400)
    let spaced = HourlyTraffic(hour: "2026-03-29 00:00:00", bytesIn: 1, bytesOut: 2)
    #expect(spaced.start?.secondsSince1970 == 1_774_742_400)
    #expect(HourlyTraffic(hour: "today", bytesIn: 0, bytesOut: 0).start == nil)
    let bare = try APIResponse<ServerTraffic>.payload(
      status: 200, body: Fixtures.data("insights/server_traffic_no_limit.json"))
    #expect(bare.trafficLimit == nil && bare.usagePercent == nil && bare.prediction == nil)
  }

  @Test func costInsightsDecodeConfiguredAndNot() throws {
    let cost = try APIResponse<ServerCostInsights>.payload(
      status: 200, body: Fixtures.data("insights/cost_insights.json"))
    #expect(cost.configured && cost.invalidReason == nil)
    #expect(cost.advisories == [.expiredBilling, .lowUptime])
    #expect(cost.resourceValue?.costPerCPUCore == 3)
    let none = try APIResponse<ServerCostInsights>.payload(
      status: 200, body: Fixtures.data("insights/cost_insights_unconfigured.json"))
    #expect(!none.configured && none.invalidReason == .missingPrice)
    #expect(none.costPerDay == nil && none.resourceValue == nil && none.advisories.isEmpty)
    let overview = try APIResponse<CostOverview>.payload(
      status: 200, body: Fixtures.data("insights/cost_overview.json"))
    #expect(overview.currencies.map(\.id) == ["EUR", "USD"])
    #expect(overview.servers.map(\.name) == ["db-1", "web-fra-1"])
    #expect(overview.servers.first?.invalidReason == .missingBillingCycle)
  }

  @Test func uptimeDaysGiveTheirAvailability() throws {
    let days = try APIResponse<[UptimeDay]>.payload(
      status: 200, body: Fixtures.data("insights/uptime_daily.json"))
    #expect(days.map(\.availability) == [nil, 1417.0 / 1440, 1])
    let overview = try APIResponse<[ServerTrafficOverview]>.payload(
      status: 200, body: Fixtures.data("insights/traffic_overview.json"))
    #expect(overview.map(\.percentUsed) == [3.90625, nil])
    let fleet = try APIResponse<[DailyTraffic]>.payload(
      status: 200, body: Fixtures.data("insights/traffic_overview_daily.json"))
    #expect(fleet.count == 2)
  }

  @Test func aDateThatIsNoDayFailsTheDecodeNamingIt() {
    let body = #"{"data":[{"date":"2026-02-30","bytes_in":1,"bytes_out":2}]}"#
    #expect(throws: (any Error).self) {
      try APIResponse<[DailyTraffic]>.payload(status: 200, body: Data(body.utf8))
    }
  }
}
