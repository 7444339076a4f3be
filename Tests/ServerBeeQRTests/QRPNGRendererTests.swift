import CZlib
import ServerBeeCore
import Testing

@testable import ServerBeeQR

@Suite struct QRPNGRendererTests {
  /// A bitwise CRC-32 (reflected polynomial 0xEDB88320) written here, so the check does not
  /// reuse the zlib function the writer calls.
  private static func crc32Bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> Int {
    bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
  }

  /// The chunks of a PNG file as (type, data), checking each CRC.
  private static func chunks(_ file: [UInt8]) throws -> [(String, [UInt8])] {
    try #require(Array(file.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var result: [(String, [UInt8])] = []
    var offset = 8
    while offset + 12 <= file.count {
      let length = bigEndian(file, at: offset)
      let end = offset + 8 + length
      try #require(end + 4 <= file.count)
      #expect(bigEndian(file, at: end) == Int(crc32Bitwise(file[(offset + 4)..<end])))
      let type = String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self)
      result.append((type, Array(file[(offset + 8)..<end])))
      offset = end + 4
    }
    #expect(offset == file.count)
    return result
  }

  @Test func pngHoldsTheScaledModulesWithAQuietZone() throws {
    let code = try QRCode(text: QRTestPayloads.pairing)
    let scale = 3
    let png = try QRPNGRenderer(scale: scale, quietZone: 4).render(code)
    let chunks = try Self.chunks(png)
    #expect(chunks.map(\.0) == ["IHDR", "IDAT", "IEND"])
    let header = chunks[0].1
    let side = (code.size + 8) * scale
    #expect(Self.bigEndian(header, at: 0) == side)
    #expect(Self.bigEndian(header, at: 4) == side)
    #expect(Array(header[8...]) == [1, 0, 0, 0, 0])

    let rowBytes = (side + 7) / 8 + 1
    var raw = [UInt8](repeating: 0, count: rowBytes * side)
    var rawLength = uLong(raw.count)
    let compressed = chunks[1].1
    let status = uncompress(&raw, &rawLength, compressed, uLong(compressed.count))
    try #require(status == Z_OK)
    #expect(Int(rawLength) == raw.count)
    for row in 0..<side {
      #expect(raw[row * rowBytes] == 0, "filter type of row \(row)")
      for column in 0..<side {
        let byte = raw[row * rowBytes + 1 + column / 8]
        let white = (byte >> UInt8(7 - column % 8)) & 1 != 0
        let moduleRow = row / scale - 4
        let moduleColumn = column / scale - 4
        let inside = (0..<code.size).contains(moduleRow) && (0..<code.size).contains(moduleColumn)
        let dark = inside && code.isDark(row: moduleRow, column: moduleColumn)
        #expect(white == !dark, "pixel \(row),\(column)")
      }
    }
  }

  @Test(arguments: [(0, 4), (33, 4), (8, -1), (8, 17)])
  func outOfRangeScaleOrQuietZoneThrows(scale: Int, quietZone: Int) throws {
    let code = try QRCode(text: "range")
    let error = try #require(throws: ServerBeeQRError.self) {
      try QRPNGRenderer(scale: scale, quietZone: quietZone).render(code)
    }
    #expect(error.code == .renderingFailed)
  }

  @Test func writerRejectsEmptyAndHugeImages() {
    for (width, height) in [(0, 1), (1, 0), (PNGWriter.maximumDimension + 1, 1)] {
      #expect(throws: ServerBeeQRError.self) {
        try PNGWriter.blackAndWhite(width: width, height: height) { _, _ in true }
      }
    }
  }
}
