import Testing

@testable import ServerBeeQR

@Suite struct ReedSolomonTests {
  @Test func fieldIsGeneratedByTheQRPolynomial() {
    #expect(ReedSolomon.exponents[0] == 1)
    #expect(ReedSolomon.exponents[7] == 0x80)
    #expect(ReedSolomon.exponents[8] == 0x1D)  // x⁸ = x⁴ + x³ + x² + 1
    #expect(ReedSolomon.multiply(0x80, 0x02) == 0x1D)
    #expect(Set(ReedSolomon.exponents.prefix(255)).count == 255)
  }

  @Test func generatorOfDegree7MatchesTheStandard() {
    // ISO/IEC 18004 Annex A: α⁰x⁷ + α⁸⁷x⁶ + α²²⁹x⁵ + α¹⁴⁶x⁴ + α¹⁴⁹x³ + α²³⁸x² + α¹⁰²x + α²¹.
    let logs = ReedSolomon.generator(degree: 7).map { ReedSolomon.logarithms[Int($0)] }
    #expect(logs == [0, 87, 229, 146, 149, 238, 102, 21])
  }

  @Test func isoExampleVersion1MCodewordsMatch() {
    // ISO/IEC 18004 Annex I: "01234567" in numeric mode as 1-M, 16 data codewords.
    let data: [UInt8] = [
      0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
      0x11,
    ]
    #expect(
      ReedSolomon.errorCorrection(for: data, count: 10)
        == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
  }

  @Test(arguments: [7, 10, 18, 30])
  func codewordsAreMultiplesOfTheGenerator(degree: Int) {
    let data = QRTestPayloads.ascii(count: 40, seed: degree)
    let check = ReedSolomon.errorCorrection(for: data, count: degree)
    #expect(check.count == degree)
    #expect(
      ReedSolomon.errorCorrection(for: data + check, count: degree)
        == [UInt8](repeating: 0, count: degree))
  }
}
