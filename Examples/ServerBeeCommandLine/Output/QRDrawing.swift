import ServerBeeQR

/// The pairing QR code drawn for the terminal.
enum QRDrawing {
  /// The payload as a terminal QR code (half blocks), or `nil` when it cannot be encoded.
  ///
  /// A payload too large for any QR code is not a failure of the command: the caller prints the
  /// payload's text either way. A ``ServerBeeQRError`` that does reach ``ErrorLine`` is shown as
  /// its message, with exit code 1.
  static func text(for payload: String) -> String? {
    guard let code = try? QRCode(text: payload) else { return nil }
    return QRTerminalRenderer().render(code)
  }
}
