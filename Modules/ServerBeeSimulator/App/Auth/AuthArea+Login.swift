import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Login and refresh (Protocol/Auth.md §1.1–§3, §1.2, §2): each login is an
// independent mobile session with a stable id, a rotating refresh token and a revocation token.

extension AuthArea {
  func tokenResponse(
    session: String, user: UserRow, access: String, refresh: String, revocation: String?
  ) -> MobileTokenResponse {
    MobileTokenResponse(
      mobileSessionID: session, accessToken: access, accessExpiresInSeconds: settings.accessTTL,
      refreshToken: refresh, refreshExpiresInSeconds: settings.refreshTTL,
      revocationToken: revocation, user: user.sessionUser)
  }

  /// A new, independent mobile session with a login `revocation_token` (login and pair redeem).
  func createMobileSession(user: UserRow, installationID: String, deviceName: String) throws
    -> MobileTokenResponse
  {
    let id = Crypto.uuid(random)
    let refresh = Crypto.token(random)
    let revocation = Crypto.token(random)
    try db.execute(
      "INSERT INTO mobile_sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        .text(id), .text(user.id), .text(SHA256.hex(refresh)),
        .text(SHA256.hex(revocation)), .text(installationID), .text(deviceName),
        .int(now), .int(now + settings.refreshTTL * Self.second), .int(now), .int(now),
      ])
    let access = try core.issueAccessToken(userID: user.id, mobileSessionID: id, source: "mobile")
    return tokenResponse(
      session: id, user: user, access: access, refresh: refresh, revocation: revocation)
  }

  /// Password + TOTP verification shared by login and password-mode recovery (Protocol/Auth.md §3
  /// 4–6).
  func verifyCredentials(username: String, password: String, totpCode: String?) throws -> UserRow {
    guard let user = try core.user(named: username), core.passwordMatches(user, password) else {
      throw APIError.unauthorized
    }
    if let secret = user.totpSecret {
      guard let totpCode else { throw APIError.validation("2fa_required") }
      guard TOTP.verify(code: totpCode, secretBase32: secret, unixSeconds: now / Self.second)
      else { throw APIError.unauthorized }
    }
    return user
  }

  func login(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let username = try body.string("username")
    let password = try body.string("password")
    let installationID = try body.string("installation_id")
    let deviceName = try body.string("device_name")
    let totpCode = try body.optionalString("totp_code")
    guard !username.isEmpty, !password.isEmpty else {
      throw APIError.validation("Username and password are required")
    }
    guard !installationID.isEmpty, !deviceName.isEmpty else {
      throw APIError.validation("installation_id and device_name are required")
    }
    guard core.consumeLoginAttempt(context.remoteAddress) else {
      throw APIError.tooManyRequests("Too many login attempts. Please try again later.")
    }
    let user = try verifyCredentials(username: username, password: password, totpCode: totpCode)
    guard !user.mustChangePassword else { throw APIError.forbidden(Self.mustChangeMobile) }
    return Reply.data(
      try createMobileSession(user: user, installationID: installationID, deviceName: deviceName))
  }

  /// Whether `proof` is `sb-revoke-v1.` + the canonical unpadded base64url of 32 bytes.
  static func isCanonicalProof(_ proof: String) -> Bool {
    guard proof.hasPrefix(proofPrefix) else { return false }
    return Base64URL.isCanonical(String(proof.dropFirst(proofPrefix.count)), byteCount: 32)
  }

  /// The session a deletion proof hash is bound to (stable revocation hash or proof history).
  func proofOwner(_ hash: String) throws -> String? {
    if let id = try db.scalar(
      "SELECT id FROM mobile_sessions WHERE revocation_hash = ?", [.text(hash)]
    ).text {
      return id
    }
    return try db.scalar("SELECT session_id FROM session_proofs WHERE hash = ?", [.text(hash)]).text
  }

  func refresh(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let refreshToken = try body.string("refresh_token")
    let installationID = try body.string("installation_id")
    let proposal = try body.optionalString("revocation_proof")
    guard !refreshToken.isEmpty, !installationID.isEmpty else {
      throw APIError.validation("refresh_token and installation_id are required")
    }
    if let proposal, !Self.isCanonicalProof(proposal) {
      throw APIError.validation("Invalid revocation_proof")
    }
    let refreshHash = SHA256.hex(refreshToken)
    guard
      let session = try db.query(
        """
        SELECT * FROM mobile_sessions
        WHERE installation_id = ? AND refresh_hash = ? AND expires_at > ?
        """, [.text(installationID), .text(refreshHash), .int(now)]
      ).first.map(MobileSessionRow.init)
    else { throw APIError.unauthorized }
    return try db.transaction {
      // Atomic consume: the row must still hold the verified hash (the lock makes this exact).
      let consumed = try db.execute(
        "UPDATE mobile_sessions SET refresh_hash = '' WHERE id = ? AND refresh_hash = ?",
        [.text(session.id), .text(refreshHash)])
      guard consumed == 1 else { throw APIError.unauthorized }
      guard let user = try core.user(id: session.userID) else { throw APIError.unauthorized }
      guard !user.mustChangePassword else { throw APIError.forbidden(Self.mustChangeMobile) }
      if let changed = user.passwordChangedAt, session.verifiedAt < changed {
        throw APIError.unauthorized
      }
      var proposalHash: String?
      if let proposal {
        let hash = SHA256.hex(proposal)
        if let owner = try proofOwner(hash), owner != session.id { throw APIError.unauthorized }
        proposalHash = hash
      }
      let newRefresh = Crypto.token(random)
      try db.execute(
        "INSERT OR IGNORE INTO session_proofs VALUES (?, ?, 'consumed_refresh', ?)",
        [.text(refreshHash), .text(session.id), .int(now)])
      if let proposalHash, proposalHash != session.revocationHash {
        try db.execute(
          "INSERT OR IGNORE INTO session_proofs VALUES (?, ?, 'proposal', ?)",
          [.text(proposalHash), .text(session.id), .int(now)])
      }
      try db.execute(
        """
        UPDATE mobile_sessions SET refresh_hash = ?, expires_at = ?, last_used_at = ?,
          revocation_hash = COALESCE(revocation_hash, ?)
        WHERE id = ?
        """,
        [
          .text(SHA256.hex(newRefresh)), .int(now + settings.refreshTTL * Self.second),
          .int(now), .text(refreshHash), .text(session.id),
        ])
      try db.execute(
        "DELETE FROM access_sessions WHERE mobile_session_id = ?", [.text(session.id)])
      let access = try core.issueAccessToken(
        userID: user.id, mobileSessionID: session.id, source: "mobile")
      return Reply.data(
        tokenResponse(
          session: session.id, user: user, access: access, refresh: newRefresh,
          revocation: proposal))
    }
  }
}
