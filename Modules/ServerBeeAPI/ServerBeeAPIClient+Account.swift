public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/auth/me`: the signed-in account (Protocol/Auth.md §11). Reachable even while the
  /// account must change its password.
  ///
  /// ```swift
  /// let me = try await api.currentUser()
  /// let showsTasks = me.role == .admin
  /// ```
  /// - Returns: The user id, name, role and password-change flag.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func currentUser() async throws -> CurrentUser {
    try await send(RouteCatalogue.Account.currentUser)
  }

  /// `GET /api/mobile/auth/devices`: the account's unexpired mobile sessions, most recently
  /// used first (Protocol/Auth.md §7.1, §7).
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
    try await send(RouteCatalogue.Auth.devices)
  }

  /// `DELETE /api/mobile/auth/devices/{id}`: ends one of the account's own mobile sessions,
  /// with its tokens and push registrations (Protocol/Auth.md §7.2, §7).
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
    _ = try await send(RouteCatalogue.Auth.revokeDevice, PathID(id))
  }

  /// `POST /api/mobile/pair`: creates a pairing code as the signed-in account, for another
  /// device to sign in with (Protocol/Auth.md §5.1).
  ///
  /// Any credential may ask (a mobile bearer token, an API key, a web session). The server keeps
  /// one live code per account: creating one invalidates the account's earlier codes. The code
  /// works once, for ``PairingCode/expiresInSeconds`` (300 s by default). A v2 server also
  /// accepts it for QR-mode session recovery of this account.
  ///
  /// ```swift
  /// let pairing = try await api.createPairingCode()
  /// showQRCode(pairing.qrText)
  /// // On the other device: try await auth.pair(scannedPayload: pairing.qrText)
  /// ```
  /// - Returns: The code, its lifetime, and the QR payload for ``server``.
  /// - Throws: ``ServerBeeAPIError``: `.unauthorized`, `.mustChangePassword`, `.serverTooOld`
  ///   (no such route), `.decoding` when the answer holds no usable code or lifetime, the other
  ///   status codes, `.transport`. Or `CancellationError`.
  public func createPairingCode() async throws -> PairingCode {
    let route = RouteCatalogue.Auth.createPairingCode
    let answer = try await send(route)
    let pairing = PairingCode(
      payload: PairingPayload(server: server, code: answer.code),
      expiresInSeconds: answer.expiresInSeconds)
    // The QR text must be one our own pairing accepts; the message never repeats the code.
    guard answer.expiresInSeconds > 0, (try? PairingPayload(scanned: pairing.qrText)) != nil
    else {
      throw ServerBeeAPIError(
        .decoding, "\(route.requestLine): the answer holds no usable pairing code",
        httpStatus: 200)
    }
    return pairing
  }
}

// MARK: Password, two-factor sign-in, API keys, legacy push (Protocol/Account.md)

extension ServerBeeAPIClient {
  /// `PUT /api/auth/password`: changes the account's password (Protocol/Account.md §1).
  ///
  /// Every **other** session of the account ends with it, web and mobile alike (their push
  /// registrations too); the caller's own mobile session survives and its refresh token stays
  /// valid. With an API key, every web session ends.
  ///
  /// ```swift
  /// try await api.changePassword(from: current, to: newPassword)
  /// ```
  /// - Parameters:
  ///   - oldPassword: The current password.
  ///   - newPassword: The new password, at least 8 characters.
  /// - Throws: ``ServerBeeAPIError``: `.badRequest` (`Current password is incorrect`),
  ///   `.validation` (empty or shorter than 8), `.mustChangePassword` (finish onboarding in the
  ///   web UI). Or `CancellationError`.
  public func changePassword(from oldPassword: String, to newPassword: String) async throws {
    _ = try await send(
      RouteCatalogue.Account.changePassword,
      body: PasswordChangeRequest(oldPassword: oldPassword, newPassword: newPassword))
  }

  /// `GET /api/auth/2fa/status` (Protocol/Account.md §2.1).
  ///
  /// ```swift
  /// if try await api.twoFactorStatus().enabled { print("2FA is on") }
  /// ```
  /// - Returns: Whether two-factor sign-in is on.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func twoFactorStatus() async throws -> TwoFactorStatus {
    try await send(RouteCatalogue.Account.twoFactorStatus)
  }

  /// `POST /api/auth/2fa/setup`: a new pending TOTP secret, kept by the server for 10 minutes;
  /// a new setup replaces the previous one (Protocol/Account.md §2.2).
  ///
  /// ```swift
  /// let setup = try await api.setUpTwoFactor()
  /// show(setup.otpauthURL)
  /// try await api.enableTwoFactor(code: typedCode)
  /// ```
  /// - Returns: The secret, its `otpauth://` URL and a QR PNG.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func setUpTwoFactor() async throws -> TwoFactorSetup {
    try await send(RouteCatalogue.Account.setUpTwoFactor)
  }

  /// `POST /api/auth/2fa/enable`: turns two-factor sign-in on with the current code of the
  /// pending secret (Protocol/Account.md §2.3).
  ///
  /// A wrong code is `.refused` (HTTP 401 with the JSON envelope): the session is untouched
  /// and the pending secret is kept, so ask for the code again.
  ///
  /// ```swift
  /// do {
  ///   try await api.enableTwoFactor(code: code)
  /// } catch let error as ServerBeeAPIError where error.code == .refused {
  ///   // wrong code: try again
  /// }
  /// ```
  /// - Parameter code: The 6-digit code.
  /// - Throws: ``ServerBeeAPIError``: `.refused` (wrong code), `.badRequest` (no pending
  ///   setup, or it expired after 10 minutes). Or `CancellationError`.
  public func enableTwoFactor(code: String) async throws {
    _ = try await send(
      RouteCatalogue.Account.enableTwoFactor, body: TwoFactorCodeRequest(code: code))
  }

  /// `POST /api/auth/2fa/disable`: turns two-factor sign-in off; needs the password, not a
  /// code (Protocol/Account.md §2.4).
  ///
  /// ```swift
  /// try await api.disableTwoFactor(password: password)
  /// ```
  /// - Parameter password: The account password.
  /// - Throws: ``ServerBeeAPIError``: `.badRequest` (`Password is incorrect`). Or
  ///   `CancellationError`.
  public func disableTwoFactor(password: String) async throws {
    _ = try await send(
      RouteCatalogue.Account.disableTwoFactor, body: TwoFactorDisableRequest(password: password))
  }

  /// `GET /api/auth/api-keys`: the caller's own API keys, without their plaintext
  /// (Protocol/Account.md §3.1).
  ///
  /// ```swift
  /// for key in try await api.apiKeys() { print(key.name, key.keyPrefix) }
  /// ```
  /// - Returns: The keys, in the server's (unspecified) order.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func apiKeys() async throws -> [APIKeyRecord] {
    try await send(RouteCatalogue.Account.apiKeys)
  }

  /// `POST /api/auth/api-keys`: creates an API key. **Admin only** (a member gets
  /// `.forbidden`, although the app offers it to members; Protocol/AppRoutes.md §2.2).
  ///
  /// The answer is the only time the plaintext `APIKeyRecord.key` is shown.
  ///
  /// ```swift
  /// let created = try await api.createAPIKey(name: "grafana")
  /// let key = try APIKey(created.key ?? "")
  /// ```
  /// - Parameter name: The key's name, not empty.
  /// - Returns: The new key with its plaintext.
  /// - Throws: ``ServerBeeAPIError``: `.forbidden` for a member, `.validation` for an empty
  ///   name, `.decoding` when the answer carries no key. Or `CancellationError`.
  public func createAPIKey(name: String) async throws -> APIKeyRecord {
    let route = RouteCatalogue.Account.createAPIKey
    let created = try await send(route, body: APIKeyCreateRequest(name: name))
    guard let key = created.key, !key.isEmpty else {
      throw ServerBeeAPIError(
        .decoding, "\(route.requestLine): the answer holds no key", httpStatus: 200)
    }
    return created
  }

  /// `DELETE /api/auth/api-keys/{id}`: deletes one of the caller's own keys
  /// (Protocol/Account.md §3.3).
  ///
  /// ```swift
  /// try await api.deleteAPIKey(id: key.id)
  /// ```
  /// - Parameter id: The key id.
  /// - Throws: ``ServerBeeAPIError``: `.notFound` for an unknown id or another user's key. Or
  ///   `CancellationError`.
  public func deleteAPIKey(id: String) async throws {
    try Self.requireNonEmpty(id, "the API key id")
    _ = try await send(RouteCatalogue.Account.deleteAPIKey, PathID(id))
  }

  /// `POST /api/mobile/push/register`: the legacy direct-APNs registration of servers without
  /// the v2 push routes (Protocol/Push.md §1).
  ///
  /// Needs a mobile session. On such servers every refresh deletes the registration, so call
  /// it again after each one. A v2 server's encrypted registration replaces it: never call
  /// this once NotificationPreferences has moved the installation to v2.
  ///
  /// ```swift
  /// try await api.registerLegacyPush(deviceToken: apnsTokenHex)
  /// ```
  /// - Parameter deviceToken: The APNs token as lowercase hex.
  /// - Throws: ``ServerBeeAPIError``: `.validation` (empty token), `.badRequest` (not a mobile
  ///   session), `.forbidden` (the device is registered to another account). Or
  ///   `CancellationError`.
  public func registerLegacyPush(deviceToken: String) async throws {
    try Self.requireNonEmpty(deviceToken, "the device token")
    _ = try await send(
      RouteCatalogue.Push.legacyRegister,
      body: LegacyPushRegisterRequest(deviceToken: deviceToken))
  }
}
