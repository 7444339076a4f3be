import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// Mobile authentication, wire contract v1 §2 and wire contract v2 §2.1–§2.6.
extension SimulatorCore {
  static let mustChangeMobile =
    "MUST_CHANGE_PASSWORD: complete onboarding via the web UI before using mobile"
  static let proofPrefix = "sb-revoke-v1."

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
    let access = try issueAccessToken(userID: user.id, mobileSessionID: id, source: "mobile")
    return tokenResponse(
      session: id, user: user, access: access, refresh: refresh, revocation: revocation)
  }

  /// Password + TOTP verification shared by login and password-mode recovery (wire contract v1 §2.3 4–6).
  func verifyCredentials(username: String, password: String, totpCode: String?) throws -> UserRow {
    guard let user = try user(named: username), passwordMatches(user, password) else {
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
    guard consumeLoginAttempt(context.remoteAddress) else {
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
      guard let user = try user(id: session.userID) else { throw APIError.unauthorized }
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
      let access = try issueAccessToken(
        userID: user.id, mobileSessionID: session.id, source: "mobile")
      return Reply.data(
        tokenResponse(
          session: session.id, user: user, access: access, refresh: newRefresh,
          revocation: proposal))
    }
  }

  func generatePairCode(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    return Reply.data(makePairCode(for: caller.user))
  }

  /// One live code per user; expired codes are purged (wire contract v1 §2.5).
  func makePairCode(for user: UserRow) -> PairCodeResponse {
    let code = "sb_pair_" + Crypto.token(random)
    let now = self.now
    let ttl = settings.pairCodeTTL * Self.second
    pairCodes.withLock { codes in
      codes = codes.filter { $0.value.userID != user.id && now - $0.value.createdAt < ttl }
      codes[code] = PairCode(userID: user.id, createdAt: now, snapshot: user)
    }
    return PairCodeResponse(code: code, expiresInSeconds: settings.pairCodeTTL)
  }

  /// Removes a code before its age is checked (it is used up either way).
  func takePairCode(_ code: String) -> (PairCode, expired: Bool)? {
    let now = self.now
    let ttl = settings.pairCodeTTL * Self.second
    guard let entry = pairCodes.withLock({ $0.removeValue(forKey: code) }) else { return nil }
    return (entry, now - entry.createdAt >= ttl)
  }

  func redeemPairCode(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let code = try body.string("code")
    let installationID = try body.string("installation_id")
    let deviceName = try body.string("device_name")
    guard !code.isEmpty, !installationID.isEmpty, !deviceName.isEmpty else {
      throw APIError.validation("code, installation_id, and device_name are required")
    }
    guard let (entry, expired) = takePairCode(code) else {
      throw APIError.badRequest("Invalid pairing code")
    }
    guard !expired else { throw APIError.badRequest("Pairing code has expired") }
    guard let user = try user(id: entry.userID) else { throw APIError.badRequest("User not found") }
    return Reply.data(
      try createMobileSession(user: user, installationID: installationID, deviceName: deviceName))
  }

  func logout(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard caller != nil else { throw APIError.bare(401) }
    let (bearer, sessionID) = try mobileBearer(context)
    try deleteMobileSession(sessionID)
    try db.execute("DELETE FROM access_sessions WHERE token_hash = ?", [.text(bearer.accessHash)])
    return Reply.data("ok")
  }

  func listDevices(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let rows = try db.query(
      """
      SELECT * FROM mobile_sessions WHERE user_id = ? AND expires_at > ?
      ORDER BY last_used_at DESC, created_at DESC
      """, [.text(caller.user.id), .int(now)])
    let devices = rows.map(MobileSessionRow.init).map {
      MobileDevice(
        id: $0.id, deviceName: $0.deviceName, installationID: $0.installationID,
        createdAt: timestamp($0.createdAt, .utcOffset),
        lastUsedAt: timestamp($0.lastUsedAt, .utcOffset))
    }
    return Reply.data(devices)
  }

  func revokeDevice(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    guard let session = try mobileSession(id: context.parameter(0)) else {
      throw APIError.notFound("Mobile session not found")
    }
    guard session.userID == caller.user.id else {
      throw APIError.forbidden("Cannot revoke another user's device")
    }
    try deleteMobileSession(session.id)
    return Reply.data("ok")
  }

  /// Whether `token` is a deletion credential of `session` (wire contract v2 §2.5 "Accepted credentials").
  func credentialMatches(_ token: String, _ session: MobileSessionRow) throws -> Bool {
    let hash = SHA256.hex(token)
    if hash == session.revocationHash { return true }
    if try db.scalar(
      "SELECT 1 FROM session_proofs WHERE hash = ? AND session_id = ?",
      [.text(hash), .text(session.id)]
    ).int != nil {
      return true
    }
    return !token.hasPrefix(Self.proofPrefix) && hash == session.refreshHash
  }

  /// Whether anything still references a session id that has no row (wire contract v2 §2.5 "dangling").
  func hasDanglingState(_ sessionID: String) throws -> Bool {
    let access = try db.scalar(
      "SELECT 1 FROM access_sessions WHERE mobile_session_id = ? LIMIT 1", [.text(sessionID)])
    let proofs = try db.scalar(
      "SELECT 1 FROM session_proofs WHERE session_id = ? LIMIT 1", [.text(sessionID)])
    let pushTokens = try db.scalar(
      "SELECT 1 FROM push_legacy_tokens WHERE mobile_session_id = ? LIMIT 1", [.text(sessionID)])
    let registrations = try db.scalar(
      "SELECT 1 FROM push_registrations WHERE mobile_session_id = ? LIMIT 1", [.text(sessionID)])
    return access.int != nil || proofs.int != nil || pushTokens.int != nil
      || registrations.int != nil
  }

  func revoke(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let installationID = try body.string("installation_id")
    let token = try body.string("revocation_token")
    let expected = try body.optionalString("expected_session_id")
    guard !installationID.isEmpty, !token.isEmpty else {
      throw APIError.validation("installation_id and revocation_token are required")
    }
    if let expected, !UUIDText.isCanonical(expected) {
      throw APIError.validation("Invalid expected_session_id")
    }
    if let expected {
      guard let session = try mobileSession(id: expected) else {
        guard try !hasDanglingState(expected) else { throw APIError.unauthorized }
        return Reply.data(RevokeOutcome.alreadyAbsent)
      }
      guard session.installationID == installationID, try credentialMatches(token, session) else {
        throw APIError.unauthorized
      }
      try deleteMobileSession(session.id)
      return Reply.data(RevokeOutcome.ok)
    }
    let sessions = try db.query(
      "SELECT * FROM mobile_sessions WHERE installation_id = ?", [.text(installationID)]
    ).map(MobileSessionRow.init)
    for session in sessions where try credentialMatches(token, session) {
      try deleteMobileSession(session.id)
      return Reply.data(RevokeOutcome.ok)
    }
    throw APIError.unauthorized
  }

  func me(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let user = caller.user
    return Reply.data(
      CurrentUser(
        userID: user.id, username: user.username, role: UserRole(rawValue: user.role),
        mustChangePassword: user.mustChangePassword))
  }

  /// `PUT /api/auth/password`: ends every other session, keeps the caller's own (wire contract v1 §2.11).
  func changePassword(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let body = try context.jsonBody()
    let old = try body.string("old_password")
    let new = try body.string("new_password")
    // Checked in this order (app routes §3.1 #9): empty, the current password, then length in
    // Unicode scalars.
    guard !new.isEmpty else { throw APIError.validation("New password is required") }
    guard passwordMatches(caller.user, old) else {
      throw APIError.badRequest("Current password is incorrect")
    }
    try Self.checkPasswordLength(new)
    try setPassword(userID: caller.user.id, new, keeping: caller)
    try audit(caller, "change_password", context)
    return Reply.data("ok")
  }

}
