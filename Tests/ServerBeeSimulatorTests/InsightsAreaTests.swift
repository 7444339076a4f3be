import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Traffic, cost and uptime (Protocol/AppRoutes.md §5): billing cycles, the limit type that the
/// server view honours and the fleet view ignores, the projection, exact uptime days, the cost
/// arithmetic, and answers that depend only on the clock.
@Suite(.timeLimit(.minutes(5))) struct InsightsAreaTests {
  /// 2027-01-15T08:00:00Z, the harness default.
  static let start: Int64 = 1_800_000_000

  struct World {
    let h: Harness
    let admin: String
    let server: String

    func get(_ path: String) async -> Harness.Reply {
      await h.send(.get, path, bearer: admin)
    }

    /// `PUT /api/servers/{id}` with a JSON body.
    func edit(_ id: String, _ body: String) async throws {
      let reply = await h.send(.put, "/api/servers/\(id)", raw: Data(body.utf8), bearer: admin)
      #expect(reply.status == 200, "\(reply.text)")
    }

    func server(_ name: String, memory: Int64 = 8 << 30) async throws -> String {
      let made = await h.control(
        .post, "/servers",
        [
          "name": name, "cpu_cores": 4, "mem_total": memory, "disk_total": 160 << 30,
          "online": true,
        ])
      return try #require(made?["data"]?["id"]?.stringValue)
    }
  }

  func world() async throws -> World {
    let h = try Harness()
    _ = await h.user("ada")
    let admin = try #require(await h.login("ada").1).access
    let made = await h.control(
      .post, "/servers", ["name": "web-1", "cpu_cores": 4, "online": true])
    return World(h: h, admin: admin, server: try #require(made?["data"]?["id"]?.stringValue))
  }

  func number(_ value: JSONValue?) -> Double? {
    guard case .number(let n) = value else { return nil }
    return n
  }

  @Test func aMonthlyCycleStartsOnTheBillingDayAndCountsWhatTheLimitTypeSays() async throws {
    let w = try await world()
    try await w.edit(
      w.server,
      #"{"billing_cycle":"monthly","billing_start_day":20,"traffic_limit":1099511627776,"#
        + #""traffic_limit_type":"up"}"#)
    let reply = await w.get("/api/servers/\(w.server)/traffic")
    #expect(reply.status == 200, "\(reply.text)")
    let data = try #require(reply.data)
    // 2027-01-15 is before the 20th: the cycle began on 2026-12-20.
    #expect(data["cycle_start"]?.stringValue == "2026-12-20")
    #expect(data["cycle_end"]?.stringValue == "2027-01-19")
    let bytesIn = try #require(number(data["bytes_in"]))
    let bytesOut = try #require(number(data["bytes_out"]))
    #expect(number(data["bytes_total"]) == bytesIn + bytesOut)
    let usage = try #require(number(data["usage_percent"]))
    #expect(abs(usage - bytesOut / 1_099_511_627_776 * 100) < 1e-9)
    // The days are the cycle's, oldest first, before today; today is in hours 00 to 08.
    guard case .array(let daily) = data["daily"], case .array(let hourly) = data["hourly"] else {
      Issue.record("daily and hourly are arrays: \(reply.text)")
      return
    }
    #expect(daily.first?["date"]?.stringValue == "2026-12-20")
    #expect(daily.last?["date"]?.stringValue == "2027-01-14")
    #expect(daily.count == 26)
    #expect(hourly.first?["hour"]?.stringValue == "2027-01-15T00:00:00+00:00")
    #expect(hourly.count == 9)
    let summed = (daily + hourly).compactMap { number($0["bytes_in"]) }.reduce(0, +)
    #expect(summed == bytesIn)
    // Day 27 of 31: a projection of the counted bytes, linear.
    let prediction = try #require(data["prediction"])
    let estimated = try #require(number(prediction["estimated_total"]))
    #expect(abs(estimated - (bytesOut / 27 * 31).rounded(.towardZero)) <= 1)
    #expect(prediction["will_exceed"] == .bool(false))
  }

  @Test func withoutALimitThereIsNoUsageNorProjectionAndAZeroLimitIsZeroPercent() async throws {
    let w = try await world()
    let plain = try #require(await w.get("/api/servers/\(w.server)/traffic").data)
    #expect(plain["usage_percent"] == .null)
    #expect(plain["prediction"] == .null)
    #expect(plain["traffic_limit"] == .null)
    // No billing cycle: monthly from the 1st.
    #expect(plain["cycle_start"]?.stringValue == "2027-01-01")
    try await w.edit(w.server, #"{"traffic_limit":0}"#)
    let zero = try #require(await w.get("/api/servers/\(w.server)/traffic").data)
    #expect(number(zero["usage_percent"]) == 0)
    #expect(zero["prediction"] == .null)
  }

  @Test func quarterlyAndYearlyCyclesFollowTheCalendar() async throws {
    let w = try await world()
    try await w.edit(w.server, #"{"billing_cycle":"quarterly","billing_start_day":10}"#)
    let quarter = try #require(await w.get("/api/servers/\(w.server)/traffic").data)
    #expect(quarter["cycle_start"]?.stringValue == "2027-01-10")
    #expect(quarter["cycle_end"]?.stringValue == "2027-04-09")
    try await w.edit(w.server, #"{"billing_cycle":"yearly","billing_start_day":28}"#)
    let year = try #require(await w.get("/api/servers/\(w.server)/traffic").data)
    #expect(year["cycle_start"]?.stringValue == "2026-01-28")
    #expect(year["cycle_end"]?.stringValue == "2027-01-27")
  }

  @Test func theFleetOverviewListsBilledServersAndCountsBothDirections() async throws {
    let w = try await world()
    let other = try await w.server("db-1")
    try await w.edit(
      w.server,
      #"{"billing_cycle":"monthly","traffic_limit":1099511627776,"traffic_limit_type":"down"}"#)
    let server = try #require(await w.get("/api/servers/\(w.server)/traffic").data)
    let reply = await w.get("/api/traffic/overview")
    guard case .array(let entries) = reply.data else {
      Issue.record("an array: \(reply.text)")
      return
    }
    // db-1 has no billing cycle, so it is not listed.
    #expect(entries.map { $0["server_id"]?.stringValue } == [w.server])
    #expect(!entries.contains { $0["server_id"]?.stringValue == other })
    let entry = try #require(entries.first)
    #expect(entry["cycle_in"] == server["bytes_in"])
    #expect(entry["cycle_out"] == server["bytes_out"])
    let total = try #require(number(server["bytes_total"]))
    #expect(number(entry["percent_used"]) == total / 1_099_511_627_776 * 100)
    #expect(number(entry["percent_used"]) != number(server["usage_percent"]))
    #expect(number(entry["days_remaining"]) == 16)
  }

  @Test func theFleetDaysAreTheSumOfEachServersDaysAndLeaveOutDaysWithoutData() async throws {
    let w = try await world()
    let other = try await w.server("db-1")
    for id in [w.server, other] {
      try await w.edit(id, #"{"billing_cycle":"monthly"}"#)
    }
    let reply = await w.get("/api/traffic/overview/daily?days=3")
    guard case .array(let days) = reply.data else {
      Issue.record("an array: \(reply.text)")
      return
    }
    // Dates from today − 3, ascending; today has no daily row yet.
    #expect(days.map { $0["date"]?.stringValue } == ["2027-01-12", "2027-01-13", "2027-01-14"])
    var perServer: [String: Double] = [:]
    for id in [w.server, other] {
      let data = try #require(await w.get("/api/servers/\(id)/traffic").data)
      guard case .array(let daily) = data["daily"] else { continue }
      for day in daily {
        perServer[day["date"]?.stringValue ?? "", default: 0] += number(day["bytes_in"]) ?? 0
      }
    }
    for day in days {
      #expect(number(day["bytes_in"]) == perServer[day["date"]?.stringValue ?? ""])
    }
    // The history starts 90 days before the servers were made: nothing before it.
    guard case .array(let all) = await w.get("/api/traffic/overview/daily?days=1000").data else {
      Issue.record("an array")
      return
    }
    #expect(all.first?["date"]?.stringValue == "2026-10-17")
    #expect(all.count == 90)
  }

  @Test func uptimeHasExactlyTheDaysAskedForZeroFilledAndChecksItsRange() async throws {
    let w = try await world()
    let reply = await w.get("/api/servers/\(w.server)/uptime-daily?days=120")
    guard case .array(let days) = reply.data else {
      Issue.record("an array: \(reply.text)")
      return
    }
    #expect(days.count == 120)
    #expect(days.last?["date"]?.stringValue == "2027-01-15")
    #expect(days.first?["date"]?.stringValue == "2026-09-18")
    // Before the history (2026-10-17) every figure is zero; a past day is 1,440 minutes;
    // today is the minutes so far (08:00).
    #expect(days.first?["total_minutes"] == .number(0))
    #expect(days.first?["online_minutes"] == .number(0))
    #expect(days[days.count - 2]["total_minutes"] == .number(1440))
    #expect(days.last?["total_minutes"] == .number(480))
    for day in days {
      let total = number(day["total_minutes"]) ?? -1
      let online = number(day["online_minutes"]) ?? -1
      #expect(online >= 0 && online <= total)
      #expect((number(day["downtime_incidents"]) ?? 0) > 0 || online == total)
    }
    guard case .array(let standard) = await w.get("/api/servers/\(w.server)/uptime-daily").data
    else {
      Issue.record("an array")
      return
    }
    #expect(standard.count == 90)
    for bad in ["0", "366", "-1"] {
      let refused = await w.get("/api/servers/\(w.server)/uptime-daily?days=\(bad)")
      #expect(refused.status == 400)
      #expect(refused.message == "Bad request: days must be between 1 and 365")
    }
    let unknown = await w.get("/api/servers/nope/uptime-daily?days=5")
    #expect(unknown.status == 404)
    #expect(unknown.message == "Not found: Server not found")
  }

  @Test func costFiguresFollowThePriceAndTheCycle() async throws {
    let w = try await world()
    let id = try await w.server("db-1", memory: 8 << 30)
    let unconfigured = try #require(await w.get("/api/servers/\(id)/cost-insights").data)
    #expect(unconfigured["configured"] == .bool(false))
    #expect(unconfigured["invalid_reason"]?.stringValue == "missing_price")
    #expect(unconfigured["cost_per_day"] == .null)
    #expect(unconfigured["advisories"] == .array([]))
    try await w.edit(id, #"{"price":12}"#)
    let noCycle = try #require(await w.get("/api/servers/\(id)/cost-insights").data)
    #expect(noCycle["invalid_reason"]?.stringValue == "missing_billing_cycle")

    try await w.edit(
      id,
      #"{"billing_cycle":"monthly","currency":" EUR ","traffic_limit":2199023255552,"#
        + #""expired_at":"2027-01-01T00:00:00Z"}"#)
    let cost = try #require(await w.get("/api/servers/\(id)/cost-insights").data)
    #expect(cost["configured"] == .bool(true))
    #expect(cost["invalid_reason"] == .null)
    #expect(cost["currency"]?.stringValue == "EUR")
    #expect(cost["cycle_days"] == .number(31))
    #expect(cost["days_elapsed"] == .number(15))
    #expect(cost["days_remaining"] == .number(16))
    let perDay: Double = 12.0 / 31
    let spent: Double = perDay * 15
    let burn: Double = spent / 12 * 100
    #expect(number(cost["cost_per_day"]) == perDay)
    #expect(number(cost["cost_per_month_equivalent"]) == 12)
    #expect(number(cost["cycle_cost_elapsed"]) == spent)
    #expect(number(cost["cycle_burn_percent"]) == burn)
    let value = try #require(cost["resource_value"])
    #expect(number(value["cost_per_cpu_core"]) == 3)
    #expect(number(value["cost_per_gb_memory"]) == 1.5)
    #expect(number(value["cost_per_tb_traffic_limit"]) == 6)
    // The plan ran out on 2027-01-01.
    #expect(cost["advisories"] == .array([.string("expired_billing")]))

    try await w.edit(id, #"{"billing_cycle":"quarterly","price":0}"#)
    let free = try #require(await w.get("/api/servers/\(id)/cost-insights").data)
    #expect(number(free["cost_per_month_equivalent"]) == 0)
    #expect(free["cycle_burn_percent"] == .null)
  }

  @Test func theCostOverviewTotalsEachCurrencyApartAndSortsServersByName() async throws {
    let w = try await world()
    let a = try await w.server("alpha")
    let z = try await w.server("zulu")
    try await w.edit(a, #"{"price":10,"billing_cycle":"monthly","currency":"EUR"}"#)
    try await w.edit(z, #"{"price":30,"billing_cycle":"quarterly","currency":"EUR"}"#)
    try await w.edit(w.server, #"{"price":5,"billing_cycle":"monthly"}"#)
    let data = try #require(await w.get("/api/cost/overview").data)
    guard case .array(let currencies) = data["currencies"],
      case .array(let servers) = data["servers"]
    else {
      Issue.record("two arrays")
      return
    }
    #expect(currencies.map { $0["currency"]?.stringValue } == ["EUR", "USD"])
    #expect(currencies.first?["configured_server_count"] == .number(2))
    #expect(number(currencies.first?["monthly_equivalent_total"]) == 20)
    #expect(number(currencies.last?["monthly_equivalent_total"]) == 5)
    #expect(servers.map { $0["name"]?.stringValue } == ["alpha", "web-1", "zulu"])
  }

  @Test func aFixedClockGivesTheSameAnswersAndTheNextDayMovesThem() async throws {
    let w = try await world()
    try await w.edit(w.server, #"{"billing_cycle":"monthly"}"#)
    let paths = [
      "/api/servers/\(w.server)/traffic", "/api/servers/\(w.server)/uptime-daily?days=30",
      "/api/traffic/overview", "/api/traffic/overview/daily?days=30", "/api/cost/overview",
    ]
    var first: [String] = []
    for path in paths { first.append(await w.get(path).text) }
    for (path, text) in zip(paths, first) { #expect(await w.get(path).text == text, "\(path)") }
    let unknown = await w.get("/api/servers/nope/traffic")
    #expect(unknown.status == 404 && unknown.message == "Not found: Server not found")
    let noCost = await w.get("/api/servers/nope/cost-insights")
    #expect(noCost.status == 404 && noCost.message == "Not found: Server not found")
    // A day later (signed in again: the access token has run out), today is a day further.
    w.h.clock.advance(by: 86_400)
    let admin = try #require(await w.h.login("ada", installation: "INST-2").1).access
    let later = await w.h.send(.get, "/api/servers/\(w.server)/traffic", bearer: admin)
    #expect(later.status == 200)
    #expect(later.text != first[0])
    guard case .array(let hours) = later.data?["hourly"] else {
      Issue.record("hours: \(later.text)")
      return
    }
    #expect(hours.first?["hour"]?.stringValue == "2027-01-16T00:00:00+00:00")
  }
}
