import ServerBeeModels
public import ServerBeeTransport

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
  /// ``AuthClient/logout()``) confirms the original session is gone (Protocol/Auth.md §10).
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
