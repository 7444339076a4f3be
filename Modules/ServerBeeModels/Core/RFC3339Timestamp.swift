#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// An instant written as RFC 3339 text, exact to the nanosecond.
///
/// ServerBee servers write times in two forms (Protocol/README.md §7):
/// `2026-03-28T10:15:30.123456789Z` and `2026-03-28T10:15:30.123456789+00:00`, with 0, 3, 6 or 9
/// fraction digits. `Date` cannot hold nine digits exactly, so this type keeps whole seconds and
/// nanoseconds, remembers which form it was read in, and writes the same form back (the fraction
/// shortened to the fewest of 0/3/6/9 digits that are exact). Alert keys embed such strings, so the
/// round trip must be exact.
///
/// ```swift
/// let t = try RFC3339Timestamp(parsing: "2026-03-28T10:15:30.5+02:00")
/// t.formatted(.utcOffset) // "2026-03-28T08:15:30.500+00:00"
/// t.formatted(.zulu)      // "2026-03-28T08:15:30.500Z"
/// t.date                  // a Foundation Date (sub-microsecond precision may round)
/// ```
///
/// Equality and ordering compare the instant only, not the form.
public struct RFC3339Timestamp: Hashable, Comparable, Sendable, Codable,
  CustomStringConvertible
{
  /// Which of the two server forms to write.
  public enum Style: Sendable, Hashable {
    /// `…Z`.
    case zulu
    /// `…+00:00`.
    case utcOffset
  }

  /// Whole seconds since 1970-01-01T00:00:00Z (negative before it).
  public let secondsSince1970: Int64
  /// Nanoseconds past ``secondsSince1970``, `0..<1_000_000_000`.
  public let nanoseconds: Int32
  /// The form this value is written in by ``description`` and `encode(to:)`.
  public var style: Style

  /// Creates a timestamp from its parts.
  /// - Parameters:
  ///   - secondsSince1970: Whole Unix seconds.
  ///   - nanoseconds: Nanoseconds past the second; values outside `0..<1e9` are carried over.
  ///   - style: The form to write.
  public init(secondsSince1970: Int64, nanoseconds: Int32 = 0, style: Style = .zulu) {
    let carry = Int64(nanoseconds).quotientAndRemainder(dividingBy: 1_000_000_000)
    var seconds = secondsSince1970 + carry.quotient
    var nanos = carry.remainder
    if nanos < 0 {
      nanos += 1_000_000_000
      seconds -= 1
    }
    self.secondsSince1970 = seconds
    self.nanoseconds = Int32(nanos)
    self.style = style
  }

  /// Creates a timestamp from a `Date`, rounded to the microsecond (what a `Double` holds
  /// reliably for present-day dates).
  /// - Parameters:
  ///   - date: The instant.
  ///   - style: The form to write.
  public init(_ date: Date, style: Style = .zulu) {
    let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
    let split = Int64(micros).quotientAndRemainder(dividingBy: 1_000_000)
    self.init(
      secondsSince1970: split.quotient, nanoseconds: Int32(split.remainder * 1_000), style: style)
  }

  /// Parses RFC 3339 text: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1 to 9 digits, then
  /// `Z`/`z` or `±HH:MM`. A lowercase `t` or a space between date and time is accepted too.
  /// Offsets are converted to UTC; a `Z` input keeps the ``Style/zulu`` style, an offset input
  /// the ``Style/utcOffset`` style.
  /// - Parameter text: The text to parse (at most 64 bytes).
  /// - Throws: ``ServerBeeModelsError`` with code `invalidTimestamp`.
  public init(parsing text: String) throws {
    guard let parsed = RFC3339Parser.parse(Array(text.utf8)) else {
      throw ServerBeeModelsError(
        .invalidTimestamp, "not an RFC 3339 timestamp: \"\(text.prefix(64))\"")
    }
    self = parsed
  }

  /// The instant as a `Date` (nanoseconds beyond a `Double`'s precision are rounded).
  public var date: Date {
    Date(timeIntervalSince1970: Double(secondsSince1970) + Double(nanoseconds) / 1e9)
  }

  /// The text in the given form, with the shortest exact fraction of 0, 3, 6 or 9 digits.
  /// - Parameter style: `Z` or `+00:00`.
  /// - Returns: For example `2026-03-28T10:15:30.123Z`.
  public func formatted(_ style: Style) -> String {
    RFC3339Parser.format(self, style: style)
  }

  /// The text in this value's own ``style``.
  public var description: String { formatted(style) }

  /// Decodes RFC 3339 text.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let parsed = RFC3339Parser.parse(Array(text.utf8)) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not an RFC 3339 timestamp: \"\(text.prefix(64))\"")
    }
    self = parsed
  }

  /// Encodes the text in this value's ``style``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Compares instants.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
  }

  /// Compares instants, ignoring ``style``.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.secondsSince1970 == rhs.secondsSince1970 && lhs.nanoseconds == rhs.nanoseconds
  }

  /// Hashes the instant, ignoring ``style``.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(secondsSince1970)
    hasher.combine(nanoseconds)
  }
}
