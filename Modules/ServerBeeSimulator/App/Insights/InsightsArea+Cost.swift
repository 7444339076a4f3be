import Foundation
import ServerBeeModels
import ServerBeeTransport

// What servers cost (Protocol/AppRoutes.md §5): one server's insights and the fleet overview,
// both from ``CostFigures``.

extension InsightsArea {
  /// `GET /api/servers/{id}/cost-insights`.
  func serverCostInsights(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let row = try pathServer(context)
    let cost = try figures(row)
    var resource = JSONValue.null
    if cost.configured, let month = cost.perMonth {
      func per(_ amount: Double?) -> JSONValue {
        amount.flatMap { $0 > 0 ? JSONValue.number(month / $0) : nil } ?? .null
      }
      resource = .object([
        ("cost_per_cpu_core", per(row.cpuCores.map(Double.init))),
        ("cost_per_gb_memory", per(row.memTotal.map { Double($0) / 1_073_741_824 })),
        ("cost_per_gb_disk", per(row.diskTotal.map { Double($0) / 1_073_741_824 })),
        ("cost_per_tb_traffic_limit", per(row.trafficLimit.map { Double($0) / 1_099_511_627_776 })),
        ("traffic_limit_type", .text(row.trafficLimitType)),
      ])
    }
    return Reply.data(
      JSONValue.object([
        ("server_id", .string(row.id)), ("configured", .bool(cost.configured)),
        ("invalid_reason", .text(cost.invalidReason)), ("price", .number(row.price)),
        ("currency", .text(cost.currency)), ("billing_cycle", .text(row.billingCycle)),
        ("cycle_start", .date(cost.cycle?.start)), ("cycle_end", .date(cost.cycle?.end)),
        ("cycle_days", .integer(cost.cycle?.days)), ("days_elapsed", .integer(cost.elapsed)),
        ("days_remaining", .integer(cost.remaining)),
        ("cost_per_second", .number(cost.perDay.map { $0 / 86_400 })),
        ("cost_per_hour", .number(cost.perDay.map { $0 / 24 })),
        ("cost_per_day", .number(cost.perDay)),
        ("cost_per_month_equivalent", .number(cost.perMonth)),
        ("cycle_cost_elapsed", .number(cost.spent)),
        ("cycle_cost_remaining", .number(cost.toSpend)),
        ("cycle_burn_percent", .number(cost.burn)), ("resource_value", resource),
        ("advisories", .array(cost.advisories.map { .string($0) })),
      ]))
  }

  /// `GET /api/cost/overview`: every server by name then id (byte order), and the configured
  /// ones' totals per currency, sorted by currency.
  func costOverview(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try core.allServers().sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    var servers: [JSONValue] = []
    var totals: [String: (count: Int, month: Double, day: Double, spent: Double)] = [:]
    for row in rows {
      let cost = try figures(row)
      if cost.configured, let currency = cost.currency {
        var total = totals[currency] ?? (0, 0, 0, 0)
        total.count += 1
        total.month += cost.perMonth ?? 0
        total.day += cost.perDay ?? 0
        total.spent += cost.spent ?? 0
        totals[currency] = total
      }
      servers.append(
        .object([
          ("server_id", .string(row.id)), ("name", .string(row.name)),
          ("configured", .bool(cost.configured)), ("invalid_reason", .text(cost.invalidReason)),
          ("currency", .text(cost.currency)), ("billing_cycle", .text(row.billingCycle)),
          ("cost_per_second", .number(cost.perDay.map { $0 / 86_400 })),
          ("cost_per_hour", .number(cost.perDay.map { $0 / 24 })),
          ("cost_per_day", .number(cost.perDay)),
          ("cost_per_month_equivalent", .number(cost.perMonth)),
          ("cycle_cost_elapsed", .number(cost.spent)), ("cycle_burn_percent", .number(cost.burn)),
          ("days_remaining", .integer(cost.remaining)),
          ("advisories", .array(cost.advisories.map { .string($0) })),
        ]))
    }
    let currencies: [JSONValue] = totals.keys.sorted().compactMap { currency in
      totals[currency].map { total in
        .object([
          ("currency", .string(currency)),
          ("configured_server_count", .integer(total.count)),
          ("monthly_equivalent_total", .number(total.month)),
          ("daily_total", .number(total.day)), ("cycle_elapsed_total", .number(total.spent)),
        ])
      }
    }
    return Reply.data(
      JSONValue.object([("currencies", .array(currencies)), ("servers", .array(servers))]))
  }

  /// What one server's price and billing cycle come to on the simulator clock.
  struct CostFigures {
    var configured = false
    var invalidReason: String?
    /// Stored as given when not configured; trimmed, `USD` when empty, when configured.
    var currency: String?
    var cycle: BillingCycle?
    var elapsed: Int?
    var remaining: Int?
    var perDay: Double?
    var perMonth: Double?
    var spent: Double?
    var toSpend: Double?
    var burn: Double?
    var advisories: [String] = []
  }

  /// The figures of `row`: not configured (with the first reason, in the order the facts list
  /// them [inferred]) unless the price is set, finite and ≥ 0 and the cycle is `monthly`,
  /// `quarterly` or `yearly`.
  func figures(_ row: ServerRow) throws -> CostFigures {
    var cost = CostFigures()
    cost.currency = row.currency
    guard let price = row.price else {
      cost.invalidReason = "missing_price"
      return cost
    }
    guard let billing = row.billingCycle, !billing.isEmpty else {
      cost.invalidReason = "missing_billing_cycle"
      return cost
    }
    guard let months = BillingCycle.months(billing) else {
      cost.invalidReason = "invalid_billing_cycle"
      return cost
    }
    guard price.isFinite, price >= 0 else {
      cost.invalidReason = "invalid_price"
      return cost
    }
    let history = history(row)
    let cycle = BillingCycle(
      containing: history.today, months: months, startDay: row.billingStartDay)
    let trimmed = (row.currency ?? "").trimmingCharacters(in: .whitespaces)
    let elapsed = history.today.daysSince1970 - cycle.start.daysSince1970 + 1
    let perDay = price / Double(cycle.days)
    cost.configured = true
    cost.currency = trimmed.isEmpty ? "USD" : trimmed
    cost.cycle = cycle
    cost.elapsed = elapsed
    cost.remaining = cycle.days - elapsed
    cost.perDay = perDay
    cost.perMonth = price / Double(months)
    cost.spent = perDay * Double(elapsed)
    cost.toSpend = perDay * Double(cycle.days - elapsed)
    cost.burn = price == 0 ? nil : perDay * Double(elapsed) / price * 100
    cost.advisories = try advisories(row, price: price, history: history)
    return cost
  }

  /// The advisories of a configured server, in the documented order.
  private func advisories(_ row: ServerRow, price: Double, history: InsightsHistory) throws
    -> [String]
  {
    var advisories: [String] = []
    if let expiry = row.expiredAt, expiry < now { advisories.append("expired_billing") }
    let day = 24 * 3600 * Self.second
    let samples = try db.query(
      """
      SELECT COUNT(*) AS n, AVG(cpu) AS cpu, AVG(mem_used) AS mem,
        MAX(net_in_speed + net_out_speed) AS net
      FROM records WHERE server_id = ? AND time >= ?
      """, [.text(row.id), .int(now - day)]
    ).first
    let count = samples?["n"].int ?? 0
    if price > 0, !row.online, count == 0 { advisories.append("sleeping_money") }
    if price > 0, count > 0, let cpu = samples?["cpu"].real, let memory = samples?["mem"].real,
      let total = row.memTotal, total > 0, cpu < 5, memory / Double(total) * 100 < 20,
      (samples?["net"].int ?? 0) == 0
    {
      advisories.append("idle_burn")
    }
    let month = (0..<30).map { history.uptime(history.today.adding(days: -$0)) }
    let watched = month.reduce(0) { $0 + $1.totalMinutes }
    let online = month.reduce(0) { $0 + $1.onlineMinutes }
    if watched > 0, Double(online) / Double(watched) < 0.9 { advisories.append("low_uptime") }
    return advisories
  }
}
