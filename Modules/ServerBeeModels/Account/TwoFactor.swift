/// `GET /api/auth/2fa/status` (Protocol/Account.md §2.1): whether the account signs in with a TOTP
/// code.
///
/// ```swift
/// let status = try await api.twoFactorStatus()
/// print(status.enabled ? "on" : "off")
/// ```
public struct TwoFactorStatus: Codable, Hashable, Sendable {
  /// Whether two-factor sign-in is on.
  public var enabled: Bool

  /// Creates the value.
  /// - Parameter enabled: Whether two-factor sign-in is on.
  public init(enabled: Bool) { self.enabled = enabled }
}

/// `POST /api/auth/2fa/setup` (Protocol/Account.md §2.2): a new pending TOTP secret, kept by the
/// server for 10 minutes until ``TwoFactorCodeRequest`` confirms it.
///
/// TOTP parameters are fixed: SHA-1, 6 digits, 30-second steps, ±1 step of skew. The secret is
/// a credential: this type never prints it (`SecretBearing`).
///
/// ```swift
/// let setup = try await api.setUpTwoFactor()
/// showQRCode(setup.otpauthURL)        // or decode setup.qrCodePNGBase64
/// try await api.enableTwoFactor(code: codeFromAuthenticator)
/// ```
public struct TwoFactorSetup: Codable, Hashable, Sendable, SecretBearing {
  /// The base32 secret.
  public var secret: String
  /// `otpauth://totp/…` with issuer `ServerBee` and the username as account name.
  public var otpauthURL: String
  /// A PNG of the QR code, base64 with no `data:` prefix.
  public var qrCodePNGBase64: String

  /// Creates the value.
  /// - Parameters:
  ///   - secret: Base32 secret.
  ///   - otpauthURL: The `otpauth://` URI.
  ///   - qrCodePNGBase64: The QR PNG in base64.
  public init(secret: String, otpauthURL: String, qrCodePNGBase64: String) {
    self.secret = secret
    self.otpauthURL = otpauthURL
    self.qrCodePNGBase64 = qrCodePNGBase64
  }

  /// `TwoFactorSetup(secrets redacted)`.
  public var redactedSummary: String { "TwoFactorSetup(secrets redacted)" }

  private enum CodingKeys: String, CodingKey {
    case secret
    case otpauthURL = "otpauth_url"
    case qrCodePNGBase64 = "qr_code_base64"
  }
}

/// `POST /api/auth/2fa/enable` body: the current code of the pending secret.
public struct TwoFactorCodeRequest: Codable, Hashable, Sendable, SecretBearing {
  /// The 6-digit code.
  public var code: String

  /// Creates the body.
  /// - Parameter code: The 6-digit code.
  public init(code: String) { self.code = code }

  /// `TwoFactorCodeRequest(secrets redacted)`.
  public var redactedSummary: String { "TwoFactorCodeRequest(secrets redacted)" }
}

/// `POST /api/auth/2fa/disable` body: the account password (no code is needed).
public struct TwoFactorDisableRequest: Codable, Hashable, Sendable, SecretBearing {
  /// The account password.
  public var password: String

  /// Creates the body.
  /// - Parameter password: The account password.
  public init(password: String) { self.password = password }

  /// `TwoFactorDisableRequest(secrets redacted)`.
  public var redactedSummary: String { "TwoFactorDisableRequest(secrets redacted)" }
}
