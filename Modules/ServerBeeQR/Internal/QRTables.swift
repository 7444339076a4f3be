/// The per-version constants of ISO/IEC 18004:2015 that are not worth computing.
///
/// Indexes are `version - 1` for versions 1...40, and the level order is the one of
/// ``QRErrorCorrectionLevel/tableIndex`` (L, M, Q, H).
enum QRTables {
  /// Error-correction codewords per block (ISO/IEC 18004 Table 9), per level then version.
  static let errorCorrectionCodewordsPerBlock: [[Int]] = [
    [
      7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
      28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
    [
      10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
      26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ],
    [
      13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
      28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
    [
      17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
      30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
  ]

  /// Number of error-correction blocks (ISO/IEC 18004 Table 9), per level then version.
  static let blockCount: [[Int]] = [
    [
      1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
      8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
    ],
    [
      1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
      17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ],
    [
      1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
      23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
    ],
    [
      1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
      25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
    ],
  ]

  /// Row/column centres of the alignment patterns (ISO/IEC 18004 Annex E), per version.
  static let alignmentPatternCentres: [[Int]] = [
    [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
    [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62],
    [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82],
    [6, 30, 58, 86], [6, 34, 62, 90],
    [6, 28, 50, 72, 94], [6, 26, 50, 74, 98], [6, 30, 54, 78, 102], [6, 28, 54, 80, 106],
    [6, 32, 58, 84, 110], [6, 30, 58, 86, 114], [6, 34, 62, 90, 118],
    [6, 26, 50, 74, 98, 122], [6, 30, 54, 78, 102, 126], [6, 26, 52, 78, 104, 130],
    [6, 30, 56, 82, 108, 134], [6, 34, 60, 86, 112, 138], [6, 30, 58, 86, 114, 142],
    [6, 34, 62, 90, 118, 146],
    [6, 30, 54, 78, 102, 126, 150], [6, 24, 50, 76, 102, 128, 154],
    [6, 28, 54, 80, 106, 132, 158], [6, 32, 58, 84, 110, 136, 162],
    [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170],
  ]

  /// The smallest and largest symbol versions.
  static let versions = 1...40

  /// The side length in modules of a symbol of `version`.
  static func size(version: Int) -> Int { 17 + 4 * version }

  /// Codewords (data plus error correction) a symbol of `version` holds: the modules left once
  /// finder, separator, timing, alignment, format and version areas are taken, divided by 8
  /// (the remainder bits are padding).
  static func totalCodewords(version: Int) -> Int {
    let size = size(version: version)
    var modules = size * size
    modules -= 3 * 64  // three finders with their separators
    modules -= 2 * (size - 16)  // two timing patterns between the separators
    modules -= 31  // two copies of the 15 format bits and the dark module
    let centres = alignmentPatternCentres[version - 1].count
    if centres > 0 {
      let patterns = centres * centres - 3
      modules -= patterns * 25
      // The patterns on row 6 and column 6 overlap the timing patterns by 5 modules each.
      modules += 2 * (centres - 2) * 5
    }
    if version >= 7 { modules -= 2 * 18 }
    return modules / 8
  }
}
