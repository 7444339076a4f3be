/// Draws a ``QRCode`` as terminal text, two module rows per line, with Unicode half blocks.
///
/// Each character stands for one module column and two module rows: `█` (both inked), `▀` (top),
/// `▄` (bottom) or a space. A quiet zone of light modules (4 by default, as ISO/IEC 18004 asks)
/// surrounds the symbol.
///
/// By default the ink (the terminal's text colour) paints the *light* modules and the quiet zone,
/// which reads correctly on the usual light-text-on-dark-background terminal (like
/// `qrencode -t UTF8`). `inverted: true` paints the dark modules instead, for dark text on a light
/// background (like `qrencode -t UTF8i`).
///
/// ```swift
/// let code = try QRCode(text: payload)
/// print(QRTerminalRenderer().render(code))
/// ```
package struct QRTerminalRenderer: Sendable {
  /// Light modules around the symbol on every side.
  package var quietZone: Int
  /// `false`: the ink paints light modules (dark terminals); `true`: it paints dark modules.
  package var inverted: Bool

  /// Creates a renderer.
  /// - Parameters:
  ///   - quietZone: Light modules around the symbol; 4 by default, clamped to 0...16.
  ///   - inverted: Whether the ink paints dark modules (for light-background terminals).
  package init(quietZone: Int = 4, inverted: Bool = false) {
    self.quietZone = min(max(quietZone, 0), 16)
    self.inverted = inverted
  }

  /// The code as lines separated by `\n`, without a trailing newline.
  /// - Parameter code: The symbol to draw.
  /// - Returns: `(size + 2·quietZone + 1) / 2` lines of `size + 2·quietZone` characters.
  package func render(_ code: QRCode) -> String {
    let width = code.size + 2 * quietZone
    var lines: [String] = []
    for top in stride(from: 0, to: width, by: 2) {
      var line = ""
      line.unicodeScalars.reserveCapacity(width)
      for column in 0..<width {
        let upper = isInked(code, row: top, column: column, width: width)
        let lower = isInked(code, row: top + 1, column: column, width: width)
        switch (upper, lower) {
        case (true, true): line.append("█")
        case (true, false): line.append("▀")
        case (false, true): line.append("▄")
        case (false, false): line.append(" ")
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  /// Whether the padded position is painted; rows below the padded square (the spare half of the
  /// last line) are never painted.
  private func isInked(_ code: QRCode, row: Int, column: Int, width: Int) -> Bool {
    guard row < width else { return false }
    let symbolRow = row - quietZone
    let symbolColumn = column - quietZone
    let inside = (0..<code.size).contains(symbolRow) && (0..<code.size).contains(symbolColumn)
    let dark = inside && code.isDark(row: symbolRow, column: symbolColumn)
    return dark == inverted
  }
}
