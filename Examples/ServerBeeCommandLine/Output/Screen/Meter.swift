import ServerBeeModels

/// Small drawings shared by the screens: a filled bar and the uptime strip.
enum Meter {
  /// A bar `width` cells wide filled to `fraction` (0…1), in eighths of a cell:
  /// `bar(0.3, width: 10)` is `"███▏      "`. A fraction outside 0…1 is clamped; `nil` draws
  /// an empty bar.
  static func bar(_ fraction: Double?, width: Int) -> String {
    let cells = max(0, width)
    guard let fraction, fraction.isFinite else { return String(repeating: " ", count: cells) }
    let eighths = Int((min(max(fraction, 0), 1) * Double(cells * 8)).rounded())
    let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
    let full = String(repeating: "█", count: eighths / 8)
    let drawn = full + partial
    return drawn + String(repeating: " ", count: max(0, cells - drawn.count))
  }

  /// The ink of a usage share: warning from 80 %, bad from 95 %.
  static func ink(forShare fraction: Double?, normal: Ink) -> Ink {
    guard let fraction else { return normal }
    return fraction >= 0.95 ? .bad : fraction >= 0.8 ? .warning : normal
  }

  /// One mark for a day of uptime: `█` all day, `▆` at least 99 %, `▃` less, `·` no data.
  static func uptimeMark(_ day: UptimeDay) -> (mark: String, ink: Ink) {
    guard let availability = day.availability else { return ("·", .faint) }
    if availability >= 1 { return ("█", .good) }
    return availability >= 0.99 ? ("▆", .warning) : ("▃", .bad)
  }

  /// The legend of ``uptimeMark(_:)``.
  static let uptimeLegend = "█ all day  ▆ ≥ 99 %  ▃ less  · no data"
}
