import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// Users, their sessions and the audit log, shared by every area: the rows several areas read,
/// write or delete together.
extension SimulatorCore {
  /// The SQL of ``user(id:)``, written once (the statement cache is keyed by its text).
  static let userByID = "SELECT \(UserRow.columns) FROM users WHERE id = ?"

  /// The SQL of ``mobileSession(id:)``.
  static let mobileSessionByID =
    "SELECT \(MobileSessionRow.columns) FROM mobile_sessions WHERE id = ?"

  /// The user with this id, or `nil`.
  func user(id: String) throws -> UserRow? {
    try db.read(Self.userByID, [.text(id)]) { UserRow($0) }.first
  }

  /// The user with this username, or `nil`.
  func user(named name: String) throws -> UserRow? {
    try db.query("SELECT * FROM users WHERE username = ?", [.text(name)]).first.map(UserRow.init)
  }

  /// Stores a new user (the control API and seeding) and returns its id; 422 for an unknown
  /// role or a TOTP secret that is not base32, 409 for a taken username.
  func createUser(
    username: String, password: String, role: String, totpSecret: String? = nil,
    mustChangePassword: Bool = false
  ) throws -> String {
    guard role == "admin" || role == "member" else {
      throw APIError.validation("role must be admin or member")
    }
    if let totpSecret, TOTP.decodeBase32(totpSecret) == nil {
      throw APIError.validation("totp_secret must be base32")
    }
    guard try user(named: username) == nil else { throw APIError.conflict("User already exists") }
    let id = Crypto.uuid(random)
    let (salt, hash) = hashPassword(password)
    try db.execute(
      """
      INSERT INTO users (id, username, role, password_salt, password_hash, totp_secret,
        must_change_password, password_changed_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)
      """,
      [
        .text(id), .text(username), .text(role), .text(salt), .text(hash), totpSecret.sql,
        mustChangePassword.sql, .int(now),
      ])
    return id
  }

  /// Sets a password; ends all sessions but `keeping`'s (nil: an admin reset ends them all).
  func setPassword(userID: String, _ password: String, keeping: Caller?) throws {
    let (salt, hash) = hashPassword(password)
    try db.transaction {
      try db.execute(
        """
        UPDATE users SET password_salt = ?, password_hash = ?, password_changed_at = ?,
          must_change_password = 0 WHERE id = ?
        """, [.text(salt), .text(hash), .int(now), .text(userID)])
      try deleteAllSessions(ofUser: userID, except: keeping)
      if let kept = keeping?.mobileSessionID {
        try db.execute(
          "UPDATE mobile_sessions SET verified_at = ? WHERE id = ?", [.int(now), .text(kept)])
      }
    }
  }

  /// The mobile session (one login) with this id, or `nil`.
  func mobileSession(id: String) throws -> MobileSessionRow? {
    try db.read(Self.mobileSessionByID, [.text(id)]) { MobileSessionRow($0) }.first
  }

  /// Deletes one mobile session and everything that references it (Protocol/Auth.md §8 "Deletion"),
  /// including its legacy push token and its encrypted registration (releasing the
  /// installation's row, Protocol/Push.md §2.1) (logout, device revoke, `/auth/revoke`, recover,
  /// password changes); refresh never calls it, so registrations survive a refresh
  /// (Protocol/README.md §2).
  func deleteMobileSession(_ id: String) throws {
    try db.execute("DELETE FROM access_sessions WHERE mobile_session_id = ?", [.text(id)])
    try db.execute("DELETE FROM session_proofs WHERE session_id = ?", [.text(id)])
    try db.execute("DELETE FROM push_legacy_tokens WHERE mobile_session_id = ?", [.text(id)])
    try db.execute("DELETE FROM push_registrations WHERE mobile_session_id = ?", [.text(id)])
    try db.execute("DELETE FROM mobile_sessions WHERE id = ?", [.text(id)])
  }

  /// Ends every session of a user but `keep`'s: mobile logins with their push rows, web
  /// sessions and push tokens; API keys stay.
  func deleteAllSessions(ofUser userID: String, except keep: Caller? = nil) throws {
    let sessions = try db.query(
      "SELECT id FROM mobile_sessions WHERE user_id = ?", [.text(userID)])
    for row in sessions {
      guard let id = row["id"].text, id != keep?.mobileSessionID else { continue }
      try deleteMobileSession(id)
    }
    // API keys are not sessions: a password change or reset leaves them (Protocol/Account.md §1).
    try db.execute(
      "DELETE FROM access_sessions WHERE user_id = ? AND token_hash != ? AND source != 'api_key'",
      [.text(userID), .text(keep?.accessHash ?? "")])
    // A password change also deletes the user's push tokens (Protocol/Account.md §1); the kept
    // login keeps its.
    try db.execute(
      "DELETE FROM push_legacy_tokens WHERE user_id = ? AND mobile_session_id != ?",
      [.text(userID), .text(keep?.mobileSessionID ?? "")])
    try db.execute(
      "DELETE FROM push_registrations WHERE user_id = ? AND mobile_session_id != ?",
      [.text(userID), .text(keep?.mobileSessionID ?? "")])
  }

  /// Records one action by `caller` from the request's address.
  func audit(_ caller: Caller, _ action: String, detail: String? = nil, _ context: RequestContext)
    throws
  {
    try db.execute(
      "INSERT INTO audit_logs (user_id, action, detail, ip, created_at) VALUES (?, ?, ?, ?, ?)",
      [.text(caller.user.id), .text(action), detail.sql, .text(context.remoteAddress), .int(now)])
  }
}
