import ServerBeeModels
public import ServerBeeTransport

/// Direct-APNs push for a server without encrypted push: the raw APNs token registered with
/// `POST /api/mobile/push/register` (Protocol/Push.md §1), as the official app does against
/// a HEAD server (Protocol/AppRoutes.md §2.8).
///
/// Used only where the protocol allows it (Protocol/Push.md §2.8):
/// ``registerIfServerLacksEncryptedPush()`` first asks for `GET /api/mobile/push/settings` and
/// registers only when the server answers that the route does not exist. A server with encrypted
/// push never gets the legacy registration from here — so an installation that migrated is never
/// moved back (Protocol/Push.md §2.8); should the server still refuse (409 `This installation uses
/// encrypted relay delivery`), that is ``NotificationPreferencesError`` `.conflict`.
///
/// Legacy pushes are **not end-to-end encrypted**: the server sends the alert text through
/// Apple in the clear. Opt in knowingly, and only with a real APNs token (a `serverbee-relay`
/// local device cannot receive them). v1 and HEAD servers drop the registration at every
/// refresh, so call it again after each refresh and at launch; logout removes it
/// (`AuthClient` unregisters push first).
///
/// ```swift
/// let legacy = LegacyPushRegistration(
///   transport: client.authorizedHTTP, session: client.auth, deviceTokens: remoteTokens)
/// switch try await legacy.registerIfServerLacksEncryptedPush() {
/// case .registered: break                // direct APNs, not end-to-end encrypted
/// case .encryptedPushAvailable:          // use client.notifications instead
///   try await client.notifications.enable()
/// }
/// ```
public struct LegacyPushRegistration: Sendable {
  /// What ``registerIfServerLacksEncryptedPush()`` did.
  public enum Outcome: Sendable, Hashable {
    /// The server has no encrypted push; the token is registered for direct APNs delivery.
    case registered
    /// The server has encrypted push: nothing was registered; use
    /// ``NotificationPreferencesClient`` instead.
    case encryptedPushAvailable
  }

  private let api: PushSetupAPI
  private let session: any SessionContext
  private let deviceTokens: any PushDeviceTokenProvider

  /// Creates the registration.
  /// - Parameters:
  ///   - transport: A transport that signs requests for the session (a mobile Bearer: the
  ///     route refuses API keys and cookies).
  ///   - session: The session seam (`AuthClient`).
  ///   - deviceTokens: The APNs token (`RemoteNotificationsDeviceTokenProvider`).
  public init(
    transport: any HTTPTransport, session: any SessionContext,
    deviceTokens: any PushDeviceTokenProvider
  ) {
    self.api = PushSetupAPI(transport: transport)
    self.session = session
    self.deviceTokens = deviceTokens
  }

  /// Registers the device token for direct APNs delivery when, and only when, the server has
  /// no encrypted push.
  /// - Returns: ``Outcome/registered``, or ``Outcome/encryptedPushAvailable`` (nothing sent).
  /// - Throws: ``NotificationPreferencesError``: `.notSignedIn`; `.deviceTokenUnavailable`
  ///   when the platform gave no token; `.conflict` when the server says this installation
  ///   uses encrypted delivery; `.notPermitted` when the device belongs to another account;
  ///   `.unauthorized`, `.transportFailed`, `.serverError` otherwise.
  public func registerIfServerLacksEncryptedPush() async throws -> Outcome {
    guard let identity = session.currentIdentity else {
      throw NotificationPreferencesError(.notSignedIn, "no session is signed in")
    }
    do {
      _ = try await api.settings(server: identity.server)
      return .encryptedPushAvailable
    } catch let error as NotificationPreferencesError where error.code == .unsupportedByServer {
      // A HEAD server: the legacy route is the only push it has.
    }
    let token: PushDeviceToken
    do {
      token = try await deviceTokens.deviceToken()
    } catch let error as CancellationError {
      throw error
    } catch {
      throw NotificationPreferencesError(
        .deviceTokenUnavailable, "the platform gave no push token for this device")
    }
    do {
      try await api.legacyRegister(deviceToken: token.hex, server: identity.server)
    } catch let error as NotificationPreferencesError where error.code == .conflict {
      throw NotificationPreferencesError(
        .conflict,
        "this installation uses encrypted relay delivery on this server; "
          + "legacy push is never used again after that", httpStatus: error.httpStatus)
    }
    return .registered
  }
}
