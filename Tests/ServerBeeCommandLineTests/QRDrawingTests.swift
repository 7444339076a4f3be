import ServerBeeModels
import ServerBeeQR
import Testing

@testable import ServerBeeCommandLine

/// The command line draws QR codes with ServerBeeQR; its errors keep the command's one line.
@Suite struct QRDrawingTests {
  @Test func drawingIsTheTerminalRenderingOfThePayload() throws {
    let payload =
      #"{"type":"serverbee_pair","server_url":"http://127.0.0.1:40123","code":"sb_pair_drawing"}"#
    let expected = QRTerminalRenderer().render(try QRCode(text: payload))
    #expect(QRDrawing.text(for: payload) == expected)
  }

  @Test func aPayloadNoQRCodeHoldsDrawsNothing() {
    // 2332 bytes: one more than version 40 holds at level M.
    #expect(QRDrawing.text(for: String(repeating: "a", count: 2332)) == nil)
  }

  @Test func qrErrorsAreTheirMessageAndExit1() {
    let errors = [
      ServerBeeQRError(
        .payloadTooLarge, "a QR code at level M holds at most 2331 bytes; the payload has 2400"),
      ServerBeeQRError(
        .renderingFailed, "PNG scale must be 1...32 and quiet zone 0...16 (got 0 and 4)"),
    ]
    for error in errors {
      #expect(ErrorLine.text(for: error) == error.message)
      #expect(ErrorLine.exitCode(for: error) == ErrorLine.failureExitCode)
    }
  }
}
