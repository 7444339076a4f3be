import ServerBeeCore

/// Draws a ``QRCode`` as a 1-bit grayscale PNG file: black modules on white.
///
/// Each module becomes a `scale`×`scale` square, and a white quiet zone (4 modules by default)
/// surrounds the symbol. Tests decode these files with `zbarimg`; the two-factor setup route of
/// the simulator is meant to answer one in base64 (``base64PNG(text:level:)``).
///
/// ```swift
/// let png = try QRPNGRenderer(scale: 8).render(try QRCode(text: payload))
/// try Data(png).write(to: url)
/// ```
package struct QRPNGRenderer: Sendable {
  /// Pixels per module side, 1...32.
  package var scale: Int
  /// White modules around the symbol on every side, 0...16.
  package var quietZone: Int

  /// Creates a renderer; the values are checked when rendering.
  /// - Parameters:
  ///   - scale: Pixels per module side, 1...32; 8 by default.
  ///   - quietZone: White modules around the symbol, 0...16; 4 by default.
  package init(scale: Int = 8, quietZone: Int = 4) {
    self.scale = scale
    self.quietZone = quietZone
  }

  /// The PNG file of `code`.
  /// - Parameter code: The symbol to draw.
  /// - Returns: The file's bytes; the image is `(size + 2·quietZone)·scale` pixels square.
  /// - Throws: ``ServerBeeQRError`` with code `.renderingFailed` for a scale or quiet zone out
  ///   of range, or if zlib fails.
  package func render(_ code: QRCode) throws(ServerBeeQRError) -> [UInt8] {
    guard (1...32).contains(scale), (0...16).contains(quietZone) else {
      throw ServerBeeQRError(
        .renderingFailed,
        "PNG scale must be 1...32 and quiet zone 0...16 (got \(scale) and \(quietZone))")
    }
    let modules = code.size + 2 * quietZone
    let scale = scale
    let quietZone = quietZone
    return try PNGWriter.blackAndWhite(width: modules * scale, height: modules * scale) {
      row, column in
      let symbolRow = row / scale - quietZone
      let symbolColumn = column / scale - quietZone
      guard (0..<code.size).contains(symbolRow), (0..<code.size).contains(symbolColumn) else {
        return false
      }
      return code.isDark(row: symbolRow, column: symbolColumn)
    }
  }
}
