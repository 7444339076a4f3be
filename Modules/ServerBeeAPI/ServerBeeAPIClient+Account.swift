public import ServerBeeModels
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/auth/me`: the signed-in account (wire contract v1 §2.11). Reachable even while the account
  /// must change its password.
  ///
  /// ```swift
  /// let me = try await api.currentUser()
  /// let showsTasks = me.role == .admin
  /// ```
  /// - Returns: The user id, name, role and password-change flag.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func currentUser() async throws -> CurrentUser {
    try await send(Endpoint(.get, "auth", "me"))
  }

  /// `GET /api/mobile/auth/devices`: the account's unexpired mobile sessions, most recently
  /// used first (wire contract v1 §2.8, wire contract v2 §2.6).
  ///
  /// There is no "this device" flag: compare `installationID` (and, on v2 servers, `id` with
  /// the stored `mobile_session_id`).
  ///
  /// ```swift
  /// let devices = try await api.devices()
  /// let others = devices.filter { $0.installationID != myInstallationID }
  /// ```
  /// - Returns: The devices.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func devices() async throws -> [MobileDevice] {
    try await send(Endpoint(.get, "mobile", "auth", "devices"))
  }

  /// `DELETE /api/mobile/auth/devices/{id}`: ends one of the account's own mobile sessions,
  /// with its tokens and push registrations (wire contract v1 §2.9, wire contract v2 §2.6).
  ///
  /// Revoking the session this client uses ends its own token at once.
  ///
  /// ```swift
  /// try await api.revokeDevice(id: lostPhone.id)
  /// ```
  /// - Parameter id: The device (mobile session) id from ``devices()``.
  /// - Throws: ``ServerBeeAPIError``: `.notFound` for an unknown id, `.forbidden` for another
  ///   user's session (admins included). Or `CancellationError`.
  public func revokeDevice(id: String) async throws {
    try Self.requireNonEmpty(id, "the device id")
    let _: String = try await send(Endpoint(.delete, "mobile", "auth", "devices", id))
  }
}
