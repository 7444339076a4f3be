/// The square grid of modules of one symbol while it is being built.
///
/// It remembers which modules belong to function patterns (finders, separators, timing,
/// alignment, format and version information) so data placement and masking skip them.
/// Rows and columns count from the top-left corner, starting at 0.
struct QRMatrix: Sendable, Equatable {
  /// The side length in modules.
  let size: Int
  /// Dark (`true`) or light modules, row by row.
  private(set) var modules: [Bool]
  /// Whether each module belongs to a function pattern, row by row.
  private(set) var isFunction: [Bool]

  /// An all-light matrix with the function patterns of `version` drawn and the format and version
  /// areas reserved.
  init(version: Int) {
    size = QRTables.size(version: version)
    modules = [Bool](repeating: false, count: size * size)
    isFunction = modules
    drawTimingPatterns()
    drawFinderPattern(row: 3, column: 3)
    drawFinderPattern(row: 3, column: size - 4)
    drawFinderPattern(row: size - 4, column: 3)
    drawAlignmentPatterns(version: version)
    // Reserve the format areas now; the real bits are drawn once the mask is known.
    drawFormatInformation(bits: 0)
    if version >= 7 { drawVersionInformation(version: version) }
  }

  /// Whether the module at `row`, `column` is dark.
  subscript(row row: Int, column column: Int) -> Bool {
    modules[row * size + column]
  }

  /// Whether the module at `row`, `column` belongs to a function pattern.
  func isFunctionModule(row: Int, column: Int) -> Bool {
    isFunction[row * size + column]
  }

  /// Sets a data module (not a function module).
  mutating func setData(row: Int, column: Int, dark: Bool) {
    modules[row * size + column] = dark
  }

  /// Flips every data module the mask selects. Applying the same mask twice undoes it.
  mutating func apply(_ mask: QRMask) {
    for row in 0..<size {
      for column in 0..<size where !isFunction[row * size + column] {
        if mask.flips(row: row, column: column) { modules[row * size + column].toggle() }
      }
    }
  }

  /// Draws the 15 format bits (level and mask, BCH-coded and masked) in both copies, plus the
  /// dark module beside the bottom-left copy.
  mutating func drawFormatInformation(bits: Int) {
    func bit(_ index: Int) -> Bool { (bits >> index) & 1 != 0 }
    for index in 0...5 { setFunction(row: index, column: 8, dark: bit(index)) }
    setFunction(row: 7, column: 8, dark: bit(6))
    setFunction(row: 8, column: 8, dark: bit(7))
    setFunction(row: 8, column: 7, dark: bit(8))
    for index in 9...14 { setFunction(row: 8, column: 14 - index, dark: bit(index)) }
    for index in 0...7 { setFunction(row: 8, column: size - 1 - index, dark: bit(index)) }
    for index in 8...14 { setFunction(row: size - 15 + index, column: 8, dark: bit(index)) }
    setFunction(row: size - 8, column: 8, dark: true)
  }

  private mutating func setFunction(row: Int, column: Int, dark: Bool) {
    modules[row * size + column] = dark
    isFunction[row * size + column] = true
  }

  private mutating func drawTimingPatterns() {
    for index in 0..<size {
      setFunction(row: 6, column: index, dark: index % 2 == 0)
      setFunction(row: index, column: 6, dark: index % 2 == 0)
    }
  }

  /// A 7×7 finder centred on `row`, `column` with its one-module light separator (clipped at
  /// the symbol's edge).
  private mutating func drawFinderPattern(row: Int, column: Int) {
    for rowOffset in -4...4 {
      for columnOffset in -4...4 {
        let targetRow = row + rowOffset
        let targetColumn = column + columnOffset
        guard (0..<size).contains(targetRow), (0..<size).contains(targetColumn) else { continue }
        let ring = max(abs(rowOffset), abs(columnOffset))
        setFunction(row: targetRow, column: targetColumn, dark: ring != 2 && ring != 4)
      }
    }
  }

  /// 5×5 alignment patterns at every pair of centres except the three finder corners.
  private mutating func drawAlignmentPatterns(version: Int) {
    let centres = QRTables.alignmentPatternCentres[version - 1]
    guard let last = centres.last else { return }
    for row in centres {
      for column in centres {
        let onFinder =
          (row == 6 && column == 6) || (row == 6 && column == last)
          || (row == last && column == 6)
        if onFinder { continue }
        for rowOffset in -2...2 {
          for columnOffset in -2...2 {
            let ring = max(abs(rowOffset), abs(columnOffset))
            setFunction(row: row + rowOffset, column: column + columnOffset, dark: ring != 1)
          }
        }
      }
    }
  }

  /// The 18 version bits in the 6×3 block above the bottom-left finder and its transpose left of
  /// the top-right finder.
  private mutating func drawVersionInformation(version: Int) {
    let bits = QRFormat.versionBits(version: version)
    for index in 0..<18 {
      let dark = (bits >> index) & 1 != 0
      let near = index / 3
      let far = size - 11 + index % 3
      setFunction(row: far, column: near, dark: dark)
      setFunction(row: near, column: far, dark: dark)
    }
  }
}
