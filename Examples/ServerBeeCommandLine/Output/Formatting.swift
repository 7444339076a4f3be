import Foundation
import ServerBeeModels

/// Short human-readable numbers for tables.
enum Formatting {
  /// A byte count in binary units: `512 B`, `1.5 KiB`, `3.2 GiB`.
  static func bytes(_ value: Int64) -> String {
    guard value >= 1024 else { return "\(max(value, 0)) B" }
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB"]
    var amount = Double(value) / 1024
    var unit = 0
    while amount >= 1024 && unit < units.count - 1 {
      amount /= 1024
      unit += 1
    }
    return String(format: amount < 10 ? "%.1f" : "%.0f", amount) + " " + units[unit]
  }

  /// A transfer rate: `bytes(value) + "/s"`.
  static func rate(_ value: Int64?) -> String { value.map { bytes($0) + "/s" } ?? "-" }

  /// A percentage with one decimal, or `-` when it is not a number.
  static func percent(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "-" }
    return String(format: "%.1f%%", value)
  }

  /// `used` as a percentage of `total`, or `-` without a total.
  static func share(_ used: Int64?, of total: Int64?) -> String {
    percent(MetricField.usagePercent(used, of: total))
  }

  /// A timestamp as `2026-11-29 13:58:55Z` (seconds, UTC).
  static func time(_ timestamp: RFC3339Timestamp) -> String {
    time(timestamp.date)
  }

  /// A date as `2026-11-29 13:58:55Z` (seconds, UTC).
  static func time(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return String(
      format: "%04d-%02d-%02d %02d:%02d:%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
  }
}

extension Formatting {
  /// A date as RFC 3339 in UTC with seconds (`2026-11-29T13:58:55Z`), for JSON output.
  static func isoTime(_ date: Date) -> String {
    time(date).replacingOccurrences(of: " ", with: "T")
  }
}

extension Formatting {
  /// The first line of `text`, trimmed, cut to `limit` characters with `…` (table cells for
  /// commands and outputs; the JSON output has the whole text).
  static func excerpt(_ text: String, limit: Int = 40) -> String {
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    let more = trimmed.count > limit || text.split(whereSeparator: \.isNewline).count > 1
    guard more else { return trimmed }
    return String(trimmed.prefix(max(limit - 1, 1))) + "…"
  }
}
