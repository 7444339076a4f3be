/// An account role: `"admin"` or `"member"` today (Protocol/README.md §10); unknown roles survive
/// decoding.
public struct UserRole: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a role from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Full access, including tasks, alert rules and security notifications.
  public static let admin: Self = "admin"
  /// Read access to servers, alerts and security events; no tasks or rules.
  public static let member: Self = "member"
}

/// The `user` object of a token response: `{id, username, role}`.
public struct SessionUser: Codable, Hashable, Sendable {
  /// The user's UUID.
  public var id: String
  /// The login name.
  public var username: String
  /// The role at the time the tokens were issued.
  public var role: UserRole

  /// Creates a user.
  /// - Parameters:
  ///   - id: The user's UUID.
  ///   - username: The login name.
  ///   - role: The role.
  public init(id: String, username: String, role: UserRole) {
    self.id = id
    self.username = username
    self.role = role
  }
}

/// `GET /api/auth/me`: `{user_id, username, role, must_change_password}` (Protocol/Auth.md §11).
public struct CurrentUser: Codable, Hashable, Sendable {
  /// The user's UUID.
  public var userID: String
  /// The login name.
  public var username: String
  /// The current role.
  public var role: UserRole
  /// The user must finish onboarding in the web UI before using other routes.
  public var mustChangePassword: Bool

  /// Creates the value.
  /// - Parameters:
  ///   - userID: The user's UUID.
  ///   - username: The login name.
  ///   - role: The current role.
  ///   - mustChangePassword: Whether a password change is pending.
  public init(userID: String, username: String, role: UserRole, mustChangePassword: Bool) {
    self.userID = userID
    self.username = username
    self.role = role
    self.mustChangePassword = mustChangePassword
  }

  private enum CodingKeys: String, CodingKey {
    case userID = "user_id"
    case username, role
    case mustChangePassword = "must_change_password"
  }
}
