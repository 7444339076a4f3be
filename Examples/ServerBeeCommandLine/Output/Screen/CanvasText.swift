/// A ``Canvas`` as terminal lines: trailing blanks trimmed, and with `colors` each run of
/// cells of one ``Ink`` wrapped in its ANSI SGR code (plain cells carry none).
///
/// ```swift
/// let lines = CanvasText.lines(canvas, colors: console.colors)
/// console.line(lines.joined(separator: "\n"))
/// ```
enum CanvasText {
  /// The canvas's rows as lines of text, without newlines.
  static func lines(_ canvas: Canvas, colors: Bool) -> [String] {
    canvas.rows.map { line($0, colors: colors) }
  }

  /// The SGR parameters of an ink, `nil` for plain.
  static func code(_ ink: Ink) -> String? {
    switch ink {
    case .plain: nil
    case .faint: "2"
    case .heading: "1"
    case .cpu: "36"
    case .memory: "35"
    case .disk: "33"
    case .netIn: "32"
    case .netOut: "34"
    case .good: "32"
    case .warning: "33"
    case .bad: "31"
    }
  }

  private static func line(_ cells: [Canvas.Cell], colors: Bool) -> String {
    let end = (cells.lastIndex { $0.character != " " }).map { $0 + 1 } ?? 0
    var text = ""
    var current: Ink = .plain
    for cell in cells[..<end] {
      guard let character = cell.character else { continue }
      let ink = character == " " ? Ink.plain : cell.ink
      if colors, ink != current {
        if current != .plain { text += "\u{1B}[0m" }
        if let code = code(ink) { text += "\u{1B}[\(code)m" }
        current = ink
      }
      text.append(character)
    }
    if colors, current != .plain { text += "\u{1B}[0m" }
    return text
  }
}
