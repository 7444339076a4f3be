public import ServerBeeModels

/// A pairing code just created for the signed-in account, with the QR text another device scans
/// (``ServerBeeAPIClient/createPairingCode()``).
///
/// The code is a credential: whoever redeems it first signs in as this account. It is never
/// printed (`description`, `dump` and string interpolation show ``redactedSummary``); show
/// ``qrText`` only as a QR code or to the user who asked for it.
///
/// ```swift
/// let pairing = try await api.createPairingCode()
/// showQRCode(pairing.qrText)  // {"type":"serverbee_pair","server_url":…,"code":"sb_pair_…"}
/// startCountdown(seconds: pairing.expiresInSeconds)
/// ```
public struct PairingCode: Sendable, Hashable, SecretBearing {
  /// The server and the code, as the QR code carries them.
  public var payload: PairingPayload
  /// How long the code stays valid from the moment it was created, in seconds (300 by default;
  /// Protocol/Auth.md §5.1). It works once.
  public var expiresInSeconds: Int64

  /// Creates a value.
  /// - Parameters:
  ///   - payload: The server and the code.
  ///   - expiresInSeconds: The code's lifetime.
  public init(payload: PairingPayload, expiresInSeconds: Int64) {
    self.payload = payload
    self.expiresInSeconds = expiresInSeconds
  }

  /// The `sb_pair_` code.
  public var code: String { payload.code }

  /// The text to draw as a QR code: `{"type":"serverbee_pair","server_url":…,"code":…}`, what
  /// the web app draws and what AuthSession's `AuthClient.pair(scannedPayload:)` redeems.
  public var qrText: String { payload.qrText }

  /// `PairingCode(<server>, expires in N s, code redacted)`.
  public var redactedSummary: String {
    "PairingCode(\(payload.server.string), expires in \(expiresInSeconds) s, code redacted)"
  }
}
