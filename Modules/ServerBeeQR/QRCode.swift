import ServerBeeCore

/// A QR code symbol (ISO/IEC 18004 Model 2) holding bytes in byte mode.
///
/// The encoder picks the smallest version (1...40) that holds the payload at the requested
/// error-correction level, adds Reed–Solomon codewords per block, interleaves the blocks, draws
/// the function patterns, and keeps the data mask with the lowest penalty unless one is forced.
/// The payload is never put in an error message: a pairing payload or an `otpauth://` URL
/// carries a secret.
///
/// ```swift
/// import ServerBeeQR
///
/// let code = try QRCode(text: pairingJSON)  // level M by default
/// print(QRTerminalRenderer().render(code))
/// let png = try QRPNGRenderer(scale: 8).render(code)
/// ```
///
/// ## Topics
/// - ``init(bytes:level:mask:)``, ``init(text:level:mask:)``
/// - ``version``, ``level``, ``mask``, ``size``, ``isDark(row:column:)``
/// - ``maximumPayloadLength(level:version:)``
package struct QRCode: Sendable, Equatable {
  /// The symbol version, 1...40; the side is `17 + 4 * version` modules.
  package let version: Int
  /// The error-correction level.
  package let level: QRErrorCorrectionLevel
  /// The data mask in use.
  package let mask: QRMask
  /// The finished modules.
  let matrix: QRMatrix

  /// The side length in modules, without quiet zone.
  package var size: Int { matrix.size }

  /// Encodes bytes.
  /// - Parameters:
  ///   - bytes: The payload, at most 2953 bytes (version 40-L; less at higher levels).
  ///   - level: The error-correction level; `.medium` by default.
  ///   - mask: A forced data mask; `nil` (the default) chooses the one with the lowest penalty.
  /// - Throws: ``ServerBeeQRError`` with code `.payloadTooLarge` when no version holds the
  ///   payload at `level`.
  package init(bytes: [UInt8], level: QRErrorCorrectionLevel = .medium, mask: QRMask? = nil)
    throws(ServerBeeQRError)
  {
    guard
      let version = QRTables.versions.first(where: {
        bytes.count <= Self.maximumPayloadLength(level: level, version: $0)
      })
    else {
      let limit = Self.maximumPayloadLength(level: level, version: 40)
      throw ServerBeeQRError(
        .payloadTooLarge,
        "a QR code at level \(level) holds at most \(limit) bytes; the payload has \(bytes.count)"
      )
    }
    self.version = version
    self.level = level
    let codewords = Self.finalCodewords(
      dataCodewords: Self.dataCodewords(for: bytes, version: version, level: level),
      version: version, level: level)
    var base = QRMatrix(version: version)
    base.place(codewords: codewords)
    let candidates = mask.map { [$0] } ?? QRMask.allCases
    var best: (mask: QRMask, matrix: QRMatrix, penalty: Int)?
    for candidate in candidates {
      var masked = base
      masked.apply(candidate)
      masked.drawFormatInformation(bits: QRFormat.formatBits(level: level, mask: candidate))
      // Only compare penalties when there is a choice.
      let penalty = candidates.count == 1 ? 0 : masked.penalty
      if best.map({ penalty < $0.penalty }) ?? true {
        best = (candidate, masked, penalty)
      }
    }
    guard let best else { preconditionFailure("QRMask.allCases is never empty") }
    self.mask = best.mask
    self.matrix = best.matrix
  }

  /// Encodes the UTF-8 bytes of `text` (no ECI header: readers treat byte-mode UTF-8 as such).
  /// - Parameters:
  ///   - text: The payload, at most 2953 UTF-8 bytes (version 40-L).
  ///   - level: The error-correction level; `.medium` by default.
  ///   - mask: A forced data mask; `nil` chooses the one with the lowest penalty.
  /// - Throws: ``ServerBeeQRError`` with code `.payloadTooLarge` when it does not fit.
  package init(text: String, level: QRErrorCorrectionLevel = .medium, mask: QRMask? = nil)
    throws(ServerBeeQRError)
  {
    try self.init(bytes: Array(text.utf8), level: level, mask: mask)
  }

  /// Whether the module at `row`, `column` (from the top-left, 0-based) is dark.
  package func isDark(row: Int, column: Int) -> Bool { matrix[row: row, column: column] }

  /// The largest byte-mode payload a symbol of `version` holds at `level`.
  /// - Parameters:
  ///   - level: The error-correction level.
  ///   - version: The symbol version, 1...40.
  /// - Returns: The byte count (for example 14 for 1-M, 2953 for 40-L).
  package static func maximumPayloadLength(level: QRErrorCorrectionLevel, version: Int) -> Int {
    let dataBits = dataCodewordCount(version: version, level: level) * 8
    return (dataBits - 4 - characterCountBits(version: version)) / 8
  }

  // MARK: - Codewords

  /// Width of the byte-mode character count: 8 bits up to version 9, 16 bits after.
  private static func characterCountBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

  /// Data codewords of a symbol: total codewords minus the error-correction ones.
  static func dataCodewordCount(version: Int, level: QRErrorCorrectionLevel) -> Int {
    let blocks = QRTables.blockCount[level.tableIndex][version - 1]
    let perBlock = QRTables.errorCorrectionCodewordsPerBlock[level.tableIndex][version - 1]
    return QRTables.totalCodewords(version: version) - blocks * perBlock
  }

  /// Mode indicator 0100, character count, the bytes, up to four terminator bits, zero bits to a
  /// byte boundary, then the pad codewords 0xEC 0x11 alternately (ISO/IEC 18004 §7.4).
  static func dataCodewords(for bytes: [UInt8], version: Int, level: QRErrorCorrectionLevel)
    -> [UInt8]
  {
    let capacity = dataCodewordCount(version: version, level: level)
    var bits = QRBitBuffer()
    bits.append(0b0100, count: 4)
    bits.append(bytes.count, count: characterCountBits(version: version))
    for byte in bytes { bits.append(Int(byte), count: 8) }
    bits.append(0, count: min(4, capacity * 8 - bits.count))
    bits.append(0, count: (8 - bits.count % 8) % 8)
    var codewords = bits.bytes
    var pad: UInt8 = 0xEC
    while codewords.count < capacity {
      codewords.append(pad)
      pad = pad == 0xEC ? 0x11 : 0xEC
    }
    return codewords
  }

  /// Splits the data codewords into blocks (the shorter blocks first), adds each block's
  /// Reed–Solomon codewords, and interleaves: the i-th data codeword of every block in turn,
  /// then the i-th error-correction codeword of every block (ISO/IEC 18004 §7.6).
  static func finalCodewords(dataCodewords: [UInt8], version: Int, level: QRErrorCorrectionLevel)
    -> [UInt8]
  {
    let blockCount = QRTables.blockCount[level.tableIndex][version - 1]
    let correctionCount = QRTables.errorCorrectionCodewordsPerBlock[level.tableIndex][version - 1]
    let shortLength = dataCodewords.count / blockCount
    let longBlocks = dataCodewords.count % blockCount
    let generator = ReedSolomon.generator(degree: correctionCount)
    var dataBlocks: [[UInt8]] = []
    var correctionBlocks: [[UInt8]] = []
    var start = 0
    for index in 0..<blockCount {
      let length = shortLength + (index >= blockCount - longBlocks ? 1 : 0)
      let block = Array(dataCodewords[start..<(start + length)])
      dataBlocks.append(block)
      correctionBlocks.append(ReedSolomon.errorCorrection(for: block, generator: generator))
      start += length
    }
    var result: [UInt8] = []
    result.reserveCapacity(QRTables.totalCodewords(version: version))
    for column in 0...shortLength {
      for block in dataBlocks where column < block.count { result.append(block[column]) }
    }
    for column in 0..<correctionCount {
      for block in correctionBlocks { result.append(block[column]) }
    }
    return result
  }
}
