import ServerBeeCore
import Testing

@testable import ServerBeeQR

@Suite struct QRCodeTests {
  /// Byte-mode capacities of ISO/IEC 18004 Table 7 at a few versions, including both sides of
  /// the switch from an 8-bit to a 16-bit character count (versions 9 and 10).
  static let capacities: [(QRErrorCorrectionLevel, Int, Int)] = [
    (.low, 1, 17), (.medium, 1, 14), (.quartile, 1, 11), (.high, 1, 7),
    (.low, 2, 32), (.medium, 2, 26), (.quartile, 2, 20), (.high, 2, 14),
    (.low, 7, 154), (.medium, 7, 122), (.quartile, 7, 86), (.high, 7, 64),
    (.low, 9, 230), (.medium, 9, 180), (.quartile, 9, 130), (.high, 9, 98),
    (.low, 10, 271), (.medium, 10, 213), (.quartile, 10, 151), (.high, 10, 119),
    (.low, 40, 2953), (.medium, 40, 2331), (.quartile, 40, 1663), (.high, 40, 1273),
  ]

  @Test(arguments: capacities)
  func smallestVersionIsChosenAtCapacityBoundaries(
    level: QRErrorCorrectionLevel, version: Int, capacity: Int
  ) throws {
    #expect(QRCode.maximumPayloadLength(level: level, version: version) == capacity)
    let full = try QRCode(bytes: QRTestPayloads.ascii(count: capacity), level: level)
    #expect(full.version == version)
    #expect(full.size == 17 + 4 * version)
    if version < 40 {
      let over = try QRCode(bytes: QRTestPayloads.ascii(count: capacity + 1), level: level)
      #expect(over.version == version + 1)
    }
  }

  @Test func pairingPayloadUsesVersion8AtLevelM() throws {
    // 124 bytes: one more than 7-M holds (122).
    let code = try QRCode(text: QRTestPayloads.pairing)
    #expect(QRTestPayloads.pairing.utf8.count == 124)
    #expect(code.level == .medium)
    #expect(code.version == 8)
  }

  @Test(arguments: [(QRErrorCorrectionLevel.low, 2953), (.high, 1273)])
  func tooLargePayloadThrowsWithoutEchoingIt(level: QRErrorCorrectionLevel, limit: Int) throws {
    let payload = QRTestPayloads.ascii(count: limit + 1)
    let error = try #require(throws: ServerBeeQRError.self) {
      try QRCode(bytes: payload, level: level)
    }
    #expect(error.code == .payloadTooLarge)
    #expect(error.message.contains("\(limit)"))
    #expect(!error.message.contains(String(decoding: payload.prefix(16), as: UTF8.self)))
  }

  @Test func dataCodewordsFollowTheByteModeLayout() {
    // 0100 | 00000010 | 'H' 01001000 | 'i' 01101001 | terminator 0000, then 0xEC 0x11 padding.
    let codewords = QRCode.dataCodewords(for: Array("Hi".utf8), version: 1, level: .medium)
    #expect(
      codewords == [
        0x40, 0x24, 0x86, 0x90, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
        0x11,
      ])
  }

  @Test func characterCountIsSixteenBitsFromVersion10() {
    let bytes = QRTestPayloads.ascii(count: 3)
    let codewords = QRCode.dataCodewords(for: bytes, version: 10, level: .medium)
    // 0100 | 0000000000000011 | first byte…
    #expect(Array(codewords.prefix(3)) == [0x40, 0x00, 0x30 | bytes[0] >> 4])
  }

  @Test(arguments: [
    (1, 26), (2, 44), (3, 70), (6, 172), (7, 196), (10, 346), (14, 581), (40, 3706),
  ])
  func totalCodewordsMatchTheStandard(version: Int, total: Int) {
    #expect(QRTables.totalCodewords(version: version) == total)
  }

  @Test func dataCodewordCountsMatchTheStandard() {
    #expect(QRCode.dataCodewordCount(version: 1, level: .medium) == 16)
    #expect(QRCode.dataCodewordCount(version: 5, level: .quartile) == 62)
    #expect(QRCode.dataCodewordCount(version: 40, level: .high) == 1276)
    #expect(QRCode.dataCodewordCount(version: 40, level: .low) == 2956)
  }

  @Test func blocksAreInterleavedShortestFirst() {
    // 5-Q: 62 data codewords in blocks of 15, 15, 16, 16, with 18 check codewords each.
    let data = (0..<62).map { UInt8($0) }
    let final = QRCode.finalCodewords(dataCodewords: data, version: 5, level: .quartile)
    #expect(final.count == 134)
    #expect(Array(final.prefix(8)) == [0, 15, 30, 46, 1, 16, 31, 47])
    #expect(Array(final[56..<62]) == [14, 29, 44, 60, 45, 61])
    let blockCorrection = [
      ReedSolomon.errorCorrection(for: Array(data[0..<15]), count: 18),
      ReedSolomon.errorCorrection(for: Array(data[15..<30]), count: 18),
      ReedSolomon.errorCorrection(for: Array(data[30..<46]), count: 18),
      ReedSolomon.errorCorrection(for: Array(data[46..<62]), count: 18),
    ]
    #expect(Array(final[62..<66]) == blockCorrection.map { $0[0] })
    #expect(Array(final[130..<134]) == blockCorrection.map { $0[17] })
  }

  @Test func everyVersionAndLevelHasConsistentBlocks() {
    for version in 1...40 {
      for level in QRErrorCorrectionLevel.allCases {
        let blocks = QRTables.blockCount[level.tableIndex][version - 1]
        let data = QRCode.dataCodewordCount(version: version, level: level)
        let perBlock = QRTables.errorCorrectionCodewordsPerBlock[level.tableIndex][version - 1]
        // At most two block lengths, differing by one, and each within 255 codewords.
        #expect(data / blocks + perBlock + 1 <= 255, "\(version)-\(level)")
        #expect(data > 0, "\(version)-\(level)")
      }
    }
  }

  @Test func forcedMaskIsUsedAndDefaultMaskHasTheLowestPenalty() throws {
    let payload = Array(QRTestPayloads.pairing.utf8)
    let chosen = try QRCode(bytes: payload)
    var penalties: [Int] = []
    for mask in QRMask.allCases {
      let forced = try QRCode(bytes: payload, mask: mask)
      #expect(forced.mask == mask)
      penalties.append(forced.matrix.penalty)
    }
    #expect(chosen.matrix.penalty == penalties.min())
    #expect(penalties[chosen.mask.rawValue] == penalties.min())
  }

  @Test func maskReferencesOutsideZeroToSevenAreRejected() {
    #expect(QRMask(rawValue: -1) == nil)
    #expect(QRMask(rawValue: 8) == nil)
    #expect(QRMask.allCases.map(\.rawValue) == Array(0...7))
  }
}
