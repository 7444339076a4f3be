/// The pairing QR code drawn for the terminal.
enum QRDrawing {
  /// The payload as a terminal QR code (half blocks), or `nil` when it cannot be encoded.
  static func text(for payload: String) -> String? {
    guard let code = try? QRCode(text: payload) else { return nil }
    return QRTerminalRenderer().render(code)
  }
}
