import Testing

@testable import ServerBeeQR

@Suite struct QRMatrixTests {
  private static func code(version: Int, level: QRErrorCorrectionLevel = .medium) throws -> QRCode {
    let length = QRCode.maximumPayloadLength(level: level, version: version)
    return try QRCode(bytes: QRTestPayloads.ascii(count: length), level: level)
  }

  @Test(arguments: [1, 2, 7, 40])
  func finderPatternsSitInThreeCornersWithLightSeparators(version: Int) throws {
    let code = try Self.code(version: version)
    let last = code.size - 1
    for (top, left) in [(0, 0), (0, last - 6), (last - 6, 0)] {
      for row in 0..<7 {
        for column in 0..<7 {
          let ring = max(abs(row - 3), abs(column - 3))
          #expect(code.isDark(row: top + row, column: left + column) == (ring != 2))
        }
      }
    }
    for index in 0..<8 {
      #expect(!code.isDark(row: 7, column: index))  // below the top-left finder
      #expect(!code.isDark(row: index, column: 7))
      #expect(!code.isDark(row: 7, column: last - index))  // below the top-right finder
      #expect(!code.isDark(row: last - 7, column: index))  // above the bottom-left finder
    }
    // Nothing like a finder in the bottom-right corner.
    #expect(
      !(0..<7).allSatisfy { code.isDark(row: last, column: last - $0) }
        || !(0..<7).allSatisfy { code.isDark(row: last - 6, column: last - $0) })
  }

  @Test(arguments: [1, 5, 21, 40])
  func timingPatternsAlternateBetweenTheFinders(version: Int) throws {
    let code = try Self.code(version: version)
    for index in 8..<(code.size - 8) {
      #expect(code.isDark(row: 6, column: index) == (index % 2 == 0))
      #expect(code.isDark(row: index, column: 6) == (index % 2 == 0))
    }
  }

  @Test(arguments: 1...40)
  func darkModuleIsAboveTheBottomLeftFormatCopy(version: Int) {
    let matrix = QRMatrix(version: version)
    #expect(matrix[row: 4 * version + 9, column: 8])
    #expect(matrix.isFunctionModule(row: 4 * version + 9, column: 8))
  }

  @Test(arguments: 1...40)
  func dataModulesHoldTheCodewordsPlusRemainderBits(version: Int) {
    // Remainder bits per version range, ISO/IEC 18004 Table 1.
    let remainder: Int =
      switch version {
      case 2...6: 7
      case 14...20, 28...34: 3
      case 21...27: 4
      default: 0
      }
    let matrix = QRMatrix(version: version)
    var dataModules = 0
    for row in 0..<matrix.size {
      for column in 0..<matrix.size where !matrix.isFunctionModule(row: row, column: column) {
        dataModules += 1
      }
    }
    #expect(dataModules == QRTables.totalCodewords(version: version) * 8 + remainder)
  }

  @Test(arguments: 2...40)
  func alignmentCentresFollowTheSpacingRule(version: Int) {
    // Annex E's rule: 6 first, size − 7 last, the others evenly spaced by an even step counted
    // back from the last; the first gap takes what is left over (version 32 uses 26).
    let size = 17 + 4 * version
    let count = version / 7 + 2
    let step =
      version == 32 ? 26 : Int((Double(size - 13) / Double(count - 1) / 2).rounded(.up)) * 2
    let expected = [6] + (0..<(count - 1)).reversed().map { size - 7 - $0 * step }
    #expect(QRTables.alignmentPatternCentres[version - 1] == expected)
  }

  @Test(arguments: [2, 7, 40])
  func alignmentPatternsAreDrawnAwayFromTheFinders(version: Int) throws {
    let code = try Self.code(version: version)
    let centres = QRTables.alignmentPatternCentres[version - 1]
    for row in centres {
      for column in centres {
        let finderCorner = (row == 6 && column == 6) || (row == 6 && column == centres.last)
        if finderCorner || (row == centres.last && column == 6) { continue }
        for offset in [(0, 0), (-2, -2), (2, 2), (-2, 0), (0, 2)] {
          #expect(code.isDark(row: row + offset.0, column: column + offset.1))
        }
        for offset in [(-1, -1), (1, 1), (-1, 0), (0, 1)] {
          #expect(!code.isDark(row: row + offset.0, column: column + offset.1))
        }
      }
    }
  }

  @Test(arguments: QRErrorCorrectionLevel.allCases)
  func bothFormatCopiesCarryTheLevelAndMask(level: QRErrorCorrectionLevel) throws {
    for mask in QRMask.allCases {
      let code = try QRCode(text: "format", level: level, mask: mask)
      let size = code.size
      // Copy 1 around the top-left finder: bit 14 at row 8 column 0 … bit 0 at row 0 column 8.
      let first: [(Int, Int)] =
        (0...5).map { ($0, 8) } + [(7, 8), (8, 8), (8, 7)] + (9...14).map { (8, 14 - $0) }
      // Copy 2: bits 0…7 right to left along row 8, bits 8…14 down column 8.
      let second: [(Int, Int)] =
        (0...7).map { (8, size - 1 - $0) } + (8...14).map { (size - 15 + $0, 8) }
      let expected = QRFormat.formatBits(level: level, mask: mask)
      for positions in [first, second] {
        var bits = 0
        for (index, position) in positions.enumerated()
        where code.isDark(row: position.0, column: position.1) {
          bits |= 1 << index
        }
        #expect(bits == expected, "\(level) \(mask)")
      }
    }
  }

  @Test func versionInformationIsDrawnFromVersion7() throws {
    let code = try Self.code(version: 7)
    let bits = QRFormat.versionBits(version: 7)
    for index in 0..<18 {
      let dark = (bits >> index) & 1 != 0
      #expect(code.isDark(row: code.size - 11 + index % 3, column: index / 3) == dark)
      #expect(code.isDark(row: index / 3, column: code.size - 11 + index % 3) == dark)
    }
    let six = QRMatrix(version: 6)
    #expect(!six.isFunctionModule(row: six.size - 11, column: 0))
  }
}
