import ServerBeeModels
import ServerBeeTransport

// Traffic (Protocol/AppRoutes.md §5): one server's cycle, the fleet's cycles, the fleet's days.

extension InsightsArea {
  /// `GET /api/servers/{id}/traffic`. The cycle is the server's billing cycle, monthly when it
  /// has none [inferred: also when it has one the server would refuse], from
  /// `billing_start_day` (1 when unset, clamped to 1–28).
  func serverTraffic(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let row = try pathServer(context)
    let history = history(row)
    let cycle = BillingCycle(
      containing: history.today, months: BillingCycle.months(row.billingCycle) ?? 1,
      startDay: row.billingStartDay)
    let (bytesIn, bytesOut) = history.total(from: cycle.start)
    let counted: Int64 =
      switch row.trafficLimitType {
      case "up": bytesOut
      case "down": bytesIn
      default: bytesIn + bytesOut
      }
    let usage: Double? = row.trafficLimit.map { limit in
      limit <= 0 ? 0 : Double(counted) / Double(limit) * 100
    }
    // [inferred] The projection counts what the usage counts, over the days so far (today
    // included), and starts on the cycle's third day.
    let elapsed = history.today.daysSince1970 - cycle.start.daysSince1970 + 1
    var prediction = JSONValue.null
    if let limit = row.trafficLimit, limit > 0, elapsed >= 3 {
      let estimated = Int64(Double(counted) / Double(elapsed) * Double(cycle.days))
      prediction = .object([
        ("estimated_total", .number(Double(estimated))),
        ("estimated_percent", .number(Double(estimated) / Double(limit) * 100)),
        ("will_exceed", .bool(estimated > limit)),
      ])
    }
    var daily: [JSONValue] = []
    var day = cycle.start
    while day < history.today {
      if let row = history.daily(day) { daily.append(Self.day(row)) }
      day = day.adding(days: 1)
    }
    let hourly: [JSONValue] = history.hourly.map { hour in
      let text =
        history.today.description + "T" + (hour.hour < 10 ? "0" : "")
        + "\(hour.hour):00:00+00:00"
      return .object([
        ("hour", .string(text)), ("bytes_in", .number(Double(hour.bytesIn))),
        ("bytes_out", .number(Double(hour.bytesOut))),
      ])
    }
    return Reply.data(
      JSONValue.object([
        ("cycle_start", .date(cycle.start)), ("cycle_end", .date(cycle.end)),
        ("bytes_in", .number(Double(bytesIn))), ("bytes_out", .number(Double(bytesOut))),
        ("bytes_total", .number(Double(bytesIn + bytesOut))),
        ("traffic_limit", .integer(row.trafficLimit)),
        ("traffic_limit_type", .text(row.trafficLimitType)), ("usage_percent", .number(usage)),
        ("prediction", prediction), ("daily", .array(daily)), ("hourly", .array(hourly)),
      ]))
  }

  /// `GET /api/traffic/overview`: the servers with a non-empty billing cycle, in list order
  /// (the facts leave the order open). `percent_used` counts in + out whatever the limit type.
  func trafficOverview(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    var entries: [JSONValue] = []
    for row in try core.allServers() {
      guard let billing = row.billingCycle, !billing.isEmpty else { continue }
      let history = history(row)
      let cycle = BillingCycle(
        containing: history.today, months: BillingCycle.months(billing) ?? 1,
        startDay: row.billingStartDay)
      let (bytesIn, bytesOut) = history.total(from: cycle.start)
      let percent: Double? = row.trafficLimit.flatMap { limit in
        limit > 0 ? Double(bytesIn + bytesOut) / Double(limit) * 100 : nil
      }
      entries.append(
        .object([
          ("server_id", .string(row.id)), ("name", .string(row.name)),
          ("cycle_in", .number(Double(bytesIn))), ("cycle_out", .number(Double(bytesOut))),
          ("traffic_limit", .integer(row.trafficLimit)), ("billing_cycle", .string(billing)),
          ("percent_used", .number(percent)),
          ("days_remaining", .integer(cycle.end.daysSince1970 - history.today.daysSince1970)),
        ]))
    }
    return Reply.data(JSONValue.array(entries))
  }

  /// `GET /api/traffic/overview/daily?days=N` (default 30, no cap): every server's daily rows
  /// summed per date, for dates from today − N, ascending; dates without rows are left out.
  func trafficOverviewDaily(_ context: RequestContext, _ caller: Caller?) throws
    -> HTTPResponse
  {
    let days = try context.queryCount("days", default: 30)
    let servers = try core.allServers().map(history)
    guard let today = servers.first?.today else { return Reply.data(JSONValue.array([])) }
    // Only days that some server has data for: none before the earliest history.
    let earliest = servers.map(\.firstDay).min() ?? today
    var day = max(today.adding(days: -Int(min(days, 1_000_000))), earliest)
    var entries: [JSONValue] = []
    while day < today {
      var bytesIn: Int64 = 0
      var bytesOut: Int64 = 0
      var any = false
      for server in servers {
        guard let row = server.daily(day) else { continue }
        bytesIn += row.bytesIn
        bytesOut += row.bytesOut
        any = true
      }
      if any {
        entries.append(Self.day(DailyTraffic(date: day, bytesIn: bytesIn, bytesOut: bytesOut)))
      }
      day = day.adding(days: 1)
    }
    return Reply.data(JSONValue.array(entries))
  }

  private static func day(_ row: DailyTraffic) -> JSONValue {
    .object([
      ("date", .date(row.date)), ("bytes_in", .number(Double(row.bytesIn))),
      ("bytes_out", .number(Double(row.bytesOut))),
    ])
  }
}
