import Foundation
import ServerBeeModels
import ServerBeeTransport

// The control API's users (`POST /__simulator/users`, `PATCH`/`DELETE /__simulator/users/{id}`)
// and API keys (`POST /__simulator/users/{id}/api-key`): the fixtures every other area's tests
// sign in with.

extension AccountArea {
  func controlCreateUser(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let username = try body.string("username")
    let password = try body.string("password")
    guard !username.isEmpty, !password.isEmpty else {
      throw APIError.validation("username and password are required")
    }
    let role = try body.optionalString("role") ?? "member"
    let id = try core.createUser(
      username: username, password: password, role: role,
      totpSecret: try body.optionalString("totp_secret"),
      mustChangePassword: try body.bool("must_change_password") ?? false)
    return Reply.object([
      ("id", .string(id)), ("username", .string(username)), ("role", .string(role)),
    ])
  }

  func controlUpdateUser(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    guard let user = try core.user(id: context.parameter(0)) else {
      throw APIError.notFound("User not found")
    }
    if let role = try body.optionalString("role") {
      guard role == "admin" || role == "member" else {
        throw APIError.validation("role must be admin or member")
      }
      try db.execute("UPDATE users SET role = ? WHERE id = ?", [.text(role), .text(user.id)])
    }
    let disableTOTP = try body.bool("disable_totp") ?? false
    if body.has("totp_secret") || disableTOTP {
      let secret = try body.optionalString("totp_secret")
      try db.execute("UPDATE users SET totp_secret = ? WHERE id = ?", [secret.sql, .text(user.id)])
    }
    if let password = try body.optionalString("password") {
      // An admin reset: every session of the user ends (Protocol/Auth.md §11).
      try core.setPassword(userID: user.id, password, keeping: nil)
    }
    if let flag = try body.bool("must_change_password") {
      try db.execute(
        "UPDATE users SET must_change_password = ? WHERE id = ?", [flag.sql, .text(user.id)])
    }
    return Reply.object([("id", .string(user.id))])
  }

  func controlDeleteUser(_ context: RequestContext) throws -> HTTPResponse {
    let id = context.parameter(0)
    try db.transaction { try deleteUserEverywhere(id) }
    return Reply.object([("deleted", .bool(true))])
  }

  func controlAPIKey(_ context: RequestContext) throws -> HTTPResponse {
    guard let user = try core.user(id: context.parameter(0)) else {
      throw APIError.notFound("User not found")
    }
    let (_, key) = try db.transaction { try insertAPIKey(userID: user.id, name: "control") }
    return Reply.object([("api_key", .string(key))])
  }
}
