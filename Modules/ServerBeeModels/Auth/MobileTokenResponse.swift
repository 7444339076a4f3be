/// The token response of login, pair redeem and refresh (Protocol/Auth.md §2).
///
/// v1 servers send neither ``mobileSessionID`` nor ``revocationToken``; both are optional so those
/// servers still decode. A v2 server always sends `mobile_session_id`, and sends
/// `revocation_token` at login and pair, and at refresh only to echo an accepted
/// `revocation_proof`. When encoding, absent optional keys are left out, as the server does.
///
/// ```swift
/// let tokens = try APIResponse<MobileTokenResponse>.payload(status: status, body: body)
/// if tokens.mobileSessionID == nil { /* a v1 server: no revoke or recover */ }
/// ```
public struct MobileTokenResponse: Codable, Hashable, Sendable {
  /// The stable login identity (v2); `nil` from a v1 server.
  public var mobileSessionID: String?
  /// The Bearer access token (43 base64url characters).
  public var accessToken: String
  /// The access token's lifetime in seconds, fixed from issue (900 by default).
  public var accessExpiresInSeconds: Int64
  /// The refresh token (43 base64url characters).
  public var refreshToken: String
  /// The refresh token's lifetime in seconds (2,592,000 by default).
  public var refreshExpiresInSeconds: Int64
  /// Always `"Bearer"`.
  public var tokenType: String
  /// A deletion-only credential for `/auth/revoke` (v2); absent from v1 servers and from
  /// refreshes that carried no accepted proof.
  public var revocationToken: String?
  /// The account the tokens belong to.
  public var user: SessionUser

  /// Creates a token response.
  /// - Parameters:
  ///   - mobileSessionID: The stable session id, or `nil` (v1).
  ///   - accessToken: The access token.
  ///   - accessExpiresInSeconds: Its lifetime.
  ///   - refreshToken: The refresh token.
  ///   - refreshExpiresInSeconds: Its lifetime.
  ///   - tokenType: `"Bearer"`.
  ///   - revocationToken: The deletion-only credential, if any.
  ///   - user: The account.
  public init(
    mobileSessionID: String?, accessToken: String, accessExpiresInSeconds: Int64,
    refreshToken: String, refreshExpiresInSeconds: Int64, tokenType: String = "Bearer",
    revocationToken: String?, user: SessionUser
  ) {
    self.mobileSessionID = mobileSessionID
    self.accessToken = accessToken
    self.accessExpiresInSeconds = accessExpiresInSeconds
    self.refreshToken = refreshToken
    self.refreshExpiresInSeconds = refreshExpiresInSeconds
    self.tokenType = tokenType
    self.revocationToken = revocationToken
    self.user = user
  }

  private enum CodingKeys: String, CodingKey {
    case mobileSessionID = "mobile_session_id"
    case accessToken = "access_token"
    case accessExpiresInSeconds = "access_expires_in_secs"
    case refreshToken = "refresh_token"
    case refreshExpiresInSeconds = "refresh_expires_in_secs"
    case tokenType = "token_type"
    case revocationToken = "revocation_token"
    case user
  }

  /// Writes the server's key order, leaving out absent `mobile_session_id` and
  /// `revocation_token`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if let mobileSessionID { try container.encode(mobileSessionID, forKey: .mobileSessionID) }
    try container.encode(accessToken, forKey: .accessToken)
    try container.encode(accessExpiresInSeconds, forKey: .accessExpiresInSeconds)
    try container.encode(refreshToken, forKey: .refreshToken)
    try container.encode(refreshExpiresInSeconds, forKey: .refreshExpiresInSeconds)
    try container.encode(tokenType, forKey: .tokenType)
    if let revocationToken { try container.encode(revocationToken, forKey: .revocationToken) }
    try container.encode(user, forKey: .user)
  }
}

extension MobileTokenResponse: SecretBearing {
  /// `MobileTokenResponse(user: NAME, session: ID, secrets redacted)`.
  public var redactedSummary: String {
    "MobileTokenResponse(user: \(user.username), session: \(mobileSessionID ?? "none"), "
      + "secrets redacted)"
  }
}
