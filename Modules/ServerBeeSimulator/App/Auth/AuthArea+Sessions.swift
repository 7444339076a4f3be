import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// A user's logins (Protocol/Auth.md §6–§11, §8): logout, the device list,
// revoking a device or a lost installation's session, the current user, the password, and the
// control API's web sessions and session deletion.

extension AuthArea {
  func logout(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard caller != nil else { throw APIError.bare(401) }
    let (bearer, sessionID) = try core.mobileBearer(context)
    try core.deleteMobileSession(sessionID)
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
    guard let session = try core.mobileSession(id: context.parameter(0)) else {
      throw APIError.notFound("Mobile session not found")
    }
    guard session.userID == caller.user.id else {
      throw APIError.forbidden("Cannot revoke another user's device")
    }
    try core.deleteMobileSession(session.id)
    return Reply.data("ok")
  }

  /// Whether `token` is a deletion credential of `session` (Protocol/Auth.md §8 "Accepted
  /// credentials").
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

  /// Whether anything still references a session id that has no row (Protocol/Auth.md §8
  /// "dangling").
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
      guard let session = try core.mobileSession(id: expected) else {
        guard try !hasDanglingState(expected) else { throw APIError.unauthorized }
        return Reply.data(RevokeOutcome.alreadyAbsent)
      }
      guard session.installationID == installationID, try credentialMatches(token, session) else {
        throw APIError.unauthorized
      }
      try core.deleteMobileSession(session.id)
      return Reply.data(RevokeOutcome.ok)
    }
    let sessions = try db.query(
      "SELECT * FROM mobile_sessions WHERE installation_id = ?", [.text(installationID)]
    ).map(MobileSessionRow.init)
    for session in sessions where try credentialMatches(token, session) {
      try core.deleteMobileSession(session.id)
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

  /// `PUT /api/auth/password`: ends every other session, keeps the caller's own (Protocol/Auth.md
  /// §11).
  func changePassword(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let body = try context.jsonBody()
    let old = try body.string("old_password")
    let new = try body.string("new_password")
    // Checked in this order (Protocol/Account.md §1): empty, the current password, then length in
    // Unicode scalars.
    guard !new.isEmpty else { throw APIError.validation("New password is required") }
    guard core.passwordMatches(caller.user, old) else {
      throw APIError.badRequest("Current password is incorrect")
    }
    try SimulatorCore.checkPasswordLength(new)
    try core.setPassword(userID: caller.user.id, new, keeping: caller)
    try core.audit(caller, "change_password", context)
    return Reply.data("ok")
  }

  func controlWebSession(_ context: RequestContext) throws -> HTTPResponse {
    guard let user = try core.user(id: context.parameter(0)) else {
      throw APIError.notFound("User not found")
    }
    let token = try core.issueAccessToken(userID: user.id, mobileSessionID: nil, source: "web")
    return Reply.object([("session_token", .string(token))])
  }

  func controlDeleteSession(_ context: RequestContext) throws -> HTTPResponse {
    let id = context.parameter(0)
    if context.query["keep_references"] == "true" {
      // Test hook: an interrupted delete that leaves dangling state behind (Protocol/Auth.md §8
      // table).
      try db.execute("DELETE FROM mobile_sessions WHERE id = ?", [.text(id)])
    } else {
      try core.deleteMobileSession(id)
    }
    return Reply.object([("deleted", .bool(true))])
  }
}
