/// A plain-text table with a header, padded columns and right-aligned numbers.
///
/// ```swift
/// var table = TextTable(columns: [.left("NAME"), .right("CPU")])
/// table.append(["web-1", "12.5%"])
/// print(table.render())
/// ```
struct TextTable: Sendable {
  /// A column heading and its alignment.
  struct Column: Sendable, Hashable {
    /// The heading.
    var title: String
    /// Whether cells are right-aligned.
    var alignRight: Bool

    /// A left-aligned column.
    static func left(_ title: String) -> Column { Column(title: title, alignRight: false) }
    /// A right-aligned column.
    static func right(_ title: String) -> Column { Column(title: title, alignRight: true) }
  }

  /// The columns.
  var columns: [Column]
  /// The rows; each has one cell per column (missing cells are empty).
  private(set) var rows: [[String]] = []

  /// Creates an empty table.
  init(columns: [Column]) { self.columns = columns }

  /// Adds a row; cells are made terminal-safe (they often hold names from the server).
  mutating func append(_ cells: [String]) { rows.append(cells.map(TerminalText.safe)) }

  /// The table as lines joined by `\n`, without a trailing newline; no trailing spaces.
  func render() -> String {
    let widths = columns.indices.map { index in
      ([columns[index].title] + rows.map { cell($0, index) }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      let padded = columns.indices.map { index -> String in
        let text = index < cells.count ? cells[index] : ""
        let fill = String(repeating: " ", count: max(0, widths[index] - text.count))
        return columns[index].alignRight ? fill + text : text + fill
      }
      var joined = padded.joined(separator: "  ")
      while joined.last == " " { joined.removeLast() }
      return joined
    }
    return ([line(columns.map(\.title))] + rows.map(line)).joined(separator: "\n")
  }

  private func cell(_ row: [String], _ index: Int) -> String {
    index < row.count ? row[index] : ""
  }
}
