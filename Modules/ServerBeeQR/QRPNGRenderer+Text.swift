import ServerBeeCore

extension QRPNGRenderer {
  /// Encodes `text` as a QR code and draws it as a PNG file, in one call.
  ///
  /// ```swift
  /// let png = try QRPNGRenderer(scale: 6).render(text: setup.otpauthURL)
  /// ```
  ///
  /// - Parameters:
  ///   - text: The payload; its UTF-8 bytes go in byte mode.
  ///   - level: The error-correction level; `.medium` by default.
  /// - Returns: The bytes of the PNG file.
  /// - Throws: ``ServerBeeQRError`` with code `.payloadTooLarge` when `text` does not fit a
  ///   QR code at `level`, or `.renderingFailed` for a scale or quiet zone out of range.
  package func render(text: String, level: QRErrorCorrectionLevel = .medium)
    throws(ServerBeeQRError) -> [UInt8]
  {
    try render(QRCode(text: text, level: level))
  }

  /// The PNG file of the QR code of `text` as standard padded base64 (RFC 4648 §4), with no
  /// `data:` prefix: the form of `qr_code_base64` in the two-factor setup answer.
  ///
  /// ```swift
  /// let qrCodePNGBase64 = try QRPNGRenderer().base64PNG(text: otpauthURL)
  /// // "iVBORw0KGgoAAAANSUhEUgAA…"
  /// ```
  ///
  /// - Parameters:
  ///   - text: The payload; its UTF-8 bytes go in byte mode.
  ///   - level: The error-correction level; `.medium` by default.
  /// - Returns: The base64 text of the PNG file (ServerBeeCore's `Base64`).
  /// - Throws: ``ServerBeeQRError``, as ``render(text:level:)`` does.
  package func base64PNG(text: String, level: QRErrorCorrectionLevel = .medium)
    throws(ServerBeeQRError) -> String
  {
    Base64.encode(try render(text: text, level: level))
  }
}
