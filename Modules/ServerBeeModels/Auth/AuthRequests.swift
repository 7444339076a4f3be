/// `POST /api/mobile/auth/login` body (Protocol/Auth.md §3).
///
/// Send ``totpCode`` `nil` on the first step; a TOTP account answers 422 `2fa_required`
/// (``APIFailure/Kind/twoFactorRequired``), then repeat the request with the code.
public struct LoginRequest: Codable, Hashable, Sendable, SecretBearing {
  /// The login name (non-empty).
  public var username: String
  /// The password (non-empty).
  public var password: String
  /// This installation's stable id (non-empty).
  public var installationID: String
  /// A human-readable device name (non-empty).
  public var deviceName: String
  /// The 6-digit TOTP code, or `nil` (written as `null`).
  public var totpCode: String?

  /// Creates the body.
  /// - Parameters:
  ///   - username: The login name.
  ///   - password: The password.
  ///   - installationID: The installation id.
  ///   - deviceName: The device name.
  ///   - totpCode: The TOTP code, if the server asked for one.
  public init(
    username: String, password: String, installationID: String, deviceName: String,
    totpCode: String? = nil
  ) {
    self.username = username
    self.password = password
    self.installationID = installationID
    self.deviceName = deviceName
    self.totpCode = totpCode
  }

  private enum CodingKeys: String, CodingKey {
    case username, password
    case installationID = "installation_id"
    case deviceName = "device_name"
    case totpCode = "totp_code"
  }

  /// `LoginRequest(username: NAME, secrets redacted)`.
  public var redactedSummary: String { "LoginRequest(username: \(username), secrets redacted)" }
}

/// `POST /api/mobile/auth/refresh` body (Protocol/Auth.md §4).
///
/// `revocation_proof` is left out when `nil`, so v1 servers see exactly the v1 body.
public struct RefreshRequest: Codable, Hashable, Sendable, SecretBearing {
  /// The current refresh token.
  public var refreshToken: String
  /// The installation the session is bound to.
  public var installationID: String
  /// A proposed deletion proof, `sb-revoke-v1.` + 43 base64url characters (v2).
  public var revocationProof: String?

  /// Creates the body.
  /// - Parameters:
  ///   - refreshToken: The refresh token.
  ///   - installationID: The installation id.
  ///   - revocationProof: A proposed deletion proof, or `nil`.
  public init(refreshToken: String, installationID: String, revocationProof: String? = nil) {
    self.refreshToken = refreshToken
    self.installationID = installationID
    self.revocationProof = revocationProof
  }

  private enum CodingKeys: String, CodingKey {
    case refreshToken = "refresh_token"
    case installationID = "installation_id"
    case revocationProof = "revocation_proof"
  }

  /// Writes `refresh_token`, `installation_id` and, when present, `revocation_proof`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(refreshToken, forKey: .refreshToken)
    try container.encode(installationID, forKey: .installationID)
    if let revocationProof { try container.encode(revocationProof, forKey: .revocationProof) }
  }

  /// `RefreshRequest(installation: ID, secrets redacted)`.
  public var redactedSummary: String {
    "RefreshRequest(installation: \(installationID), secrets redacted)"
  }
}

/// `POST /api/mobile/pair` answer: a fresh pair code (Protocol/Auth.md §5.1).
public struct PairCodeResponse: Codable, Hashable, Sendable, SecretBearing {
  /// `sb_pair_` + 43 characters.
  public var code: String
  /// 300 by default.
  public var expiresInSeconds: Int64

  /// Creates the value.
  /// - Parameters:
  ///   - code: The pair code.
  ///   - expiresInSeconds: Its lifetime.
  public init(code: String, expiresInSeconds: Int64) {
    self.code = code
    self.expiresInSeconds = expiresInSeconds
  }

  private enum CodingKeys: String, CodingKey {
    case code
    case expiresInSeconds = "expires_in_secs"
  }

  /// `PairCodeResponse(expires in N s, code redacted)`.
  public var redactedSummary: String {
    "PairCodeResponse(expires in \(expiresInSeconds) s, code redacted)"
  }
}

/// `POST /api/mobile/auth/pair` body: redeem a pair code (Protocol/Auth.md §5.2).
public struct PairRedeemRequest: Codable, Hashable, Sendable, SecretBearing {
  /// The scanned `sb_pair_` code.
  public var code: String
  /// This installation's id.
  public var installationID: String
  /// The device name.
  public var deviceName: String

  /// Creates the body.
  /// - Parameters:
  ///   - code: The pair code.
  ///   - installationID: The installation id.
  ///   - deviceName: The device name.
  public init(code: String, installationID: String, deviceName: String) {
    self.code = code
    self.installationID = installationID
    self.deviceName = deviceName
  }

  private enum CodingKeys: String, CodingKey {
    case code
    case installationID = "installation_id"
    case deviceName = "device_name"
  }

  /// `PairRedeemRequest(installation: ID, code redacted)`.
  public var redactedSummary: String {
    "PairRedeemRequest(installation: \(installationID), code redacted)"
  }
}

/// `POST /api/mobile/auth/revoke` body (Protocol/Auth.md §8): delete one mobile session with a
/// deletion-only credential. `expected_session_id` is left out when `nil` (legacy strict mode).
public struct RevokeRequest: Codable, Hashable, Sendable, SecretBearing {
  /// The installation the session belongs to.
  public var installationID: String
  /// A login `revocation_token`, an accepted `sb-revoke-v1.` proof, a consumed refresh token or
  /// the current refresh token.
  public var revocationToken: String
  /// The session id to delete; answers `already_absent` when it is gone.
  public var expectedSessionID: String?

  /// Creates the body.
  /// - Parameters:
  ///   - installationID: The installation id.
  ///   - revocationToken: The deletion credential.
  ///   - expectedSessionID: The session to delete, when known.
  public init(installationID: String, revocationToken: String, expectedSessionID: String?) {
    self.installationID = installationID
    self.revocationToken = revocationToken
    self.expectedSessionID = expectedSessionID
  }

  private enum CodingKeys: String, CodingKey {
    case installationID = "installation_id"
    case revocationToken = "revocation_token"
    case expectedSessionID = "expected_session_id"
  }

  /// Writes the keys in order, leaving out an absent `expected_session_id`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(installationID, forKey: .installationID)
    try container.encode(revocationToken, forKey: .revocationToken)
    if let expectedSessionID {
      try container.encode(expectedSessionID, forKey: .expectedSessionID)
    }
  }

  /// `RevokeRequest(session: ID, credential redacted)`.
  public var redactedSummary: String {
    "RevokeRequest(session: \(expectedSessionID ?? "unknown"), credential redacted)"
  }
}

/// The `data` string of a successful revoke: `"ok"` or `"already_absent"` (Protocol/Auth.md §8).
public struct RevokeOutcome: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates an outcome.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The session was deleted now.
  public static let ok: Self = "ok"
  /// The session was already gone (only with `expected_session_id`).
  public static let alreadyAbsent: Self = "already_absent"
}

/// `PUT /api/auth/password` body (Protocol/Auth.md §11).
public struct PasswordChangeRequest: Codable, Hashable, Sendable, SecretBearing {
  /// The current password.
  public var oldPassword: String
  /// The new password.
  public var newPassword: String

  /// Creates the body.
  /// - Parameters:
  ///   - oldPassword: The current password.
  ///   - newPassword: The new password.
  public init(oldPassword: String, newPassword: String) {
    self.oldPassword = oldPassword
    self.newPassword = newPassword
  }

  private enum CodingKeys: String, CodingKey {
    case oldPassword = "old_password"
    case newPassword = "new_password"
  }

  /// `PasswordChangeRequest(secrets redacted)`.
  public var redactedSummary: String { "PasswordChangeRequest(secrets redacted)" }
}

/// `POST /api/mobile/push/register` body, the legacy direct-APNs registration (Protocol/Push.md
/// §1).
public struct LegacyPushRegisterRequest: Codable, Hashable, Sendable {
  /// The APNs token as lowercase hex.
  public var deviceToken: String

  /// Creates the body.
  /// - Parameter deviceToken: The APNs token.
  public init(deviceToken: String) { self.deviceToken = deviceToken }

  private enum CodingKeys: String, CodingKey { case deviceToken = "device_token" }
}
