import CZlib
import ServerBeeCore

/// Writes 1-bit grayscale PNG images (PNG specification, ISO/IEC 15948).
///
/// The pixel rows are filtered with filter type 0 (none), compressed into one zlib stream
/// (CZlib's `compress2`) in a single IDAT chunk; every chunk carries zlib's CRC-32.
enum PNGWriter {
  /// The largest width or height accepted, so a caller's scale cannot ask for gigabytes.
  static let maximumDimension = 16_384

  /// The PNG file of a black-and-white image.
  /// - Parameters:
  ///   - width: Pixels per row, 1...``maximumDimension``.
  ///   - height: Rows, 1...``maximumDimension``.
  ///   - isBlack: Whether the pixel at `row`, `column` is black (otherwise white).
  /// - Returns: The bytes of the file.
  /// - Throws: ``ServerBeeQRError`` with code `.renderingFailed` for a bad size or a zlib
  ///   failure.
  static func blackAndWhite(
    width: Int, height: Int, isBlack: (_ row: Int, _ column: Int) -> Bool
  ) throws(ServerBeeQRError) -> [UInt8] {
    let range = 1...maximumDimension
    guard range.contains(width), range.contains(height) else {
      throw ServerBeeQRError(
        .renderingFailed,
        "a PNG image of \(width)×\(height) pixels is out of range: each side must be "
          + "1...\(maximumDimension)")
    }
    let rowBytes = (width + 7) / 8
    var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
    for row in 0..<height {
      let start = row * (rowBytes + 1)  // raw[start] is the filter byte, 0
      for column in 0..<width where !isBlack(row, column) {
        raw[start + 1 + column / 8] |= 0x80 >> UInt8(column % 8)  // 1 is white in grayscale
      }
    }
    var header: [UInt8] = []
    appendBigEndian(UInt32(width), to: &header)
    appendBigEndian(UInt32(height), to: &header)
    header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    appendChunk("IHDR", header, to: &file)
    appendChunk("IDAT", try deflate(raw), to: &file)
    appendChunk("IEND", [], to: &file)
    return file
  }

  /// One zlib stream (RFC 1950) of `bytes` at the best compression.
  private static func deflate(_ bytes: [UInt8]) throws(ServerBeeQRError) -> [UInt8] {
    var capacity = compressBound(uLong(bytes.count))
    var output = [UInt8](repeating: 0, count: Int(capacity))
    let status = output.withUnsafeMutableBufferPointer { target in
      bytes.withUnsafeBufferPointer { source in
        compress2(
          target.baseAddress, &capacity, source.baseAddress, uLong(source.count),
          Z_BEST_COMPRESSION)
      }
    }
    guard status == Z_OK else {
      throw ServerBeeQRError(
        .renderingFailed, "zlib could not compress the PNG image data (compress2 status \(status))")
    }
    return Array(output.prefix(Int(capacity)))
  }

  /// Length, type, data and the CRC-32 of type and data.
  private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
    let typed = Array(type.utf8) + data
    let checksum = typed.withUnsafeBufferPointer { buffer in
      crc32(0, buffer.baseAddress, uInt(buffer.count))
    }
    appendBigEndian(UInt32(data.count), to: &file)
    file += typed
    appendBigEndian(UInt32(truncatingIfNeeded: checksum), to: &file)
  }

  private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    for shift in stride(from: 24, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
    }
  }
}
