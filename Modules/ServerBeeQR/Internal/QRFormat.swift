/// The BCH-coded format and version information of ISO/IEC 18004 §7.9 and §7.10.
enum QRFormat {
  /// The 15 format bits for `level` and `mask`: 5 data bits, 10 BCH(15,5) check bits from the
  /// generator x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1 (0x537), XOR-ed with 0x5412 so the result is never
  /// all light.
  static func formatBits(level: QRErrorCorrectionLevel, mask: QRMask) -> Int {
    let data = level.formatBits << 3 | mask.rawValue
    return (data << 10 | bchRemainder(data << 10, generator: 0x537, degree: 10)) ^ 0x5412
  }

  /// The 18 version bits for versions 7...40: 6 data bits and 12 BCH(18,6) check bits from the
  /// generator x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1 (0x1F25); not masked.
  static func versionBits(version: Int) -> Int {
    version << 12 | bchRemainder(version << 12, generator: 0x1F25, degree: 12)
  }

  /// The remainder of the polynomial `value` divided by `generator` (of `degree`) over GF(2).
  private static func bchRemainder(_ value: Int, generator: Int, degree: Int) -> Int {
    var remainder = value
    var bit = Int.bitWidth - 1 - remainder.leadingZeroBitCount
    while bit >= degree {
      if (remainder >> bit) & 1 != 0 { remainder ^= generator << (bit - degree) }
      bit -= 1
    }
    return remainder
  }
}
