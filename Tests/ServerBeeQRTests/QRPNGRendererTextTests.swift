import ServerBeeCore
import Testing

@testable import ServerBeeQR

/// The one-call forms the simulator's two-factor setup route uses.
@Suite struct QRPNGRendererTextTests {
  private static let otpauthURL =
    "otpauth://totp/ServerBee:ada?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=ServerBee"

  @Test func pngOfTextIsThePNGOfItsCode() throws {
    let renderer = QRPNGRenderer(scale: 4, quietZone: 2)
    for level in QRErrorCorrectionLevel.allCases {
      let code = try QRCode(text: Self.otpauthURL, level: level)
      #expect(try renderer.render(text: Self.otpauthURL, level: level) == renderer.render(code))
    }
  }

  @Test func base64IsCanonicalPaddedBase64OfThePNGWithoutADataPrefix() throws {
    let renderer = QRPNGRenderer()
    let text = try renderer.base64PNG(text: Self.otpauthURL)
    let png = try renderer.render(text: Self.otpauthURL)
    #expect(text.hasPrefix("iVBORw0KGgo"))  // the PNG signature
    #expect(!text.contains("data:") && !text.contains("\n"))
    #expect(Base64.decodeCanonical(text) == png)
  }

  @Test func tooLargeTextThrowsWithoutEchoingIt() throws {
    let payload = "otpauth://totp/" + String(repeating: "x", count: 2331)
    let error = try #require(throws: ServerBeeQRError.self) {
      try QRPNGRenderer().base64PNG(text: payload)
    }
    #expect(error.code == .payloadTooLarge)
    #expect(!error.message.contains("otpauth") && !error.message.contains("xxxx"))
  }

  @Test func outOfRangeScaleThrowsRenderingFailed() throws {
    let error = try #require(throws: ServerBeeQRError.self) {
      try QRPNGRenderer(scale: 0).render(text: Self.otpauthURL)
    }
    #expect(error.code == .renderingFailed)
  }
}
