public import ServerBeeModels

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  public import Foundation
#endif

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

  /// The login's scope (Protocol/Push.md §3.7): lowercase hex SHA-256 of
  /// `serverURL|userID|installationID|loginID`. Fixed for the login (a refresh keeps it); a
  /// replacement login of the same account, another account, server or installation has
  /// another scope, so a push content key from another scope is never reused.
  ///
  /// Of the contract's choices for the last part (revocation token, refresh token, per-login
  /// UUID) this uses the per-login UUID: the scope is stored next to the content key in the
  /// extension-shared group, and no session secret goes into it, not even hashed.
  public var scope: String {
    SHA256.hex(server.url.absoluteString + "|" + user.id + "|" + installationID + "|" + loginID)
  }
}

/// The signed-in session as the modules above the transport see it — NotificationPreferences,
/// DeepLinkValidation, the REST client's callers — without depending on AuthSession.
/// `AuthClient` conforms; tests use a fake.
///
/// ```swift
/// func reconcile(with session: any SessionContext) async throws {
///   guard let identity = session.currentIdentity else { return }
///   let key = store.contentKey(scope: identity.scope)
///   try await session.confirmDeletionProof()  // before changing server-side settings
/// }
/// ```
public protocol SessionContext: AccessTokenProvider {
  /// The stored login's identity (signed in, or waiting for recovery); `nil` when signed out.
  /// Synchronous and non-blocking.
  var currentIdentity: SessionIdentity? { get }

  /// The identity now, then after every change (sign-in, refresh of the user, logout, account
  /// switch); `nil` when signed out. Each call gives a new stream with its own subscriber.
  func identityChanges() -> AsyncStream<SessionIdentity?>

  /// Makes sure the server confirmed a deletion-only credential for this login, so an offline
  /// logout can still revoke it; refreshes once if needed.
  /// - Returns: The identity of the login.
  /// - Throws: The session's error (for example "not signed in" or "unsupported by the server").
  @discardableResult
  func confirmDeletionProof() async throws -> SessionIdentity
}
