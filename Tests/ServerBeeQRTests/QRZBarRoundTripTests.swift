import Foundation
import ServerBeeCore
import ServerBeeTestHarness
import Testing

@testable import ServerBeeQR

/// Every test renders PNG files, decodes them with `zbarimg` and expects the exact payload back.
@Suite struct QRZBarRoundTripTests {
  private let zbar: ZBarImage

  /// Fails every test of the suite with the install hint when `zbarimg` is missing.
  init() throws {
    zbar = try ZBarImage()
  }

  private func roundTrip(
    _ payload: [UInt8], level: QRErrorCorrectionLevel, mask: QRMask? = nil, scale: Int = 3,
    binary: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    // Encoding and rendering a large symbol is seconds of CPU in a debug build: on a thread of
    // its own, not one of the cooperative pool's two, which every other suite needs meanwhile.
    let (code, png) = try await offPool {
      let code = try QRCode(bytes: payload, level: level, mask: mask)
      return (code, try QRPNGRenderer(scale: scale).render(code))
    }
    let name = "v\(code.version)-\(level)-m\(code.mask.rawValue)-\(payload.count).png"
    let decoded = try await zbar.decode(png: png, name: name, binary: binary)
    #expect(
      decoded == payload, "\(name): zbarimg read \(decoded.count) bytes, not the payload",
      sourceLocation: sourceLocation)
  }

  @Test(arguments: QRErrorCorrectionLevel.allCases)
  func pairingPayloadDecodesAtEveryLevel(level: QRErrorCorrectionLevel) async throws {
    try await roundTrip(Array(QRTestPayloads.pairing.utf8), level: level)
  }

  @Test(arguments: QRErrorCorrectionLevel.allCases)
  func pairingJSONFrom50To400BytesDecodes(level: QRErrorCorrectionLevel) async throws {
    for length in stride(from: 50, through: 400, by: 25) {
      let payload = Array(QRTestPayloads.pairingJSON(length: length).utf8)
      try #require(payload.count == length)
      try await roundTrip(payload, level: level)
    }
  }

  @Test(arguments: QRErrorCorrectionLevel.allCases)
  func everyVersionDecodesWhenFilledToCapacity(level: QRErrorCorrectionLevel) async throws {
    for version in 1...40 {
      let capacity = QRCode.maximumPayloadLength(level: level, version: version)
      let payload = QRTestPayloads.ascii(count: capacity, seed: version)
      let encoded = try await offPool { try QRCode(bytes: payload, level: level).version }
      try #require(encoded == version)
      try await roundTrip(payload, level: level, scale: version > 20 ? 2 : 3)
    }
  }

  @Test(arguments: QRMask.allCases)
  func everyForcedMaskDecodes(mask: QRMask) async throws {
    // Version 2 (no version information) and version 8 (with it, and several blocks).
    try await roundTrip(Array(QRTestPayloads.pairingJSON(length: 60).utf8), level: .low, mask: mask)
    try await roundTrip(
      Array(QRTestPayloads.pairingJSON(length: 160).utf8), level: .quartile, mask: mask)
  }

  @Test func chineseUTF8TextDecodes() async throws {
    let text = "服务器蜜蜂配对码：请用手机扫描此二维码。ServerBee 配对 ✓"
    for level in QRErrorCorrectionLevel.allCases {
      try await roundTrip(Array(text.utf8), level: level)
    }
  }

  @Test func binaryBytesDecodeExactly() async throws {
    let everyByte = (0...255).map { UInt8(($0 * 167 + 13) % 256) }
    try await roundTrip(everyByte, level: .medium, binary: true)
    try await roundTrip([0x00, 0xFF, 0x80, 0x0A, 0x0D, 0x1B], level: .high, binary: true)
  }

  @Test func otpauthURLDecodesFromTheBase64PNG() async throws {
    let url =
      "otpauth://totp/ServerBee:ada?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=ServerBee"
    let text = try QRPNGRenderer(scale: 4).base64PNG(text: url)
    let png = try #require(Base64.decodeCanonical(text))
    #expect(try await zbar.decode(png: png, name: "otpauth.png") == Array(url.utf8))
  }

  @Test func terminalTextDrawsADecodableCode() async throws {
    let code = try QRCode(text: QRTestPayloads.pairing)
    for inverted in [false, true] {
      let grid = try #require(
        QRTerminalGrid(text: QRTerminalRenderer(inverted: inverted).render(code)))
      // What the terminal shows: the ink is light unless inverted, the background dark.
      let scale = 4
      let png = try PNGWriter.blackAndWhite(
        width: grid.width * scale, height: grid.height * scale
      ) { row, column in
        grid.isInked(row: row / scale, column: column / scale) == inverted
      }
      let decoded = try await zbar.decode(png: png, name: "terminal-\(inverted).png")
      #expect(decoded == Array(QRTestPayloads.pairing.utf8))
    }
  }
}
