/// Reads the half-block text of `QRTerminalRenderer` back into a grid of inked cells.
struct QRTerminalGrid {
  /// Cells per row.
  let width: Int
  /// Rows: two per line of text.
  let height: Int
  private let inked: [[Bool]]

  /// Parses `text`; `nil` when lines differ in width or contain another character.
  init?(text: String) {
    var rows: [[Bool]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var upper: [Bool] = []
      var lower: [Bool] = []
      for character in line {
        switch character {
        case "█":
          upper.append(true)
          lower.append(true)
        case "▀":
          upper.append(true)
          lower.append(false)
        case "▄":
          upper.append(false)
          lower.append(true)
        case " ":
          upper.append(false)
          lower.append(false)
        default: return nil
        }
      }
      rows += [upper, lower]
    }
    guard let first = rows.first, rows.allSatisfy({ $0.count == first.count }) else { return nil }
    width = first.count
    height = rows.count
    inked = rows
  }

  /// Whether the cell is painted with the terminal's ink.
  func isInked(row: Int, column: Int) -> Bool { inked[row][column] }
}
