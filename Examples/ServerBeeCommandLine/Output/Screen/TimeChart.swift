import Foundation

/// A chart of one or more time series in braille dots (two columns by four rows of dots a
/// cell), with a value axis on the left and a time axis below, drawn on a ``Canvas``.
///
/// Each dot column stands for an equal slice of `start…end`: its value is the mean of the
/// samples in the slice, or, between two samples no further apart than 2.5 times the spacing
/// beside them (judged locally, so minute-apart history next to a live tail seconds apart is
/// still a line), the straight line between them; elsewhere the chart shows a gap (no data is
/// not zero). Consecutive dots are joined vertically so a line stays unbroken.
///
/// ```swift
/// let chart = TimeChart(
///   title: "CPU", scale: .percent, start: from, end: to,
///   series: [.init(ink: .cpu, points: records.map { .init(time: $0.time.date, value: $0.cpu) })])
/// let canvas = chart.draw(width: 80, height: 6)
/// ```
struct TimeChart: Sendable {
  /// One sample.
  struct Point: Sendable, Equatable {
    /// When it was taken.
    var time: Date
    /// The value, `nil` when the sample has none.
    var value: Double?
  }

  /// One line of the chart.
  struct Series: Sendable {
    /// Its colour.
    var ink: Ink
    /// Its samples, in any order.
    var points: [Point]
  }

  /// How values map to the axis.
  enum Scale: Sendable, Equatable {
    /// 0–100 %.
    case percent
    /// Bytes a second, the top rounded up to 1, 2 or 5 of a binary unit.
    case bytesPerSecond
    /// A plain number, the top rounded up to 1, 2 or 5 of a power of ten.
    case number
  }

  /// The heading, drawn above the chart.
  var title: String
  /// Short notes after the title (the current value, the maximum), each in its ink.
  var legend: [(text: String, ink: Ink)] = []
  /// The value axis.
  var scale: Scale
  /// The start of the time axis.
  var start: Date
  /// The end of the time axis.
  var end: Date
  /// The lines, drawn in order (a later one wins a shared cell).
  var series: [Series]

  /// Draws the chart `width` columns wide with `height` rows of dots (at least 2) plus the
  /// title, the time axis and its labels (three more rows).
  func draw(width: Int, height plotHeight: Int) -> Canvas {
    let height = max(2, plotHeight)
    var canvas = Canvas(width: width)
    var column = canvas.write(title, x: 0, y: 0, ink: .heading)
    for note in legend {
      column = canvas.write("  " + note.text, x: column, y: 0, ink: note.ink)
    }
    let top = ceiling()
    let labels = [label(top), label(top / 2), label(0)]
    let labelWidth = labels.map(Canvas.columns(of:)).max() ?? 1
    let plotX = labelWidth + 2
    let plotWidth = max(1, width - plotX)
    for row in 0..<height {
      let y = 1 + row
      let text: String? =
        row == 0 ? labels[0] : row == height - 1 ? labels[2] : row == height / 2 ? labels[1] : nil
      if let text {
        canvas.write(pad(text, labelWidth), x: 0, y: y, ink: .faint)
        canvas.write("┤", x: labelWidth + 1, y: y, ink: .faint)
      } else {
        canvas.write("│", x: labelWidth + 1, y: y, ink: .faint)
      }
    }
    canvas.write(
      "└" + String(repeating: "─", count: plotWidth), x: labelWidth + 1, y: height + 1,
      ink: .faint)
    drawTimeLabels(into: &canvas, x: plotX, width: plotWidth, y: height + 2)
    for series in series {
      plot(series, into: &canvas, x: plotX, y: 1, columns: plotWidth, rows: height, top: top)
    }
    return canvas
  }

  /// The top of the value axis.
  func ceiling() -> Double {
    let highest = series.flatMap(\.points).compactMap(\.value).filter(\.isFinite).max() ?? 0
    switch scale {
    case .percent: return 100
    case .bytesPerSecond:
      var unit = 1.0
      while highest >= unit * 1024 { unit *= 1024 }
      return Self.nice(highest / unit) * unit
    case .number: return Self.nice(highest)
    }
  }

  /// The smallest of 1, 2, 5, 10, 20, … that is at least `value` (1 for nothing).
  static func nice(_ value: Double) -> Double {
    guard value > 0, value.isFinite else { return 1 }
    var step = pow(10, floor(log10(value)))
    while true {
      for factor in [1.0, 2, 5] where factor * step >= value * (1 - 1e-9) {
        return factor * step
      }
      step *= 10
    }
  }

  /// An axis label for `value`.
  func label(_ value: Double) -> String {
    switch scale {
    case .percent: return "\(Int(value.rounded()))%"
    case .bytesPerSecond: return Formatting.bytes(Int64(value.rounded())) + "/s"
    case .number:
      return value == value.rounded() ? String(Int(value)) : String(format: "%.2g", value)
    }
  }

  private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - Canvas.columns(of: text))) + text
  }

  private func drawTimeLabels(into canvas: inout Canvas, x: Int, width: Int, y: Int) {
    let span = end.timeIntervalSince(start)
    let left = timeLabel(start, span: span)
    let right = timeLabel(end, span: span) + " UTC"
    canvas.write(left, x: x, y: y, ink: .faint)
    let rightX = x + width - Canvas.columns(of: right)
    guard rightX > x + Canvas.columns(of: left) + 1 else { return }
    canvas.write(right, x: rightX, y: y, ink: .faint)
    let middle = timeLabel(start.addingTimeInterval(span / 2), span: span)
    let middleX = x + width / 2 - Canvas.columns(of: middle) / 2
    if middleX > x + Canvas.columns(of: left) + 1,
      middleX + Canvas.columns(of: middle) + 1 < rightX
    {
      canvas.write(middle, x: middleX, y: y, ink: .faint)
    }
  }

  /// `HH:mm` for spans up to a day, `MM-dd HH:mm` up to three days, else `MM-dd` (UTC).
  private func timeLabel(_ date: Date, span: TimeInterval) -> String {
    let text = Formatting.time(date)  // 2026-11-29 13:58:55Z
    let day = String(text.dropFirst(5).prefix(5))
    let clock = String(text.dropFirst(11).prefix(5))
    if span <= 86_400 { return clock }
    return span <= 3 * 86_400 ? day + " " + clock : day
  }

  private func plot(
    _ series: Series, into canvas: inout Canvas, x: Int, y: Int, columns: Int, rows: Int,
    top: Double
  ) {
    let dotColumns = columns * 2
    let dotRows = rows * 4
    let values = resample(series.points, into: dotColumns)
    var previous: Int?
    for (column, value) in values.enumerated() {
      guard let value else {
        previous = nil
        continue
      }
      let fraction = top > 0 ? min(max(value / top, 0), 1) : 0
      let level = Int((fraction * Double(dotRows - 1)).rounded())
      let from = previous.map { min($0, level) } ?? level
      let to = previous.map { max($0, level) } ?? level
      for dot in from...to {
        setDot(column: column, level: dot, into: &canvas, x: x, y: y, rows: rows, ink: series.ink)
      }
      previous = level
    }
  }

  /// Lights the dot `column` (left to right) and `level` (bottom up) of the plot.
  private func setDot(
    column: Int, level: Int, into canvas: inout Canvas, x: Int, y: Int, rows: Int, ink: Ink
  ) {
    let cellX = x + column / 2
    let fromTop = rows * 4 - 1 - level
    let cellY = y + fromTop / 4
    let bits: [[UInt32]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
    let bit = bits[column % 2][fromTop % 4]
    guard cellY < canvas.height, cellX < canvas.width else { return }
    let existing = canvas.rows[cellY][cellX].character
    var pattern: UInt32 = 0
    if let scalar = existing?.unicodeScalars.first, (0x2800...0x28FF).contains(scalar.value) {
      pattern = scalar.value - 0x2800
    }
    guard let scalar = Unicode.Scalar(0x2800 + (pattern | bit)) else { return }
    canvas.write(String(Character(scalar)), x: cellX, y: cellY, ink: ink)
  }

  /// One value per dot column: the mean of the samples in its slice of time, else the line
  /// between the samples on either side when they are close enough, else `nil`.
  func resample(_ points: [Point], into count: Int) -> [Double?] {
    let samples = points.compactMap { point in
      point.value.flatMap { $0.isFinite ? (point.time.timeIntervalSince(start), $0) : nil }
    }.sorted { $0.0 < $1.0 }
    let span = end.timeIntervalSince(start)
    guard count > 0, span > 0, !samples.isEmpty else { return Array(repeating: nil, count: count) }
    // spacings[i] is the time from sample i to sample i + 1. What counts as usual is judged
    // from the gaps on either side of a pair, so a minute-apart history beside a live tail
    // seconds apart is a line, not dots, and an hour without samples is still a gap.
    let spacings = zip(samples, samples.dropFirst()).map { $1.0 - $0.0 }
    let sorted = spacings.sorted()
    let typical = sorted.isEmpty ? span : sorted[sorted.count / 2]
    func usual(before: Int, after: Int) -> Double {
      let left = before >= 1 ? spacings[before - 1] : nil
      let right = after < spacings.count ? spacings[after] : nil
      return [left, right].compactMap { $0 }.max() ?? typical
    }
    let slice = span / Double(count)
    var values: [Double?] = Array(repeating: nil, count: count)
    var sums = Array(repeating: (total: 0.0, count: 0), count: count)
    for (offset, value) in samples where offset >= 0 && offset <= span {
      let index = min(count - 1, Int(offset / slice))
      sums[index].total += value
      sums[index].count += 1
    }
    var next = 0
    for index in 0..<count {
      if sums[index].count > 0 {
        values[index] = sums[index].total / Double(sums[index].count)
        continue
      }
      let middle = (Double(index) + 0.5) * slice
      while next < samples.count && samples[next].0 < middle { next += 1 }
      guard next > 0, next < samples.count else { continue }
      let before = samples[next - 1]
      let after = samples[next]
      guard after.0 - before.0 <= usual(before: next - 1, after: next) * 2.5 + slice
      else { continue }
      let weight = (middle - before.0) / (after.0 - before.0)
      values[index] = before.1 + (after.1 - before.1) * weight
    }
    return values
  }
}
