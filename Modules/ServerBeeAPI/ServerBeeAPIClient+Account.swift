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

  /// `POST /api/mobile/pair`: creates a pairing code as the signed-in account, for another
  /// device to sign in with (wire contract v1 §2.5, wire contract v2 §2.3).
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
    let endpoint = Endpoint(.post, "mobile", "pair")
    let answer: PairCodeResponse = try await send(endpoint)
    let pairing = PairingCode(
      payload: PairingPayload(server: server, code: answer.code),
      expiresInSeconds: answer.expiresInSeconds)
    // The QR text must be one our own pairing accepts; the message never repeats the code.
    guard answer.expiresInSeconds > 0, (try? PairingPayload(scanned: pairing.qrText)) != nil
    else {
      throw ServerBeeAPIError(
        .decoding, "\(endpoint.summary): the answer holds no usable pairing code",
        httpStatus: 200)
    }
    return pairing
  }
}
