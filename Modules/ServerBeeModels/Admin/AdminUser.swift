/// A user account as administration sees it (`UserResponse`, Protocol/Administration.md §1).
///
/// ```swift
/// let users = try await api.users()          // oldest first
/// let admins = users.filter { $0.role == .admin }
/// ```
public struct AdminUser: Codable, Hashable, Sendable, Identifiable {
  /// User id (UUID).
  public var id: String
  /// Login name.
  public var username: String
  /// `admin` or `member`.
  public var role: UserRole
  /// Whether two-factor sign-in is on.
  public var hasTwoFactor: Bool
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// Last change (`Z` form).
  public var updatedAt: RFC3339Timestamp

  /// Creates a user value.
  /// - Parameters:
  ///   - id: User id.
  ///   - username: Login name.
  ///   - role: Role.
  ///   - hasTwoFactor: Whether 2FA is on.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  public init(
    id: String, username: String, role: UserRole, hasTwoFactor: Bool,
    createdAt: RFC3339Timestamp, updatedAt: RFC3339Timestamp
  ) {
    self.id = id
    self.username = username
    self.role = role
    self.hasTwoFactor = hasTwoFactor
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  private enum CodingKeys: String, CodingKey {
    case id, username, role
    case hasTwoFactor = "has_2fa"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }
}

/// `POST /api/users` body (admin). The role defaults to `member` on the server when left out.
public struct UserCreateRequest: Encodable, Hashable, Sendable, SecretBearing {
  /// Login name (the server does not validate it).
  public var username: String
  /// Password, at least 8 characters.
  public var password: String
  /// `admin` or `member`; `nil` leaves the key out (the server's default, `member`).
  public var role: UserRole?

  /// Creates the body.
  /// - Parameters:
  ///   - username: Login name.
  ///   - password: Password, at least 8 characters.
  ///   - role: Role, or `nil` for the server's default.
  public init(username: String, password: String, role: UserRole? = nil) {
    self.username = username
    self.password = password
    self.role = role
  }

  /// `UserCreateRequest(username: NAME, secrets redacted)`.
  public var redactedSummary: String {
    "UserCreateRequest(username: \(username), secrets redacted)"
  }

  /// `{"username","password"[,"role"]}`: an absent role is left out.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    try c.encode(username, forKey: AnyCodingKey("username"))
    try c.encode(password, forKey: AnyCodingKey("password"))
    if let role { try c.encode(role, forKey: AnyCodingKey("role")) }
  }
}

/// `PUT /api/users/{id}` body (admin): a new role, a new password, or both. Absent members are
/// left out of the body and left unchanged.
///
/// A password reset ends **every** web and mobile session of that user (their push rows too),
/// the caller's own included when an admin resets their own password this way.
public struct UserUpdateRequest: Encodable, Hashable, Sendable, SecretBearing {
  /// The new role, or `nil` to keep it.
  public var role: UserRole?
  /// The new password (at least 8 characters), or `nil` to keep it.
  public var password: String?

  /// Creates the body.
  /// - Parameters:
  ///   - role: New role, or `nil`.
  ///   - password: New password, or `nil`.
  public init(role: UserRole? = nil, password: String? = nil) {
    self.role = role
    self.password = password
  }

  /// `UserUpdateRequest(role: ROLE, secrets redacted)`.
  public var redactedSummary: String {
    "UserUpdateRequest(role: \(role?.rawValue ?? "unchanged"), secrets redacted)"
  }

  /// `{"role"?, "password"?}`: only the members that are set.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    if let role { try c.encode(role, forKey: AnyCodingKey("role")) }
    if let password { try c.encode(password, forKey: AnyCodingKey("password")) }
  }
}
