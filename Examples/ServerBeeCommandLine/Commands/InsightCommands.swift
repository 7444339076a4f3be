import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee traffic [SERVER]`, `serverbee cost [SERVER]` and `serverbee uptime SERVER`
/// (anyone signed in; Protocol/AppRoutes.md §5).
enum InsightCommands {
  /// `traffic SERVER`: the cycle, its totals against the limit, the projection and the days;
  /// `traffic`: each billed server's cycle and the fleet's last `--days` days.
  static func traffic(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    guard let named = context.arguments.positionals.first else {
      let days = try count(context, "days", default: 14, range: 0...3650)
      let overview = try await APIRequest.run("Loading the fleet's traffic", console: console) {
        try await api.trafficOverview()
      }
      let daily = try await APIRequest.run("Loading the daily totals", console: console) {
        try await api.dailyTraffic(days: days)
      }
      if console.json {
        console.json(try WireJSON.encode(FleetTraffic(servers: overview, daily: daily)))
        return
      }
      fleetTraffic(overview, daily, days: days, console)
      return
    }
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(named)
    let traffic = try await APIRequest.run("Loading the traffic", console: console) {
      try await api.traffic(serverID: server.id)
    }
    if console.json {
      console.json(try WireJSON.encode(traffic))
      return
    }
    serverTraffic(traffic, of: server, console)
  }

  /// What `traffic --json` prints without a server.
  private struct FleetTraffic: Encodable {
    let servers: [ServerTrafficOverview]
    let daily: [DailyTraffic]
  }

  private static func serverTraffic(
    _ traffic: ServerTraffic, of server: ServerResponse, _ console: Console
  ) {
    let cycleDays = traffic.cycleEnd.daysSince1970 - traffic.cycleStart.daysSince1970 + 1
    // The server's today is the day of its hours (its clock may not be this machine's).
    let today = CalendarDate(
      traffic.hourly.last?.start
        ?? RFC3339Timestamp(secondsSince1970: Int64(Date().timeIntervalSince1970)))
    let day = min(cycleDays, max(1, today.daysSince1970 - traffic.cycleStart.daysSince1970 + 1))
    console.line(
      TerminalText.safe(
        "\(server.name): cycle \(traffic.cycleStart) to \(traffic.cycleEnd) "
          + "(\(server.billingCycle ?? "monthly"), day \(day) of \(cycleDays))"))
    var totals =
      "in \(Formatting.bytes(traffic.bytesIn)), out \(Formatting.bytes(traffic.bytesOut)), "
      + "total \(Formatting.bytes(traffic.bytesTotal))"
    if let limit = traffic.trafficLimit {
      let counts = traffic.trafficLimitType ?? "sum"
      totals +=
        " of \(Formatting.bytes(limit)) (counting \(counts)): "
        + Formatting.percent(traffic.usagePercent)
    } else {
      totals += ", no limit"
    }
    console.line(TerminalText.safe(totals))
    if let prediction = traffic.prediction {
      console.line(
        "at this pace: \(Formatting.bytes(prediction.estimatedTotal)) by \(traffic.cycleEnd) "
          + "(\(Formatting.percent(prediction.estimatedPercent)) of the limit), "
          + (prediction.willExceed ? "OVER the limit" : "within the limit"))
    }
    if !traffic.daily.isEmpty {
      var table = TextTable(columns: [.left("DATE"), .right("IN"), .right("OUT")])
      for row in traffic.daily {
        table.append([
          row.date.description, Formatting.bytes(row.bytesIn), Formatting.bytes(row.bytesOut),
        ])
      }
      console.line(table.render())
    }
    let hoursIn = traffic.hourly.reduce(Int64(0)) { $0 + $1.bytesIn }
    let hoursOut = traffic.hourly.reduce(Int64(0)) { $0 + $1.bytesOut }
    console.line(
      "today so far (UTC, \(traffic.hourly.count) hour(s)): in \(Formatting.bytes(hoursIn)), "
        + "out \(Formatting.bytes(hoursOut))")
  }

  private static func fleetTraffic(
    _ servers: [ServerTrafficOverview], _ daily: [DailyTraffic], days: Int, _ console: Console
  ) {
    if servers.isEmpty {
      console.line(
        "No server has a billing cycle (set one with 'serverbee servers edit SERVER "
          + "--billing-cycle monthly').")
    } else {
      var table = TextTable(columns: [
        .left("SERVER"), .left("CYCLE"), .right("IN"), .right("OUT"), .right("LIMIT"),
        .right("USED"), .right("DAYS LEFT"),
      ])
      for server in servers.sorted(by: { $0.name < $1.name }) {
        table.append([
          Formatting.excerpt(server.name), server.billingCycle ?? "-",
          Formatting.bytes(server.cycleIn), Formatting.bytes(server.cycleOut),
          server.trafficLimit.map(Formatting.bytes) ?? "-",
          Formatting.percent(server.percentUsed), "\(server.daysRemaining)",
        ])
      }
      console.line(table.render())
    }
    guard !daily.isEmpty else {
      console.line("No daily traffic in the last \(days) day(s).")
      return
    }
    console.line("The fleet, day by day (UTC):")
    var table = TextTable(columns: [.left("DATE"), .right("IN"), .right("OUT")])
    for row in daily {
      table.append([
        row.date.description, Formatting.bytes(row.bytesIn), Formatting.bytes(row.bytesOut),
      ])
    }
    console.line(table.render())
  }

  /// `cost SERVER`: price, cycle, burn, what it buys and the advisories; `cost`: the fleet's
  /// totals per currency and each server's figures.
  static func cost(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    guard let named = context.arguments.positionals.first else {
      let overview = try await APIRequest.run("Loading the fleet's costs", console: console) {
        try await api.costOverview()
      }
      if console.json {
        console.json(try WireJSON.encode(overview))
        return
      }
      fleetCost(overview, console)
      return
    }
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(named)
    let cost = try await APIRequest.run("Loading the cost", console: console) {
      try await api.costInsights(serverID: server.id)
    }
    if console.json {
      console.json(try WireJSON.encode(cost))
      return
    }
    serverCost(cost, of: server, console)
  }

  private static func money(_ value: Double?, _ currency: String?) -> String {
    guard let value, value.isFinite else { return "-" }
    let digits = abs(value) < 1 && value != 0 ? 4 : 2
    return String(format: "%.\(digits)f", value) + (currency.map { " \($0)" } ?? "")
  }

  private static func serverCost(
    _ cost: ServerCostInsights, of server: ServerResponse, _ console: Console
  ) {
    guard cost.configured else {
      let reason = (cost.invalidReason?.rawValue ?? "not configured")
        .replacingOccurrences(of: "_", with: " ")
      console.line(
        TerminalText.safe(
          "\(server.name): no cost to show (\(reason)); set one with 'serverbee servers edit "
            + "\(server.name) --price 5 --billing-cycle monthly'."))
      return
    }
    let currency = cost.currency
    var head = "\(server.name): \(money(cost.price, currency)) \(cost.billingCycle ?? "")"
    if let start = cost.cycleStart, let end = cost.cycleEnd, let days = cost.cycleDays,
      let elapsed = cost.daysElapsed
    {
      head += ", cycle \(start) to \(end) (day \(elapsed) of \(days))"
    }
    console.line(TerminalText.safe(head))
    console.line(
      TerminalText.safe(
        "  a month \(money(cost.costPerMonthEquivalent, currency)), a day "
          + "\(money(cost.costPerDay, currency)), an hour \(money(cost.costPerHour, currency))"))
    console.line(
      TerminalText.safe(
        "  spent this cycle \(money(cost.cycleCostElapsed, currency)) "
          + "(\(Formatting.percent(cost.cycleBurnPercent))), still to come "
          + money(cost.cycleCostRemaining, currency)))
    if let value = cost.resourceValue {
      let parts = [
        value.costPerCPUCore.map { "\(money($0, currency)) a CPU core" },
        value.costPerGBMemory.map { "\(money($0, currency)) a GiB of memory" },
        value.costPerGBDisk.map { "\(money($0, currency)) a GiB of disk" },
        value.costPerTBTrafficLimit.map { "\(money($0, currency)) a TiB of traffic" },
      ].compactMap { $0 }
      if !parts.isEmpty {
        console.line(TerminalText.safe("  a month buys: " + parts.joined(separator: ", ")))
      }
    }
    console.line(
      cost.advisories.isEmpty
        ? "  no advisories"
        : TerminalText.safe("  advisories: " + cost.advisories.map(advice).joined(separator: "; ")))
  }

  /// An advisory as a phrase.
  private static func advice(_ advisory: CostAdvisory) -> String {
    switch advisory {
    case .expiredBilling: return "the plan has expired"
    case .sleepingMoney: return "paid for but offline, no samples for 24 hours"
    case .idleBurn: return "paid for but idle for 24 hours"
    case .lowUptime: return "online less than 90 % of the last 30 days"
    default: return advisory.rawValue
    }
  }

  private static func fleetCost(_ overview: CostOverview, _ console: Console) {
    if overview.currencies.isEmpty {
      console.line(
        "No server has a price and a billing cycle (set them with 'serverbee servers edit "
          + "SERVER --price 5 --billing-cycle monthly').")
    } else {
      var totals = TextTable(columns: [
        .left("CURRENCY"), .right("SERVERS"), .right("A MONTH"), .right("A DAY"),
        .right("THIS CYCLE"),
      ])
      for total in overview.currencies {
        totals.append([
          Formatting.excerpt(total.currency), "\(total.configuredServerCount)",
          money(total.monthlyEquivalentTotal, nil), money(total.dailyTotal, nil),
          money(total.cycleElapsedTotal, nil),
        ])
      }
      console.line(totals.render())
    }
    guard !overview.servers.isEmpty else { return }
    var table = TextTable(columns: [
      .left("SERVER"), .right("A MONTH"), .left("CYCLE"), .right("SPENT"), .right("DAYS LEFT"),
      .left("NOTES"),
    ])
    for server in overview.servers {
      let notes =
        server.configured
        ? server.advisories.map(\.rawValue).joined(separator: ", ")
        : (server.invalidReason?.rawValue ?? "not configured")
      table.append([
        Formatting.excerpt(server.name), money(server.costPerMonthEquivalent, server.currency),
        server.billingCycle ?? "-", Formatting.percent(server.cycleBurnPercent),
        server.daysRemaining.map { "\($0)" } ?? "-", Formatting.excerpt(notes),
      ])
    }
    console.line(table.render())
  }

  /// `uptime SERVER [--days N]`: one mark a day, the share online, and the days with outages.
  static func uptime(_ context: CommandContext) async throws {
    let console = context.console
    let days = try count(context, "days", default: 30, range: 1...365)
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    let entries = try await APIRequest.run("Loading the uptime", console: console) {
      try await api.uptimeDaily(serverID: server.id, days: days)
    }
    if console.json {
      console.json(try WireJSON.encode(entries))
      return
    }
    let watched = entries.reduce(0) { $0 + $1.totalMinutes }
    let online = entries.reduce(0) { $0 + $1.onlineMinutes }
    let outages = entries.reduce(0) { $0 + $1.downtimeIncidents }
    let share = watched > 0 ? Formatting.percent(Double(online) / Double(watched) * 100) : "-"
    console.line(
      TerminalText.safe(
        "\(server.name), the last \(entries.count) day(s): \(share) online, "
          + "\(outages) outage(s)"))
    console.line(entries.map { Meter.uptimeMark($0).mark }.joined())
    if let first = entries.first, let last = entries.last {
      console.line("\(first.date) … \(last.date)   \(Meter.uptimeLegend)")
    }
    let down = entries.filter { $0.downtimeIncidents > 0 }
    guard !down.isEmpty else { return }
    var table = TextTable(columns: [
      .left("DATE"), .right("ONLINE"), .right("DOWN"), .right("OUTAGES"),
    ])
    for day in down {
      table.append([
        day.date.description, Formatting.percent(day.availability.map { $0 * 100 }),
        "\(day.totalMinutes - day.onlineMinutes) min", "\(day.downtimeIncidents)",
      ])
    }
    console.line(table.render())
  }

  /// A whole-number option in `range`, or `default`.
  private static func count(
    _ context: CommandContext, _ name: String, default value: Int, range: ClosedRange<Int>
  ) throws -> Int {
    guard let text = context.arguments.values[name] else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw CommandLineError(
        .usage,
        "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), "
          + "got '\(TerminalText.safe(text))'")
    }
    return number
  }
}
