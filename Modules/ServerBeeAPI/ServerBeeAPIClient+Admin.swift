public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

// Administration (Protocol/Administration.md): users, the audit log, rate limits, GeoIP and ASN.
// Every route but the two database statuses is **admin only**: a member gets `.forbidden`.

extension ServerBeeAPIClient {
  /// `GET /api/users`: every account, oldest first (Protocol/Administration.md §1.1). Admin only.
  ///
  /// ```swift
  /// let users = try await api.users()
  /// ```
  /// - Returns: The users.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func users() async throws -> [AdminUser] {
    try await send(RouteCatalogue.Administration.users)
  }

  /// `POST /api/users`: creates an account (Protocol/Administration.md §1.2). Admin only.
  ///
  /// ```swift
  /// let bob = try await api.createUser(username: "bob", password: "correct horse", role: .member)
  /// ```
  /// - Parameters:
  ///   - username: Login name.
  ///   - password: Password, at least 8 characters.
  ///   - role: Role; `nil` for the server's default (`member`).
  /// - Returns: The new user.
  /// - Throws: ``ServerBeeAPIError``: `.conflict` (the name exists), `.validation` (bad role,
  ///   short password). Or `CancellationError`.
  public func createUser(username: String, password: String, role: UserRole? = nil)
    async throws -> AdminUser
  {
    try await send(
      RouteCatalogue.Administration.createUser,
      body: UserCreateRequest(username: username, password: password, role: role))
  }

  /// `PUT /api/users/{id}`: changes a user's role, resets their password, or both
  /// (Protocol/Administration.md §1.3). Admin only.
  ///
  /// A password reset ends **every** session of that user, web and mobile, with their push
  /// registrations; an admin resetting their own password this way signs themselves out.
  ///
  /// ```swift
  /// _ = try await api.updateUser(id: bob.id, role: .admin)
  /// ```
  /// - Parameters:
  ///   - id: The user id.
  ///   - role: The new role, or `nil` to keep it.
  ///   - password: The new password, or `nil` to keep it.
  /// - Returns: The user after the change.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` when neither is given, `.notFound`,
  ///   `.badRequest` (demoting the last admin), `.validation`. Or `CancellationError`.
  public func updateUser(id: String, role: UserRole? = nil, password: String? = nil)
    async throws -> AdminUser
  {
    try Self.requireNonEmpty(id, "the user id")
    guard role != nil || password != nil else {
      throw ServerBeeAPIError(.invalidArgument, "give a new role, a new password, or both")
    }
    return try await send(
      RouteCatalogue.Administration.updateUser, PathID(id),
      body: UserUpdateRequest(role: role, password: password))
  }

  /// `DELETE /api/users/{id}` (Protocol/Administration.md §1.4). Admin only.
  ///
  /// ```swift
  /// try await api.deleteUser(id: bob.id)
  /// ```
  /// - Parameter id: The user id.
  /// - Throws: ``ServerBeeAPIError``: `.notFound`, `.badRequest` (the last admin). Or
  ///   `CancellationError`.
  public func deleteUser(id: String) async throws {
    try Self.requireNonEmpty(id, "the user id")
    _ = try await send(RouteCatalogue.Administration.deleteUser, PathID(id))
  }

  /// `GET /api/audit-logs`: one page of the audit log, newest first (Protocol/Administration.md
  /// §2.1). Admin only.
  ///
  /// ```swift
  /// let page = try await api.auditLog(limit: 50, offset: 0, action: "user.create")
  /// print(page.total, page.entries.first?.action ?? "")
  /// ```
  /// - Parameters:
  ///   - limit: Entries per page, 1–200 (the server caps at 200); `nil` for its default, 50.
  ///   - offset: Entries to skip; `nil` for 0.
  ///   - action: Only this action (exact match).
  ///   - userID: Only this user (exact match).
  /// - Returns: The page and the filtered total.
  /// - Throws: ``ServerBeeAPIError`` (`.invalidArgument` for a negative number), or
  ///   `CancellationError`.
  public func auditLog(
    limit: Int? = nil, offset: Int? = nil, action: String? = nil, userID: String? = nil
  ) async throws -> AuditLogPage {
    if let limit, limit < 0 {
      throw ServerBeeAPIError(.invalidArgument, "the audit log limit must not be negative")
    }
    if let offset, offset < 0 {
      throw ServerBeeAPIError(.invalidArgument, "the audit log offset must not be negative")
    }
    return try await send(
      RouteCatalogue.Administration.auditLog,
      query: [
        ("limit", limit.map(String.init)), ("offset", offset.map(String.init)),
        ("action", action), ("user_id", userID),
      ])
  }

  /// `GET /api/audit-logs/options`: the actions and users the log holds, for filters
  /// (Protocol/Administration.md §2.2). Admin only.
  ///
  /// ```swift
  /// let options = try await api.auditLogOptions()
  /// ```
  /// - Returns: Distinct actions (sorted) and users.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func auditLogOptions() async throws -> AuditLogOptions {
    try await send(RouteCatalogue.Administration.auditLogOptions)
  }

  /// `GET /api/admin/rate-limit`: the live rate-limit buckets (Protocol/Administration.md §3.1).
  /// Admin only.
  ///
  /// ```swift
  /// let blocked = try await api.rateLimits().entries.filter(\.blocked)
  /// ```
  /// - Returns: Buckets and limits.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func rateLimits() async throws -> RateLimitStatus {
    try await send(RouteCatalogue.Administration.rateLimits)
  }

  /// `POST /api/admin/rate-limit/reset`: clears counters (Protocol/Administration.md §3.2). Admin
  /// only.
  ///
  /// ```swift
  /// let cleared = try await api.resetRateLimits(scope: .login, ip: "203.0.113.7")
  /// ```
  /// - Parameters:
  ///   - scope: The scope, or `nil` for every scope.
  ///   - ip: The address, or `nil` for the whole scope.
  /// - Returns: How many buckets were cleared.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func resetRateLimits(scope: RateLimitScope? = nil, ip: String? = nil) async throws
    -> Int
  {
    let result = try await send(
      RouteCatalogue.Administration.resetRateLimits,
      body: RateLimitResetRequest(scope: scope, ip: ip))
    return result.cleared
  }

  /// `GET /api/geoip/status` (Protocol/Administration.md §4.1). Any account.
  ///
  /// ```swift
  /// let geo = try await api.geoIPStatus()
  /// ```
  /// - Returns: Whether the GeoIP database is installed, and which file.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func geoIPStatus() async throws -> GeoDatabaseStatus {
    try await send(RouteCatalogue.Administration.geoIPStatus)
  }

  /// `GET /api/asn/status` (Protocol/Administration.md §4.1). Any account.
  ///
  /// ```swift
  /// let asn = try await api.asnStatus()
  /// ```
  /// - Returns: Whether the ASN database is installed, and which file.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func asnStatus() async throws -> GeoDatabaseStatus {
    try await send(RouteCatalogue.Administration.asnStatus)
  }

  /// `POST /api/geoip/download`: downloads the GeoIP database; the call lasts until it is done
  /// (Protocol/Administration.md §4.2). Admin only. A failed download is still HTTP 200: read
  /// `GeoDatabaseDownloadResult.success`.
  ///
  /// ```swift
  /// let result = try await api.downloadGeoIP()
  /// if !result.success { print(result.message) }
  /// ```
  /// - Returns: Whether it worked, and the server's message.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func downloadGeoIP() async throws -> GeoDatabaseDownloadResult {
    try await send(RouteCatalogue.Administration.downloadGeoIP)
  }

  /// `POST /api/asn/download`: downloads the ASN database (Protocol/Administration.md §4.2). Admin
  /// only.
  ///
  /// ```swift
  /// let result = try await api.downloadASN()
  /// ```
  /// - Returns: Whether it worked, and the server's message.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func downloadASN() async throws -> GeoDatabaseDownloadResult {
    try await send(RouteCatalogue.Administration.downloadASN)
  }
}
