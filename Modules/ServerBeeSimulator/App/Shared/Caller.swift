import ServerBeeModels

/// A stored user.
struct UserRow: Sendable, Equatable {
  var id: String
  var username: String
  var role: String
  var salt: String
  var passwordHash: String
  var totpSecret: String?
  var mustChangePassword: Bool
  var passwordChangedAt: Int64?

  init(_ row: Row) {
    id = row["id"].text ?? ""
    username = row["username"].text ?? ""
    role = row["role"].text ?? "member"
    salt = row["password_salt"].text ?? ""
    passwordHash = row["password_hash"].text ?? ""
    totpSecret = row["totp_secret"].text
    mustChangePassword = row["must_change_password"].bool
    passwordChangedAt = row["password_changed_at"].int
  }

  /// The columns ``init(_:)-(Database.Columns)`` reads, in its order.
  static let columns = """
    id, username, role, password_salt, password_hash, totp_secret, must_change_password, \
    password_changed_at
    """

  /// Reads a row selected with ``columns`` by index, with no dictionary (every authenticated
  /// request and every outbox claim reads the user); the same values as ``init(_:)-(Row)`` on
  /// `SELECT *`.
  init(_ row: Database.Columns) {
    id = row.text(0) ?? ""
    username = row.text(1) ?? ""
    role = row.text(2) ?? "member"
    salt = row.text(3) ?? ""
    passwordHash = row.text(4) ?? ""
    totpSecret = row.text(5)
    mustChangePassword = row.bool(6)
    passwordChangedAt = row.int(7)
  }

  var sessionUser: SessionUser {
    SessionUser(id: id, username: username, role: UserRole(rawValue: role))
  }
}

/// A stored mobile session (one login).
struct MobileSessionRow: Sendable {
  var id: String
  var userID: String
  var refreshHash: String
  var revocationHash: String?
  var installationID: String
  var deviceName: String
  var createdAt: Int64
  var expiresAt: Int64
  var lastUsedAt: Int64
  var verifiedAt: Int64

  init(_ row: Row) {
    id = row["id"].text ?? ""
    userID = row["user_id"].text ?? ""
    refreshHash = row["refresh_hash"].text ?? ""
    revocationHash = row["revocation_hash"].text
    installationID = row["installation_id"].text ?? ""
    deviceName = row["device_name"].text ?? ""
    createdAt = row["created_at"].int ?? 0
    expiresAt = row["expires_at"].int ?? 0
    lastUsedAt = row["last_used_at"].int ?? 0
    verifiedAt = row["verified_at"].int ?? 0
  }

  /// The columns ``init(_:)-(Database.Columns)`` reads, in its order.
  static let columns = """
    id, user_id, refresh_hash, revocation_hash, installation_id, device_name, created_at, \
    expires_at, last_used_at, verified_at
    """

  /// Reads a row selected with ``columns`` by index; the same values as ``init(_:)-(Row)`` on
  /// `SELECT *`.
  init(_ row: Database.Columns) {
    id = row.text(0) ?? ""
    userID = row.text(1) ?? ""
    refreshHash = row.text(2) ?? ""
    revocationHash = row.text(3)
    installationID = row.text(4) ?? ""
    deviceName = row.text(5) ?? ""
    createdAt = row.int(6) ?? 0
    expiresAt = row.int(7) ?? 0
    lastUsedAt = row.int(8) ?? 0
    verifiedAt = row.int(9) ?? 0
  }
}

/// The authenticated caller of a protected route.
struct Caller: Sendable {
  var user: UserRow
  var source: String
  var accessHash: String
  var mobileSessionID: String?
  var expiresAt: Int64
  var viaBearer: Bool
}

/// What a token stands for, as ``SimulatorCore/callers`` keeps it: the caller (its
/// ``Caller/viaBearer`` set by each use) and the row of its mobile session, if any.
struct CallerRows: Sendable {
  var caller: Caller
  var mobileSession: MobileSessionRow?
}
