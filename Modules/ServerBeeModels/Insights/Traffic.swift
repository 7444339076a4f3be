/// `GET /api/servers/{id}/traffic` (Protocol/AppRoutes.md §5): one server's traffic in its
/// current billing cycle, with the day-by-day and today's hour-by-hour counts.
///
/// ``usagePercent`` honours ``trafficLimitType`` (`up` counts bytes out, `down` bytes in, else
/// both) and may exceed 100; the fleet overview's ``ServerTrafficOverview/percentUsed`` does not.
///
/// ```swift
/// let traffic = try await api.traffic(serverID: server.id)
/// print(traffic.cycleStart, "…", traffic.cycleEnd, traffic.bytesTotal, traffic.usagePercent ?? 0)
/// if traffic.prediction?.willExceed == true { print("will run over its limit") }
/// ```
public struct ServerTraffic: Codable, Hashable, Sendable {
  /// The cycle's first day (inclusive).
  public var cycleStart: CalendarDate
  /// The cycle's last day (inclusive).
  public var cycleEnd: CalendarDate
  /// Bytes received in the cycle.
  public var bytesIn: Int64
  /// Bytes sent in the cycle.
  public var bytesOut: Int64
  /// Both.
  public var bytesTotal: Int64
  /// The limit in bytes, if any.
  public var trafficLimit: Int64?
  /// What the limit counts: `sum`, `up` or `down` (`nil`: sum).
  public var trafficLimitType: String?
  /// The counted bytes over the limit, percent; `nil` without a limit, `0` for a limit ≤ 0.
  public var usagePercent: Double?
  /// A linear projection to the cycle's end; `nil` before its third day or without a positive
  /// limit.
  public var prediction: TrafficPrediction?
  /// The cycle's days, oldest first, from the server's daily totals.
  public var daily: [DailyTraffic]
  /// Today's hours (UTC), oldest first.
  public var hourly: [HourlyTraffic]

  /// Creates a value.
  /// - Parameters:
  ///   - cycleStart: First day.
  ///   - cycleEnd: Last day.
  ///   - bytesIn: Received.
  ///   - bytesOut: Sent.
  ///   - bytesTotal: Both.
  ///   - trafficLimit: Limit, if any.
  ///   - trafficLimitType: `sum`, `up` or `down`.
  ///   - usagePercent: Percent of the limit.
  ///   - prediction: The projection.
  ///   - daily: Days.
  ///   - hourly: Today's hours.
  public init(
    cycleStart: CalendarDate, cycleEnd: CalendarDate, bytesIn: Int64, bytesOut: Int64,
    bytesTotal: Int64, trafficLimit: Int64?, trafficLimitType: String?, usagePercent: Double?,
    prediction: TrafficPrediction?, daily: [DailyTraffic], hourly: [HourlyTraffic]
  ) {
    self.cycleStart = cycleStart
    self.cycleEnd = cycleEnd
    self.bytesIn = bytesIn
    self.bytesOut = bytesOut
    self.bytesTotal = bytesTotal
    self.trafficLimit = trafficLimit
    self.trafficLimitType = trafficLimitType
    self.usagePercent = usagePercent
    self.prediction = prediction
    self.daily = daily
    self.hourly = hourly
  }

  private enum CodingKeys: String, CodingKey {
    case cycleStart = "cycle_start"
    case cycleEnd = "cycle_end"
    case bytesIn = "bytes_in"
    case bytesOut = "bytes_out"
    case bytesTotal = "bytes_total"
    case trafficLimit = "traffic_limit"
    case trafficLimitType = "traffic_limit_type"
    case usagePercent = "usage_percent"
    case prediction, daily, hourly
  }
}

/// Where a cycle's traffic is heading (``ServerTraffic/prediction``).
public struct TrafficPrediction: Codable, Hashable, Sendable {
  /// The counted bytes the cycle will end with at today's pace.
  public var estimatedTotal: Int64
  /// That, as a percent of the limit.
  public var estimatedPercent: Double
  /// Whether it is over the limit.
  public var willExceed: Bool

  /// Creates a value.
  /// - Parameters:
  ///   - estimatedTotal: Bytes at the cycle's end.
  ///   - estimatedPercent: Percent of the limit.
  ///   - willExceed: Over the limit.
  public init(estimatedTotal: Int64, estimatedPercent: Double, willExceed: Bool) {
    self.estimatedTotal = estimatedTotal
    self.estimatedPercent = estimatedPercent
    self.willExceed = willExceed
  }

  private enum CodingKeys: String, CodingKey {
    case estimatedTotal = "estimated_total"
    case estimatedPercent = "estimated_percent"
    case willExceed = "will_exceed"
  }
}

/// One day's traffic: of one server (``ServerTraffic/daily``) or of the fleet
/// (`GET /api/traffic/overview/daily`, where days without data are missing, not zero).
public struct DailyTraffic: Codable, Hashable, Sendable, Identifiable {
  /// The UTC day.
  public var date: CalendarDate
  /// Bytes received.
  public var bytesIn: Int64
  /// Bytes sent.
  public var bytesOut: Int64

  /// The day.
  public var id: CalendarDate { date }

  /// Creates a value.
  /// - Parameters:
  ///   - date: The day.
  ///   - bytesIn: Received.
  ///   - bytesOut: Sent.
  public init(date: CalendarDate, bytesIn: Int64, bytesOut: Int64) {
    self.date = date
    self.bytesIn = bytesIn
    self.bytesOut = bytesOut
  }

  private enum CodingKeys: String, CodingKey {
    case date
    case bytesIn = "bytes_in"
    case bytesOut = "bytes_out"
  }
}

/// One hour of today's traffic (``ServerTraffic/hourly``).
///
/// ``hour`` is kept as sent: the stored text, `YYYY-MM-DDTHH:MM:SS+00:00` as far as the facts
/// go, though the app's own comment says `YYYY-MM-DD HH:MM:SS`. ``start`` reads either.
public struct HourlyTraffic: Codable, Hashable, Sendable {
  /// The hour as the server wrote it.
  public var hour: String
  /// Bytes received.
  public var bytesIn: Int64
  /// Bytes sent.
  public var bytesOut: Int64

  /// The hour's start, read leniently: RFC 3339 with a `T` or a space, with or without a zone
  /// (none means UTC); `nil` when ``hour`` is none of these.
  public var start: RFC3339Timestamp? {
    if let time = try? RFC3339Timestamp(parsing: hour) { return time }
    return try? RFC3339Timestamp(parsing: hour + "Z")
  }

  /// Creates a value.
  /// - Parameters:
  ///   - hour: The hour's text.
  ///   - bytesIn: Received.
  ///   - bytesOut: Sent.
  public init(hour: String, bytesIn: Int64, bytesOut: Int64) {
    self.hour = hour
    self.bytesIn = bytesIn
    self.bytesOut = bytesOut
  }

  private enum CodingKeys: String, CodingKey {
    case hour
    case bytesIn = "bytes_in"
    case bytesOut = "bytes_out"
  }
}

/// One server of `GET /api/traffic/overview` (Protocol/AppRoutes.md §5): only servers with a
/// billing cycle are listed, in no set order.
///
/// ``percentUsed`` always counts both directions, whatever the limit type (unlike
/// ``ServerTraffic/usagePercent``).
public struct ServerTrafficOverview: Codable, Hashable, Sendable, Identifiable {
  /// The server.
  public var serverID: String
  /// Its name.
  public var name: String
  /// Bytes received this cycle.
  public var cycleIn: Int64
  /// Bytes sent this cycle.
  public var cycleOut: Int64
  /// The limit in bytes, if any.
  public var trafficLimit: Int64?
  /// `monthly`, `quarterly` or `yearly`.
  public var billingCycle: String?
  /// (in + out) ÷ limit × 100; `nil` without a positive limit.
  public var percentUsed: Double?
  /// Days from today to the cycle's last day.
  public var daysRemaining: Int

  /// The server.
  public var id: String { serverID }

  /// Creates a value.
  /// - Parameters:
  ///   - serverID: Server.
  ///   - name: Name.
  ///   - cycleIn: Received.
  ///   - cycleOut: Sent.
  ///   - trafficLimit: Limit.
  ///   - billingCycle: Cycle.
  ///   - percentUsed: Percent of the limit.
  ///   - daysRemaining: Days left.
  public init(
    serverID: String, name: String, cycleIn: Int64, cycleOut: Int64, trafficLimit: Int64?,
    billingCycle: String?, percentUsed: Double?, daysRemaining: Int
  ) {
    self.serverID = serverID
    self.name = name
    self.cycleIn = cycleIn
    self.cycleOut = cycleOut
    self.trafficLimit = trafficLimit
    self.billingCycle = billingCycle
    self.percentUsed = percentUsed
    self.daysRemaining = daysRemaining
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case name
    case cycleIn = "cycle_in"
    case cycleOut = "cycle_out"
    case trafficLimit = "traffic_limit"
    case billingCycle = "billing_cycle"
    case percentUsed = "percent_used"
    case daysRemaining = "days_remaining"
  }
}

/// One day of `GET /api/servers/{id}/uptime-daily` (Protocol/AppRoutes.md §5): the answer has
/// exactly the days asked for, oldest first, ending today, days without data all zero.
///
/// ```swift
/// let days = try await api.uptimeDaily(serverID: server.id, days: 30)
/// let online = days.reduce(0) { $0 + $1.onlineMinutes }
/// let total = days.reduce(0) { $0 + $1.totalMinutes }
/// print(total == 0 ? "no data" : "\(100 * online / total) % up")
/// ```
public struct UptimeDay: Codable, Hashable, Sendable, Identifiable {
  /// The UTC day.
  public var date: CalendarDate
  /// Minutes the server was watched that day.
  public var totalMinutes: Int
  /// Minutes it was online.
  public var onlineMinutes: Int
  /// How many times it went down.
  public var downtimeIncidents: Int

  /// The day.
  public var id: CalendarDate { date }

  /// Online minutes over watched minutes, 0 to 1; `nil` for a day with no data.
  public var availability: Double? {
    totalMinutes > 0 ? Double(onlineMinutes) / Double(totalMinutes) : nil
  }

  /// Creates a value.
  /// - Parameters:
  ///   - date: The day.
  ///   - totalMinutes: Watched minutes.
  ///   - onlineMinutes: Online minutes.
  ///   - downtimeIncidents: Outages.
  public init(date: CalendarDate, totalMinutes: Int, onlineMinutes: Int, downtimeIncidents: Int) {
    self.date = date
    self.totalMinutes = totalMinutes
    self.onlineMinutes = onlineMinutes
    self.downtimeIncidents = downtimeIncidents
  }

  private enum CodingKeys: String, CodingKey {
    case date
    case totalMinutes = "total_minutes"
    case onlineMinutes = "online_minutes"
    case downtimeIncidents = "downtime_incidents"
  }
}
