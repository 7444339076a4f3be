/// Hand-written RFC 3339 parsing and formatting. Foundation's ISO8601DateFormatter is not
/// reliable for nine fraction digits on every platform (Protocol/README.md §7 advice), and the
/// civil-date arithmetic below is exact for every year 0001–9999.
enum RFC3339Parser {
  static func parse(_ b: [UInt8]) -> RFC3339Timestamp? {
    guard b.count >= 20, b.count <= 64 else { return nil }
    func digits(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for i in start..<(start + count) {
        let c = b[i]
        guard c >= 0x30, c <= 0x39 else { return nil }
        value = value * 10 + Int(c - 0x30)
      }
      return value
    }
    guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
      b[7] == UInt8(ascii: "-"), let day = digits(8, 2),
      b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
      let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
      b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour <= 23, minute <= 59, second <= 60
    else { return nil }
    var index = 19
    var nanos = 0
    if index < b.count, b[index] == UInt8(ascii: ".") {
      index += 1
      let start = index
      while index < b.count, b[index] >= 0x30, b[index] <= 0x39 { index += 1 }
      let count = index - start
      guard count >= 1, count <= 9, let fraction = digits(start, count) else { return nil }
      nanos = fraction
      for _ in count..<9 { nanos *= 10 }
    }
    guard index < b.count else { return nil }
    var offsetSeconds = 0
    let style: RFC3339Timestamp.Style
    switch b[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      guard index + 1 == b.count else { return nil }
      style = .zulu
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard index + 6 == b.count, let oh = digits(index + 1, 2), b[index + 3] == UInt8(ascii: ":"),
        let om = digits(index + 4, 2), oh <= 23, om <= 59
      else { return nil }
      offsetSeconds = (oh * 3600 + om * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
      style = .utcOffset
    default:
      return nil
    }
    // A leap second (:60) is folded into the next second, as chrono does.
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds =
      Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
      - Int64(offsetSeconds)
    // The instant must be writable again: an offset or a leap second can carry it out of the
    // four-digit years (`9999-12-31T23:59:60Z`, `0000-01-01T00:00:00+01:00`), which the
    // formatter cannot express (found by fuzz-rfc3339).
    guard utcRange.contains(seconds) else { return nil }
    return RFC3339Timestamp(secondsSince1970: seconds, nanoseconds: Int32(nanos), style: style)
  }

  /// The whole seconds from 0000-01-01T00:00:00Z through 9999-12-31T23:59:59Z.
  static let utcRange: ClosedRange<Int64> =
    Int64(daysFromCivil(year: 0, month: 1, day: 1))
    * 86_400...(Int64(
      daysFromCivil(year: 10_000, month: 1, day: 1)) * 86_400 - 1)

  static func format(_ t: RFC3339Timestamp, style: RFC3339Timestamp.Style) -> String {
    let split = t.secondsSince1970.quotientAndRemainder(dividingBy: 86_400)
    var days = split.quotient
    var secondOfDay = split.remainder
    if secondOfDay < 0 {
      secondOfDay += 86_400
      days -= 1
    }
    let (year, month, day) = civilFromDays(Int(days))
    var out = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
    out += pad(Int(secondOfDay / 3600), 2) + ":" + pad(Int(secondOfDay % 3600 / 60), 2) + ":"
    out += pad(Int(secondOfDay % 60), 2)
    let nanos = Int(t.nanoseconds)
    if nanos != 0 {
      if nanos % 1_000_000 == 0 {
        out += "." + pad(nanos / 1_000_000, 3)
      } else if nanos % 1_000 == 0 {
        out += "." + pad(nanos / 1_000, 6)
      } else {
        out += "." + pad(nanos, 9)
      }
    }
    out += style == .zulu ? "Z" : "+00:00"
    return out
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }

  private static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // Howard Hinnant's days_from_civil / civil_from_days.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
