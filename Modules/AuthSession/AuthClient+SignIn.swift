import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
public import ServerBeeTransport

extension AuthClient {
  /// Logs in with a user name and password (`POST /api/mobile/auth/login`).
  ///
  /// Pending cleanups of earlier logouts are attempted first. The first call for an account with
  /// two-factor authentication answers ``LoginOutcome/twoFactorRequired``; call again with the
  /// TOTP code.
  ///
  /// The attempt is recorded in the sign-in journal before the request is sent and kept when
  /// the answer may have been lost; call ``sweepInterruptedSignIns()`` after signing in to
  /// revoke a session such an earlier attempt left behind.
  ///
  /// ```swift
  /// var outcome = try await client.login(server: url, username: name, password: password)
  /// if outcome == .twoFactorRequired {
  ///   outcome = try await client.login(
  ///     server: url, username: name, password: password, totpCode: await askForCode())
  /// }
  /// ```
  /// - Parameters:
  ///   - server: The server base URL as the user typed it; normalised per Protocol/Auth.md §9.
  ///   - username: The user name.
  ///   - password: The password.
  ///   - totpCode: The TOTP code, on the second step.
  /// - Returns: ``LoginOutcome/signedIn(_:)`` with the stored identity, or
  ///   ``LoginOutcome/twoFactorRequired``.
  /// - Throws: ``AuthSessionError``: `.invalidServerURL`,
  ///   `.alreadySignedIn`, `.recoveryRequired`,
  ///   `.logoutJournalFull`, `.invalidCredentials`
  ///   (401), `.mustChangePassword` (403),
  ///   `.rateLimited` (429), `.invalidRequest` (422),
  ///   `.unsupportedByServer` (empty 404), the transient codes, or
  ///   `.storageFailed` (also when the attempt cannot be recorded; nothing is sent then).
  public func login(
    server: String, username: String, password: String, totpCode: String? = nil
  ) async throws -> LoginOutcome {
    let serverURL = try Self.normalised(server)
    let installationID = try await prepareForNewLogin()
    let request = LoginRequest(
      username: username, password: password, installationID: installationID,
      deviceName: configuration.deviceName, totpCode: totpCode)
    return try await withSignInAttempt(server: serverURL, username: username) {
      let response = try await exchange(RouteCatalogue.Auth.login, on: serverURL, body: request)
      guard response.status == 200 else {
        let failure = Self.failure(response, path: RouteCatalogue.Auth.login.template.text)
        if failure.code == .twoFactorRequired { return .twoFactorRequired }
        throw failure
      }
      let tokens = try decodePayload(
        MobileTokenResponse.self, from: response, path: RouteCatalogue.Auth.login.template.text)
      return .signedIn(try await adopt(tokens, server: serverURL, installationID: installationID))
    }
  }

  /// Pairs with a scanned QR payload (`POST /api/mobile/auth/pair`), signing in as the account
  /// that generated it.
  ///
  /// Like login, the attempt is recorded in the sign-in journal before it is sent (see
  /// ``sweepInterruptedSignIns()``).
  ///
  /// ```swift
  /// let identity = try await client.pair(scannedPayload: qrText)
  /// ```
  /// - Parameters:
  ///   - scannedPayload: The QR text: `{"type":"serverbee_pair","server_url":…,"code":…}`.
  ///   - expectedServer: When the app is bound to one server, its URL; a payload for any other
  ///     server (after normalisation) is refused.
  /// - Returns: The stored identity.
  /// - Throws: ``AuthSessionError``: `.invalidPairingPayload` (not a
  ///   ServerBee payload, wrong `type`), `.pairingPayloadForAnotherServer`,
  ///   `.pairingCodeRejected` (400),
  ///   `.unsupportedByServer` (404), and the errors of
  ///   ``login(server:username:password:totpCode:)``.
  public func pair(scannedPayload: String, expectedServer: String? = nil) async throws
    -> SessionIdentity
  {
    let payload = try Self.pairingPayload(scannedPayload)
    if let expectedServer, try Self.normalised(expectedServer) != payload.server {
      throw AuthSessionError(
        .pairingPayloadForAnotherServer, "the pairing code is for \(payload.server)")
    }
    let installationID = try await prepareForNewLogin()
    let request = PairRedeemRequest(
      code: payload.code, installationID: installationID, deviceName: configuration.deviceName)
    return try await withSignInAttempt(server: payload.server, username: nil) {
      let response = try await exchange(
        RouteCatalogue.Auth.pair, on: payload.server, body: request)
      switch response.status {
      case 200: break
      case 400:
        throw AuthSessionError(
          .pairingCodeRejected, "the pairing code is invalid, used or expired", httpStatus: 400)
      case 404:
        throw AuthSessionError(
          .unsupportedByServer, "the server does not support pairing", httpStatus: 404)
      default: throw Self.failure(response, path: RouteCatalogue.Auth.pair.template.text)
      }
      let tokens = try decodePayload(
        MobileTokenResponse.self, from: response, path: RouteCatalogue.Auth.pair.template.text)
      return try await adopt(tokens, server: payload.server, installationID: installationID)
    }
  }

  // MARK: Shared steps

  static func normalised(_ text: String) throws -> ServerURL {
    do {
      return try ServerURL(text)
    } catch {
      throw AuthSessionError(.invalidServerURL, "the server URL is not valid", underlying: error)
    }
  }

  static func pairingPayload(_ scanned: String) throws -> PairingPayload {
    do {
      return try PairingPayload(scanned: scanned)
    } catch {
      throw AuthSessionError(
        .invalidPairingPayload, "the scanned text is not a ServerBee pairing code",
        underlying: error)
    }
  }

  /// Checks that a new login may start (Protocol/Auth.md §10: cleanups first, a full journal blocks
  /// it) and returns the installation id to send.
  func prepareForNewLogin() async throws -> String {
    try ensureRestored()
    try refuseIfSignedIn()
    _ = try? await completePendingCleanups()
    try refuseIfSignedIn()
    let journal = try loadJournal()
    guard journal.count < Self.maximumPendingCleanups else {
      throw AuthSessionError(
        .logoutJournalFull,
        "\(journal.count) earlier logouts still wait for the server; reconnect to finish them")
    }
    return try installationID()
  }

  func refuseIfSignedIn() throws {
    guard let record else { return }
    switch record.status {
    case .active: throw AuthSessionError(.alreadySignedIn, "log out before signing in again")
    case .recoveryRequired:
      throw AuthSessionError(.recoveryRequired, "the previous session needs recovery first")
    }
  }

  /// Validates and stores a login or pairing answer, then publishes the signed-in state.
  func adopt(_ tokens: MobileTokenResponse, server: ServerURL, installationID: String)
    async throws -> SessionIdentity
  {
    try Self.validate(tokens, path: RouteCatalogue.Auth.login.template.text)
    let issuedAt = now()
    let newRecord = LoginRecord(
      loginID: makeUUID().uuidString.lowercased(), server: server, installationID: installationID,
      user: tokens.user, accessToken: tokens.accessToken,
      accessExpiresAt: issuedAt.addingTimeInterval(TimeInterval(tokens.accessExpiresInSeconds)),
      refreshToken: tokens.refreshToken,
      refreshExpiresAt: issuedAt.addingTimeInterval(TimeInterval(tokens.refreshExpiresInSeconds)),
      revocationToken: tokens.revocationToken, mobileSessionID: tokens.mobileSessionID,
      confirmedDeletionProof: nil, proposedDeletionProof: nil, recoveryTargetID: nil,
      status: .active)
    do {
      // Another login may have finished while this one was on the network (actor reentrancy).
      try refuseIfSignedIn()
      try save(newRecord)
    } catch {
      // The server session exists but will not be kept: delete it if we can, best effort.
      if let credential = tokens.revocationToken, let sessionID = tokens.mobileSessionID {
        _ = try? await revoke(
          on: server, installationID: installationID, credential: credential,
          expectedSessionID: sessionID)
      }
      throw error
    }
    publishState()
    scheduleProactiveRefresh()
    return newRecord.identity
  }
}
