import ServerBeeModels

/// A task's cron schedule in the 6-field form with seconds (`sec min hour dom month dow`), read
/// in UTC (Protocol/Tasks.md §2).
///
/// Each field takes `*`, `?` (day fields), a number, a range `a-b`, a step `*/n`, `a/n` or
/// `a-b/n`, and lists of those joined by `,`. Months take `JAN`–`DEC` and days of the week
/// `SUN`–`SAT` as well as numbers. [inferred, as the Rust `cron` crate behind the server's
/// scheduler reads them: day of week is 1–7 with 1 = Sunday; a time matches when both the day
/// of month and the day of week match.]
///
/// ```swift
/// let schedule = try CronSchedule.parse("0 30 3 * * *")  // 03:30:00 UTC every day
/// let next = schedule.next(after: nowSeconds)            // Unix seconds, or nil
/// ```
struct CronSchedule: Equatable, Sendable {
  let seconds: Set<Int>
  let minutes: Set<Int>
  let hours: Set<Int>
  let daysOfMonth: Set<Int>
  let months: Set<Int>
  /// 1–7, 1 = Sunday.
  let daysOfWeek: Set<Int>

  /// Why an expression was refused; ``description`` is the text after `Invalid cron
  /// expression: `.
  struct ParseError: Error, Equatable, CustomStringConvertible {
    let description: String
  }

  private static let monthNames = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
  ]
  private static let dayNames = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]

  /// Reads an expression.
  /// - Parameter expression: Six fields separated by blanks.
  /// - Returns: The schedule.
  /// - Throws: ``ParseError`` naming the field at fault.
  static func parse(_ expression: String) throws(ParseError) -> CronSchedule {
    let fields = expression.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard fields.count == 6 else {
      throw ParseError(
        description:
          "expected 6 fields (sec min hour day-of-month month day-of-week), got \(fields.count)")
    }
    return CronSchedule(
      seconds: try field(fields[0], "seconds", 0...59),
      minutes: try field(fields[1], "minutes", 0...59),
      hours: try field(fields[2], "hours", 0...23),
      daysOfMonth: try field(fields[3], "day of month", 1...31, question: true),
      months: try field(fields[4], "month", 1...12, names: monthNames, firstName: 1),
      daysOfWeek: try field(
        fields[5], "day of week", 1...7, names: dayNames, firstName: 1, question: true))
  }

  private static func field(
    _ text: String, _ name: String, _ range: ClosedRange<Int>, names: [String] = [],
    firstName: Int = 0, question: Bool = false
  ) throws(ParseError) -> Set<Int> {
    var values: Set<Int> = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
      let refused = ParseError(description: "'\(part)' is not a valid \(name) value")
      let pieces = part.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      guard pieces.count == 1 || pieces.count == 2 else { throw refused }
      var step = 1
      if pieces.count == 2 {
        guard let parsed = Int(pieces[1]), parsed > 0 else { throw refused }
        step = parsed
      }
      let base = pieces[0]
      var low: Int
      var high: Int
      if base == "*" || (question && base == "?") {
        (low, high) = (range.lowerBound, range.upperBound)
      } else {
        let bounds = base.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard bounds.count == 1 || bounds.count == 2 else { throw refused }
        guard let first = value(bounds[0], names, firstName) else { throw refused }
        low = first
        if bounds.count == 2 {
          guard let last = value(bounds[1], names, firstName) else { throw refused }
          high = last
        } else {
          high = pieces.count == 2 ? range.upperBound : first
        }
      }
      guard range.contains(low), range.contains(high), low <= high else {
        throw ParseError(
          description:
            "'\(part)' is out of range for \(name) (\(range.lowerBound)-\(range.upperBound))")
      }
      values.formUnion(stride(from: low, through: high, by: step))
    }
    return values
  }

  private static func value(_ text: String, _ names: [String], _ firstName: Int) -> Int? {
    if let number = Int(text), text.allSatisfy(\.isNumber) { return number }
    return names.firstIndex(of: text.uppercased()).map { $0 + firstName }
  }

  /// The first matching second strictly after `after` (Unix seconds, UTC), or `nil` when none
  /// comes within eight years (a date such as 30 February never does).
  func next(after: Int64) -> Int64? {
    let start = after + 1
    var day = Self.floorDiv(start, 86_400)
    var fromSecond = Int(start - day * 86_400)
    for _ in 0..<(366 * 8) {
      let date = CalendarDate(daysSince1970: Int(day))
      let (month, dayOfMonth) = (date.month, date.day)
      // 1970-01-01 was a Thursday (5 with 1 = Sunday).
      let weekday = Int(((day % 7) + 7 + 4) % 7) + 1
      if months.contains(month), daysOfMonth.contains(dayOfMonth), daysOfWeek.contains(weekday),
        let second = firstSecond(from: fromSecond)
      {
        return day * 86_400 + Int64(second)
      }
      day += 1
      fromSecond = 0
    }
    return nil
  }

  /// The first matching second of a day at or after `from` (seconds since midnight).
  private func firstSecond(from: Int) -> Int? {
    for hour in hours.sorted() where (hour + 1) * 3600 > from {
      for minute in minutes.sorted() where hour * 3600 + (minute + 1) * 60 > from {
        for second in seconds.sorted() where hour * 3600 + minute * 60 + second >= from {
          return hour * 3600 + minute * 60 + second
        }
      }
    }
    return nil
  }

  private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }
}
