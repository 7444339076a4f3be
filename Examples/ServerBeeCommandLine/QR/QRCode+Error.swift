public import ServerBeeModels

extension ServerBeeError.Code where Domain == CommandLineDomain {
  /// The payload does not fit the largest QR code (version 40) at the requested
  /// error-correction level; the message gives the byte counts, never the payload.
  public static let qrPayloadTooLarge = Self("qr_payload_too_large")
  /// A QR code could not be rendered (scale or quiet zone out of range, or zlib failed).
  public static let qrRenderingFailed = Self("qr_rendering_failed")
}
