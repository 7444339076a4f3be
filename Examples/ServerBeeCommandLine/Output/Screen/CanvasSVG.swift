/// A ``Canvas`` as an SVG picture: one `<text>` per row in a monospaced font on a dark
/// background, each run of one ``Ink`` a `<tspan>` with its colour. The README's screenshots
/// are made this way (`serverbee server SERVER --svg`), from the same drawing as the terminal.
///
/// ```swift
/// let svg = CanvasSVG.document(canvas)
/// try svg.write(toFile: "screen.svg", atomically: true, encoding: .utf8)
/// ```
enum CanvasSVG {
  /// The width of a column and the height of a row, in SVG units, for a 14-unit font.
  static let cell = (width: 8.4, height: 18.0)
  /// The margin around the text.
  static let margin = 12.0

  /// The whole SVG document, ending with a newline.
  static func document(_ canvas: Canvas) -> String {
    let width = Double(canvas.width) * cell.width + 2 * margin
    let height = Double(max(canvas.height, 1)) * cell.height + 2 * margin
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(number(width))" height="\(number(height))" \
      viewBox="0 0 \(number(width)) \(number(height))">
      <rect width="100%" height="100%" rx="6" fill="#1d1f21"/>
      <g font-family="ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace" \
      font-size="14" fill="#d8dee9" xml:space="preserve">

      """
    for (index, row) in canvas.rows.enumerated() {
      let runs = self.runs(row)
      guard !runs.isEmpty else { continue }
      let y = margin + Double(index) * cell.height + cell.height * 0.75
      svg += "<text y=\"\(number(y))\">"
      for run in runs {
        let x = margin + Double(run.column) * cell.width
        let fill = color(run.ink).map { " fill=\"\($0)\"" } ?? ""
        let weight = run.ink == .heading ? " font-weight=\"bold\"" : ""
        svg += "<tspan x=\"\(number(x))\"\(fill)\(weight)>\(escape(run.text))</tspan>"
      }
      svg += "</text>\n"
    }
    return svg + "</g>\n</svg>\n"
  }

  /// The fill of an ink, `nil` for the default text colour.
  static func color(_ ink: Ink) -> String? {
    switch ink {
    case .plain: nil
    case .faint: "#7f848e"
    case .heading: "#ffffff"
    case .cpu: "#56b6c2"
    case .memory: "#c678dd"
    case .disk: "#e5c07b"
    case .netIn: "#98c379"
    case .netOut: "#61afef"
    case .good: "#98c379"
    case .warning: "#e5c07b"
    case .bad: "#e06c75"
    }
  }

  /// A run of cells of one ink, starting at a column; two blanks or a wide character end a
  /// run, so columns stay aligned whatever the font's width of a wide character.
  private struct Run {
    var column: Int
    var ink: Ink
    var text: String
  }

  private static func runs(_ row: [Canvas.Cell]) -> [Run] {
    var runs: [Run] = []
    var open: Run?
    var blanks = 0
    for (column, cell) in row.enumerated() {
      guard let character = cell.character else { continue }
      if character == " " {
        blanks += 1
        continue
      }
      defer { blanks = 0 }
      // A single blank between two cells of one ink stays inside the run (words of a
      // sentence); more blanks, or another ink, start a new run at its own column.
      if var run = open, run.ink == cell.ink, blanks <= 1, Canvas.columns(of: character) == 1 {
        run.text += String(repeating: " ", count: blanks)
        run.text.append(character)
        open = run
      } else {
        if let run = open { runs.append(run) }
        open = Run(column: column, ink: cell.ink, text: String(character))
        if Canvas.columns(of: character) == 2 {
          runs.append(Run(column: column, ink: cell.ink, text: String(character)))
          open = nil
        }
      }
    }
    if let run = open { runs.append(run) }
    return runs
  }

  private static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }

  private static func number(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
