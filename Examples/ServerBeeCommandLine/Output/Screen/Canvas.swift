/// What a cell of a ``Canvas`` means. The backends choose how it looks: an ANSI colour on a
/// terminal (``CanvasText``), a fill in SVG (``CanvasSVG``), nothing at all without colour.
enum Ink: Sendable, Hashable, CaseIterable {
  /// Ordinary text.
  case plain
  /// Axes, legends, secondary text.
  case faint
  /// Titles.
  case heading
  /// The CPU series.
  case cpu
  /// The memory series.
  case memory
  /// The disk series.
  case disk
  /// Received traffic.
  case netIn
  /// Sent traffic.
  case netOut
  /// A healthy state (online, fully up).
  case good
  /// Something to look at (a partial day, a high reading).
  case warning
  /// Something wrong (offline, a failing check).
  case bad
}

/// A grid of character cells, each with an ``Ink``: what the screens draw on, so the same
/// drawing becomes terminal text or an SVG picture.
///
/// Columns are display columns: a wide character (CJK, most emoji) takes two, and text that
/// does not fit is cut at the right edge. Text from a server must go through
/// `TerminalText.safe` first; ``write(_:x:y:ink:)`` also replaces any control character it
/// still finds.
///
/// ```swift
/// var canvas = Canvas(width: 20)
/// canvas.write("CPU", x: 0, y: 0, ink: .heading)
/// canvas.write("12 %", x: 4, y: 0, ink: .cpu)
/// CanvasText.lines(canvas, colors: false)  // ["CPU 12 %"]
/// ```
struct Canvas: Sendable, Equatable {
  /// One cell.
  struct Cell: Sendable, Equatable {
    /// The character, or `nil` for the right half of a wide character.
    var character: Character?
    /// Its meaning.
    var ink: Ink
  }

  /// The width in columns.
  let width: Int
  /// The rows drawn so far, each `width` cells long.
  private(set) var rows: [[Cell]] = []

  /// An empty canvas `width` columns wide (at least 1).
  init(width: Int) {
    self.width = max(1, width)
  }

  /// The number of rows.
  var height: Int { rows.count }

  /// Writes `text` from column `x` of row `y`, growing the canvas downwards as needed and
  /// cutting what passes the right edge (a wide character that would straddle it is left out).
  /// - Returns: The column after the last one written.
  @discardableResult
  mutating func write(_ text: String, x: Int, y: Int, ink: Ink = .plain) -> Int {
    guard y >= 0, x >= 0 else { return x }
    grow(to: y + 1)
    var column = x
    for character in text {
      let visible = Self.printable(character)
      let span = Self.columns(of: visible)
      guard column + span <= width else { break }
      rows[y][column] = Cell(character: visible, ink: ink)
      if span == 2 { rows[y][column + 1] = Cell(character: nil, ink: ink) }
      column += span
    }
    return column
  }

  /// Sets one cell's ink, leaving its character (used to colour what is already drawn).
  mutating func paint(x: Int, y: Int, ink: Ink) {
    guard y >= 0, y < rows.count, x >= 0, x < width else { return }
    rows[y][x].ink = ink
  }

  /// Appends `count` empty rows.
  mutating func skip(_ count: Int = 1) { grow(to: rows.count + max(0, count)) }

  /// Draws `other` with its top-left corner at (`x`, `y`), cut at the right edge.
  mutating func place(_ other: Canvas, x: Int, y: Int) {
    grow(to: y + other.height)
    for (row, cells) in other.rows.enumerated() {
      for (column, cell) in cells.enumerated() where x + column < width {
        guard cell.character != " " || cell.ink != .plain else { continue }
        rows[y + row][x + column] = cell
      }
    }
  }

  /// The number of display columns `text` takes (wide characters count two).
  static func columns(of text: String) -> Int {
    text.reduce(0) { $0 + columns(of: $1) }
  }

  /// Two for an East Asian wide or full-width character and most emoji, else one.
  static func columns(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 1 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  /// `character`, or `?` for a control character or a bidirectional override.
  private static func printable(_ character: Character) -> Character {
    for scalar in character.unicodeScalars {
      switch scalar.value {
      case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
        return "?"
      default: continue
      }
    }
    return character
  }

  private mutating func grow(to count: Int) {
    while rows.count < count {
      rows.append(Array(repeating: Cell(character: " ", ink: .plain), count: width))
    }
  }
}
