import ServerBeeModels
import ServerBeeTransport

// Legacy push registration, Protocol/Push.md §1 with the Protocol/Push.md §2.8 unregister
// scope.
//
// One `push_legacy_tokens` row per installation, linked to the user and the login (mobile
// session) that last registered it. Refresh keeps it; logout, device revoke, `/auth/revoke`,
// recover and password changes delete the affected logins' rows (`deleteMobileSession`).
// After an encrypted registration of (installation, user), register answers 409 for ever
// (Protocol/Push.md §2.8); the check sits after the mobile-session check and before the owner
// check **[inferred]**. Unregister also deletes this login's encrypted registration.

extension PushArea {
  /// `POST /api/mobile/push/register {"device_token"}`, checks in Protocol/Push.md §1's order.
  func registerLegacyPush(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard caller != nil else { throw APIError.bare(401) }
    let deviceToken = try context.jsonBody().string("device_token")
    guard !deviceToken.isEmpty else { throw APIError.validation("device_token is required") }
    let (bearer, session) = try pushLogin(context)
    let migrated = try db.scalar(
      "SELECT 1 FROM push_migrations WHERE installation_id = ? AND user_id = ?",
      [.text(session.installationID), .text(bearer.user.id)])
    if migrated.int != nil {
      throw APIError.conflict("This installation uses encrypted relay delivery")
    }
    let owner = try db.scalar(
      "SELECT user_id FROM push_legacy_tokens WHERE installation_id = ?",
      [.text(session.installationID)]
    ).text
    if let owner, owner != bearer.user.id {
      throw APIError.forbidden("This device is registered to another account")
    }
    try db.execute(
      """
      INSERT INTO push_legacy_tokens VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT(installation_id) DO UPDATE SET user_id = excluded.user_id,
        mobile_session_id = excluded.mobile_session_id, device_token = excluded.device_token,
        updated_at = excluded.updated_at
      """,
      [
        .text(session.installationID), .text(bearer.user.id), .text(session.id),
        .text(deviceToken), .int(now), .int(now),
      ])
    return Reply.data("ok")
  }

  /// `POST /api/mobile/push/unregister` (no body): deletes this installation's legacy row and
  /// encrypted registration for the caller and this login only; `"ok"` even when nothing was registered.
  func unregisterLegacyPush(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard caller != nil else { throw APIError.bare(401) }
    let (bearer, session) = try pushLogin(context)
    try db.execute(
      """
      DELETE FROM push_legacy_tokens
      WHERE installation_id = ? AND user_id = ? AND mobile_session_id = ?
      """, [.text(session.installationID), .text(bearer.user.id), .text(session.id)])
    try db.execute(
      """
      DELETE FROM push_registrations
      WHERE installation_id = ? AND user_id = ? AND mobile_session_id = ?
      """, [.text(session.installationID), .text(bearer.user.id), .text(session.id)])
    return Reply.data("ok")
  }

  /// The Bearer's mobile login; a token whose session row is gone is 401.
  private func pushLogin(_ context: RequestContext) throws -> (Caller, MobileSessionRow) {
    let (bearer, sessionID) = try core.mobileBearer(context)
    guard let session = try core.mobileSession(id: sessionID) else { throw APIError.unauthorized }
    return (bearer, session)
  }
}
