import ServerBeeModels

/// The traffic and uptime the simulator's made-up agents reported (Protocol/AppRoutes.md §5):
/// not stored, but a pure function of the server's id, the day and the hour, so every view
/// (one server, the fleet, any request) sees the same numbers for a given clock.
///
/// [inferred, the simulator's choice] A server's history starts 90 days before its row was
/// created, so a fresh simulator already has cycles, charts and outages to show. Days before
/// that have no data (no daily rows; zero uptime entries). Daily traffic rows exist for the
/// days before today (upstream rolls a day up once it is over); today's traffic is in hourly
/// rows, the current hour counted up to the clock's minute.
struct InsightsHistory {
  /// The server.
  let serverID: String
  /// The first day with data.
  let firstDay: CalendarDate
  /// The simulator clock's day.
  let today: CalendarDate
  /// Seconds since midnight on the clock (UTC).
  let secondOfDay: Int64

  /// How far before a server's creation its history starts.
  static let daysBeforeCreation = 90

  init(serverID: String, createdAt: Int64, now: Int64) {
    self.serverID = serverID
    let nowSeconds = now / SimulatorCore.second
    let created = CalendarDate(RFC3339Timestamp(secondsSince1970: createdAt / SimulatorCore.second))
    firstDay = created.adding(days: -Self.daysBeforeCreation)
    today = CalendarDate(RFC3339Timestamp(secondsSince1970: nowSeconds))
    secondOfDay = nowSeconds - Int64(today.daysSince1970) * 86_400
  }

  // MARK: Traffic

  /// The rolled-up traffic of `day` (before today, from ``firstDay``), or `nil` when there is no
  /// row for it.
  func daily(_ day: CalendarDate) -> DailyTraffic? {
    guard day >= firstDay, day < today else { return nil }
    let bytesIn = Int64(Double(baseDailyBytes) * (0.6 + 0.8 * unit("in", day.daysSince1970)))
    return DailyTraffic(
      date: day, bytesIn: bytesIn, bytesOut: outbound(bytesIn, "out", day.daysSince1970))
  }

  /// Today's hours so far, oldest first; the current hour up to the clock's minute.
  var hourly: [(hour: Int, bytesIn: Int64, bytesOut: Int64)] {
    guard today >= firstDay else { return [] }
    let currentHour = Int(secondOfDay / 3600)
    return (0...currentHour).map { hour in
      let salt = today.daysSince1970 * 24 + hour
      var bytesIn = Double(baseDailyBytes) / 24 * (0.5 + unit("hour-in", salt))
      if hour == currentHour { bytesIn *= Double(secondOfDay % 3600 / 60) / 60 }
      let whole = Int64(bytesIn)
      return (hour, whole, outbound(whole, "hour-out", salt))
    }
  }

  /// Bytes in and out from `start` to today included (daily rows, then today's hours).
  func total(from start: CalendarDate) -> (bytesIn: Int64, bytesOut: Int64) {
    var bytesIn: Int64 = 0
    var bytesOut: Int64 = 0
    var day = max(start, firstDay)
    while day < today {
      if let row = daily(day) {
        bytesIn += row.bytesIn
        bytesOut += row.bytesOut
      }
      day = day.adding(days: 1)
    }
    if start <= today {
      for hour in hourly {
        bytesIn += hour.bytesIn
        bytesOut += hour.bytesOut
      }
    }
    return (bytesIn, bytesOut)
  }

  /// The server's typical day: 0.6 to 4 GiB received.
  private var baseDailyBytes: Int64 {
    Int64((0.6 + 3.4 * unit("base", 0)) * 1_073_741_824)
  }

  private func outbound(_ bytesIn: Int64, _ salt: String, _ number: Int) -> Int64 {
    Int64(Double(bytesIn) * (0.15 + 0.6 * unit(salt, number)))
  }

  // MARK: Uptime

  /// One day's uptime: zeros before ``firstDay`` and after today; a whole day of 1,440 minutes
  /// before today, today the minutes so far. About one day in twelve has an outage of 2 to 41
  /// minutes (one day in fifty two of them).
  func uptime(_ day: CalendarDate) -> UptimeDay {
    guard day >= firstDay, day <= today else {
      return UptimeDay(date: day, totalMinutes: 0, onlineMinutes: 0, downtimeIncidents: 0)
    }
    let total = day < today ? 1440 : Int(secondOfDay / 60)
    let roll = unit("down", day.daysSince1970)
    guard roll < 1.0 / 12, total > 0 else {
      return UptimeDay(date: day, totalMinutes: total, onlineMinutes: total, downtimeIncidents: 0)
    }
    let down = min(total, 2 + Int(unit("down-minutes", day.daysSince1970) * 40))
    return UptimeDay(
      date: day, totalMinutes: total, onlineMinutes: total - down,
      downtimeIncidents: roll < 1.0 / 50 ? 2 : 1)
  }

  // MARK: Randomness

  /// A number in `0..<1` from the server, a salt and a number (``SeededNoise``).
  private func unit(_ salt: String, _ number: Int) -> Double {
    SeededNoise.unit(serverID, salt, number)
  }
}

/// A billing cycle: the `months` long period containing a day (Protocol/AppRoutes.md §5).
///
/// [inferred] Cycles start on `billing_start_day` (1 when unset; clamped to 1–28) of January
/// for yearly billing, of January, April, July and October for quarterly billing, and of every
/// month for monthly billing; a day before the start day belongs to the cycle that started the
/// period before.
struct BillingCycle {
  let start: CalendarDate
  let end: CalendarDate

  /// The cycle's length in months: 1, 3 or 12 for `monthly`, `quarterly`, `yearly`; `nil` for
  /// anything else.
  static func months(_ billingCycle: String?) -> Int? {
    switch billingCycle {
    case "monthly": return 1
    case "quarterly": return 3
    case "yearly": return 12
    default: return nil
    }
  }

  init(containing day: CalendarDate, months: Int, startDay: Int64?) {
    let anchor = Int(min(28, max(1, startDay ?? 1)))
    var index = day.year * 12 + day.month - 1
    if day.day < anchor { index -= 1 }
    index -= index % months
    start = Self.date(monthIndex: index, day: anchor)
    end = Self.date(monthIndex: index + months, day: anchor).adding(days: -1)
  }

  /// Days in the cycle.
  var days: Int { end.daysSince1970 - start.daysSince1970 + 1 }

  private static func date(monthIndex: Int, day: Int) -> CalendarDate {
    // `day` is 1–28, a day of every month, so the date exists.
    (try? CalendarDate(year: monthIndex / 12, month: monthIndex % 12 + 1, day: day))
      ?? CalendarDate(daysSince1970: 0)
  }
}
