public import ServerBeeModels

/// Where the login lifecycle stands, as published by ``AuthClient/stateChanges()``.
///
/// ```swift
/// for await state in client.stateChanges() {
///   switch state {
///   case .restoring: showSplash()
///   case .signedOut: showLogin()
///   case .signedIn(let identity): showDashboard(for: identity.user)
///   case .recoveryRequired(let identity): showRecovery(for: identity)
///   case .serverTooOld(let identity): showUpgradeHint(for: identity.server)
///   }
/// }
/// ```
public enum SessionState: Sendable, Hashable {
  /// The stored login has not been read yet (before ``AuthClient/restore()``).
  case restoring
  /// No login is stored.
  case signedOut
  /// A login is stored and usable.
  case signedIn(SessionIdentity)
  /// The server permanently rejected the login and no confirmed deletion proof exists: normal
  /// requests are blocked until ``AuthClient/recoverSession(_:)`` (or a retried
  /// ``AuthClient/logout()``) confirms the original session is gone (v2 §2.8).
  case recoveryRequired(SessionIdentity)
  /// The login needs recovery, but the server does not support it (a v1 server answered the v2
  /// route with an empty 404). Recovery can be tried again after the server is upgraded, or the
  /// login can be forgotten locally with ``AuthClient/forgetSession()``.
  case serverTooOld(SessionIdentity)

  /// The identity of the stored login, if any.
  public var identity: SessionIdentity? {
    switch self {
    case .restoring, .signedOut: return nil
    case .signedIn(let identity), .recoveryRequired(let identity), .serverTooOld(let identity):
      return identity
    }
  }
}

/// Who a stored login belongs to: never a secret.
public struct SessionIdentity: Sendable, Hashable {
  /// A local identifier of this login (a new one for every login or pairing).
  public var loginID: String
  /// The normalised server URL the login was made against.
  public var server: ServerURL
  /// The signed-in user, as last reported by the server.
  public var user: SessionUser
  /// This installation's identifier, as sent to the server.
  public var installationID: String
  /// The server's stable id of this login (v2); `nil` for a v1 server.
  public var mobileSessionID: String?

  /// Creates an identity.
  /// - Parameters:
  ///   - loginID: The local login identifier.
  ///   - server: The server.
  ///   - user: The user.
  ///   - installationID: The installation identifier.
  ///   - mobileSessionID: The server's session id, if known.
  public init(
    loginID: String, server: ServerURL, user: SessionUser, installationID: String,
    mobileSessionID: String?
  ) {
    self.loginID = loginID
    self.server = server
    self.user = user
    self.installationID = installationID
    self.mobileSessionID = mobileSessionID
  }

  /// Whether the server speaks the v2 session API (stable session ids, revoke, recovery).
  public var serverSupportsRevocation: Bool { mobileSessionID != nil }
}
