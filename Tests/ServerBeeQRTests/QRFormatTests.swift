import Testing

@testable import ServerBeeQR

@Suite struct QRFormatTests {
  /// Format information after masking with 0x5412, from ISO/IEC 18004 Annex C (Table C.1).
  @Test(arguments: [
    (QRErrorCorrectionLevel.low, 0, 0b111_0111_1100_0100),
    (.low, 4, 0b110_0110_0010_1111),
    (.low, 7, 0b110_1001_0111_0110),
    (.medium, 0, 0b101_0100_0001_0010),
    (.medium, 5, 0b100_0000_1100_1110),
    (.quartile, 0, 0b011_0101_0101_1111),
    (.high, 0, 0b001_0110_1000_1001),
    (.high, 7, 0b000_1000_0011_1011),
  ])
  func formatBitsMatchTheStandardTable(level: QRErrorCorrectionLevel, mask: Int, bits: Int) throws {
    #expect(QRFormat.formatBits(level: level, mask: try #require(QRMask(rawValue: mask))) == bits)
  }

  /// Version information from ISO/IEC 18004 Annex D (Table D.1).
  @Test(arguments: [(7, 0x07C94), (8, 0x085BC), (20, 0x149A6), (40, 0x28C69)])
  func versionBitsMatchTheStandardTable(version: Int, bits: Int) {
    #expect(QRFormat.versionBits(version: version) == bits)
  }
}
