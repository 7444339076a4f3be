package import ServerBeeCore

/// The error domain of the ServerBeeQR module.
package enum ServerBeeQRDomain: ServerBeeErrorDomain {
  /// `"ServerBeeQR"`.
  package static let name = "ServerBeeQR"
}

/// The one error type of ServerBeeQR: a `ServerBeeError` with this module's codes.
///
/// Messages are sentences that give sizes and limits, never the payload: a pairing payload or
/// an `otpauth://` URL carries a secret.
///
/// ```swift
/// do {
///   let code = try QRCode(text: otpauthURL)
/// } catch where error.code == .payloadTooLarge {
///   print(error.message)  // "a QR code at level M holds at most 2331 bytes; the payload has 2400"
/// }
/// ```
package typealias ServerBeeQRError = ServerBeeError<ServerBeeQRDomain>

extension ServerBeeError.Code where Domain == ServerBeeQRDomain {
  /// The payload does not fit the largest QR code (version 40) at the requested
  /// error-correction level; the message gives the byte counts, never the payload.
  package static let payloadTooLarge = Self("payload_too_large")
  /// A QR code could not be rendered: the scale or quiet zone is out of range, the image would be
  /// too large, or zlib failed.
  package static let renderingFailed = Self("rendering_failed")
}
