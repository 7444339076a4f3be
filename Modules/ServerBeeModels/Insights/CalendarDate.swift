/// A UTC calendar day, written `YYYY-MM-DD` on the wire: the dates of billing cycles, daily
/// traffic and daily uptime (Protocol/AppRoutes.md §5).
///
/// Decoding refuses anything but a real day in that form. The day arithmetic is proleptic
/// Gregorian, so it needs no calendar or time zone:
///
/// ```swift
/// let today = CalendarDate(RFC3339Timestamp(secondsSince1970: 1_780_000_000))
/// let start = try CalendarDate(parsing: "2026-05-01")
/// print(today.daysSince1970 - start.daysSince1970, "days into the cycle")
/// print(start.adding(days: 30))   // 2026-05-31
/// ```
public struct CalendarDate: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year, 1 to 9999.
  public let year: Int
  /// The month, 1 to 12.
  public let month: Int
  /// The day of the month, 1 to 28–31.
  public let day: Int

  /// Creates a date, checking that the day exists.
  /// - Parameters:
  ///   - year: 1 to 9999.
  ///   - month: 1 to 12.
  ///   - day: 1 to the month's length.
  /// - Throws: ``ServerBeeModelsError`` `invalidTimestamp` for a day that does not exist.
  public init(year: Int, month: Int, day: Int) throws {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...Self.length(ofMonth: month, year: year)).contains(day)
    else {
      throw ServerBeeModelsError(
        .invalidTimestamp, "no such date: year \(year), month \(month), day \(day)")
    }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD`.
  /// - Parameter text: The text.
  /// - Throws: ``ServerBeeModelsError`` `invalidTimestamp` when it is not a real day in that
  ///   form.
  public init(parsing text: String) throws {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
    else {
      throw ServerBeeModelsError(
        .invalidTimestamp, "not a YYYY-MM-DD date: \"\(text.prefix(32))\"")
    }
    try self.init(year: year, month: month, day: day)
  }

  /// The day `days` after 1970-01-01 (negative: before it).
  /// - Parameter daysSince1970: Days from 1970-01-01.
  public init(daysSince1970: Int) {
    // Howard Hinnant's civil_from_days.
    let z = daysSince1970 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shifted + 2) / 5 + 1
    month = shifted < 10 ? shifted + 3 : shifted - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// The UTC day of a moment.
  /// - Parameter timestamp: The moment.
  public init(_ timestamp: RFC3339Timestamp) {
    let seconds = timestamp.secondsSince1970
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    self.init(daysSince1970: Int(days))
  }

  /// Days from 1970-01-01 to this day.
  public var daysSince1970: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The moment this day starts, in UTC.
  public var start: RFC3339Timestamp {
    RFC3339Timestamp(secondsSince1970: Int64(daysSince1970) * 86_400)
  }

  /// The day `days` later (earlier when negative).
  /// - Parameter days: How many days.
  /// - Returns: The date.
  public func adding(days: Int) -> CalendarDate {
    CalendarDate(daysSince1970: daysSince1970 + days)
  }

  /// How many days a month has.
  /// - Parameters:
  ///   - month: 1 to 12.
  ///   - year: The year (for February).
  /// - Returns: 28 to 31 (0 for a month outside 1 to 12).
  public static func length(ofMonth month: Int, year: Int) -> Int {
    switch month {
    case 1, 3, 5, 7, 8, 10, 12: return 31
    case 4, 6, 9, 11: return 30
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    default: return 0
    }
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    func padded(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
  }

  /// Orders days in time.
  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  /// Decodes `YYYY-MM-DD`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` naming the text when it is not a real day.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(parsing: text)
    } catch let error as ServerBeeModelsError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
    }
  }

  /// Encodes `YYYY-MM-DD`.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
