import Foundation
import ServerBeeModels
import ServerBeeTransport

// User administration (Protocol/Administration.md §1), admin only.

extension AccountArea {
  /// `GET /api/users`: every user, oldest first.
  func listUsers(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM users ORDER BY created_at, rowid")
    return Reply.data(rows.map(Self.adminUser))
  }

  /// `POST /api/users {username, password, role?}`.
  func createUserRoute(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let body = try context.jsonBody()
    let username = try body.string("username")
    let password = try body.string("password")
    let role = try body.optionalString("role") ?? "member"
    try Self.checkRole(role)
    try SimulatorCore.checkPasswordLength(password)
    guard try core.user(named: username) == nil else {
      throw APIError.conflict("User '\(username)' already exists")
    }
    let id = try core.createUser(username: username, password: password, role: role)
    try core.audit(caller, "user.create", detail: username, context)
    return Reply.data(try adminUser(id: id))
  }

  /// `PUT /api/users/{id} {role?, password?}`: a password reset ends every session of the
  /// user (the caller's own too, when an admin resets their own password this way).
  func updateUserRoute(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let id = context.parameter(0)
    guard let target = try core.user(id: id) else { throw APIError.notFound("User not found") }
    let body = try context.jsonBody()
    let role = try body.optionalString("role")
    let password = try body.optionalString("password")
    if let role {
      try Self.checkRole(role)
      if target.role == "admin", role != "admin", try adminCount() <= 1 {
        throw APIError.badRequest("Cannot demote the last admin user")
      }
    }
    if let password { try SimulatorCore.checkPasswordLength(password) }
    // Both values were checked above; `setPassword` runs its own transaction.
    if let password { try core.setPassword(userID: id, password, keeping: nil) }
    try db.execute(
      "UPDATE users SET role = COALESCE(?, role), updated_at = ? WHERE id = ?",
      [role.sql, .int(now), .text(id)])
    try core.audit(caller, "user.update", detail: target.username, context)
    return Reply.data(try adminUser(id: id))
  }

  /// `DELETE /api/users/{id}`. Upstream leaves the user's mobile sessions in place and may then
  /// fail (Protocol/AppRoutes.md §2.10, inferred); the simulator deletes them with the user, as
  /// the control API does, so a client sees the intended effect.
  func deleteUserRoute(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let id = context.parameter(0)
    guard let target = try core.user(id: id) else { throw APIError.notFound("User not found") }
    if target.role == "admin", try adminCount() <= 1 {
      throw APIError.badRequest("Cannot delete the last admin user")
    }
    try db.transaction { try deleteUserEverywhere(id) }
    try core.audit(caller, "user.delete", detail: target.username, context)
    return Reply.data("ok")
  }

  /// Removes a user with its sessions (web and mobile, with their push rows) and API keys.
  func deleteUserEverywhere(_ id: String) throws {
    try core.deleteAllSessions(ofUser: id)
    try db.execute(
      "DELETE FROM access_sessions WHERE user_id = ? AND source = 'api_key'", [.text(id)])
    try db.execute("DELETE FROM api_keys WHERE user_id = ?", [.text(id)])
    try db.execute("DELETE FROM users WHERE id = ?", [.text(id)])
  }

  private func adminCount() throws -> Int64 {
    try db.scalar("SELECT COUNT(*) FROM users WHERE role = 'admin'").int ?? 0
  }

  private func adminUser(id: String) throws -> AdminUser {
    guard let row = try db.query("SELECT * FROM users WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("User not found")
    }
    return Self.adminUser(row)
  }

  static func adminUser(_ row: Row) -> AdminUser {
    let created = row["created_at"].int ?? 0
    return AdminUser(
      id: row["id"].text ?? "", username: row["username"].text ?? "",
      role: UserRole(rawValue: row["role"].text ?? "member"),
      hasTwoFactor: row["totp_secret"].text != nil, createdAt: timestamp(created, .zulu),
      updatedAt: timestamp(row["updated_at"].int ?? created, .zulu))
  }

  static func checkRole(_ role: String) throws {
    guard role == "admin" || role == "member" else {
      throw APIError.validation("Invalid role '\(role)', must be 'admin' or 'member'")
    }
  }

}
