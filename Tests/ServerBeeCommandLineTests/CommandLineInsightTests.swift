import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee traffic`, `cost` and `uptime`, run as the built executable against the built
/// simulator (Protocol/AppRoutes.md §5): a server and the fleet, the server's view agreeing with
/// the fleet's, JSON, and the one-line errors.
@Suite(.timeLimit(.minutes(5))) struct CommandLineInsightTests {
  @Test func aServersTrafficCostAndUptimeAndTheFleetsAgree() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 2)
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")

    // Nothing billed yet: the fleet views say how to start.
    let unbilled = try await serverbee(["traffic"], home: home)
    #expect(unbilled.status == 0, "\(unbilled.stderr)")
    #expect(unbilled.stdout.hasPrefix("No server has a billing cycle"), "\(unbilled.stdout)")
    let unpriced = try await serverbee(["cost", "server-1"], home: home)
    #expect(
      unpriced.stdout.contains("server-1: no cost to show (missing price)"), "\(unpriced.stdout)")

    let edit = try await serverbee(
      [
        "servers", "edit", "server-1", "--price", "12", "--billing-cycle", "monthly",
        "--currency", "EUR", "--traffic-limit", "1099511627776", "--traffic-limit-type", "up",
      ], home: home)
    #expect(edit.status == 0, "\(edit.stderr)")

    // The simulator follows the wall clock and counts the current hour up to the minute, so
    // the fleet's figure lies between the server's read just before and just after it.
    func serverTraffic() async throws -> [String: Any] {
      let traffic = try await serverbee(["traffic", "server-1", "--json"], home: home)
      #expect(traffic.status == 0, "\(traffic.stderr)")
      return try #require(
        try JSONSerialization.jsonObject(with: Data(traffic.stdout.utf8)) as? [String: Any])
    }
    let before = try await serverTraffic()
    let fleet = try await serverbee(["traffic", "--json", "--days", "3"], home: home)
    let after = try await serverTraffic()
    let all = try #require(
      try JSONSerialization.jsonObject(with: Data(fleet.stdout.utf8)) as? [String: Any])
    let servers = try #require(all["servers"] as? [[String: Any]])
    #expect(servers.count == 1)
    for (fleetKey, serverKey) in [("cycle_in", "bytes_in"), ("cycle_out", "bytes_out")] {
      let low = try #require(before[serverKey] as? Int64)
      let high = try #require(after[serverKey] as? Int64)
      let value = try #require(servers.first?[fleetKey] as? Int64)
      #expect(low <= value && value <= high, "\(fleetKey) \(value) not in \(low)...\(high)")
    }
    #expect((all["daily"] as? [Any])?.count == 3)

    let table = try await serverbee(["traffic", "server-1"], home: home)
    #expect(table.stdout.hasPrefix("server-1: cycle "), "\(table.stdout)")
    #expect(table.stdout.contains("(counting up)"), "\(table.stdout)")
    #expect(table.stdout.contains("today so far (UTC"), "\(table.stdout)")

    let cost = try await serverbee(["cost", "server-1"], home: home)
    #expect(cost.status == 0, "\(cost.stderr)")
    #expect(cost.stdout.hasPrefix("server-1: 12.00 EUR monthly, cycle "), "\(cost.stdout)")
    #expect(cost.stdout.contains("a month 12.00 EUR"), "\(cost.stdout)")
    let overview = try await serverbee(["cost"], home: home)
    #expect(overview.stdout.contains("EUR             1    12.00"), "\(overview.stdout)")
    #expect(overview.stdout.contains("missing_price"), "\(overview.stdout)")

    let uptime = try await serverbee(["uptime", "server-1", "--days", "60"], home: home)
    #expect(uptime.status == 0, "\(uptime.stderr)")
    let lines = uptime.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("server-1, the last 60 day(s): ") == true, "\(uptime.stdout)")
    #expect(lines.count >= 3 && lines[1].count == 60, "\(uptime.stdout)")
    let days = try await serverbee(["uptime", "server-1", "--days", "7", "--json"], home: home)
    #expect(
      (try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [Any])?.count == 7)

    // Bad input is one line, before any request; an unknown server names itself.
    let range = try await serverbee(["uptime", "server-1", "--days", "400"], home: home)
    #expect(range.status == 64)
    #expect(range.stderr == "serverbee: --days takes a whole number from 1 to 365, got '400'\n")
    let unknown = try await serverbee(["traffic", "nope"], home: home)
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains("no server 'nope'"), "\(unknown.stderr)")
  }
}
