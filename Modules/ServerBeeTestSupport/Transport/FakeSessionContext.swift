import Foundation
public import ServerBeeModels
public import ServerBeeTransport

/// A working in-memory `SessionContext` for code that depends on the session seam (push
/// settings, tap handling, your own features): sign in, switch account or sign out from the
/// test, and count deletion-proof confirmations.
///
/// ```swift
/// let session = FakeSessionContext()
/// session.signIn(try FakeSessionContext.identity(user: "ada"))
/// let api = AuthorizedHTTPTransport(wrapping: stub, client: session)
/// #expect(session.confirmationCount == 0)
/// ```
public final class FakeSessionContext: SessionContext, @unchecked Sendable {
  // @unchecked: `token`, `failure` and `confirmations` are behind `lock`; identities go through
  // the thread-safe broadcaster.
  private let lock = NSLock()
  private let identities = ValueBroadcaster<SessionIdentity?>(nil)
  private var token = "fake-access-token"
  private var failure: (any Error & Sendable)?
  private var confirmations = 0

  /// A signed-out session.
  public init() {}

  /// A ready identity for tests.
  /// - Parameters:
  ///   - user: The user name (the id is derived from it).
  ///   - server: The server URL.
  ///   - installationID: The installation id.
  ///   - loginID: The local login id (a new one means a replacement login, a new scope).
  ///   - role: The user's role.
  /// - Returns: The identity.
  /// - Throws: `ServerBeeModelsError` for an invalid server URL.
  public static func identity(
    user: String, server: String = "https://monitor.example.com",
    installationID: String = "test-installation", loginID: String = "login-1",
    role: UserRole = .admin
  ) throws -> SessionIdentity {
    SessionIdentity(
      loginID: loginID, server: try ServerURL(server),
      user: SessionUser(id: "user-" + user, username: user, role: role),
      installationID: installationID, mobileSessionID: "session-" + loginID)
  }

  /// Signs in (or switches to) `identity`.
  /// - Parameters:
  ///   - identity: The identity.
  ///   - token: The access token handed out from now on.
  public func signIn(_ identity: SessionIdentity, token: String = "fake-access-token") {
    lock.withLock { self.token = token }
    identities.publish(identity)
  }

  /// Signs out.
  public func signOut() { identities.publish(nil) }

  /// Makes token and proof calls throw `error` (a revoked session); `nil` clears it.
  /// - Parameter error: The error, or `nil`.
  public func fail(with error: (any Error & Sendable)?) { lock.withLock { failure = error } }

  /// How many times ``confirmDeletionProof()`` succeeded.
  public var confirmationCount: Int { lock.withLock { confirmations } }

  /// The signed-in identity, if any.
  public var currentIdentity: SessionIdentity? { identities.value }

  /// The identity now, then after every change.
  public func identityChanges() -> AsyncStream<SessionIdentity?> { identities.subscribe() }

  /// Succeeds while signed in and not failing.
  public func confirmDeletionProof() async throws -> SessionIdentity {
    let (failure, identity) = lock.withLock { (self.failure, identities.value) }
    if let failure { throw failure }
    guard let identity else { throw FakeSessionError.signedOut }
    lock.withLock { confirmations += 1 }
    return identity
  }

  /// The current token, unless failing or signed out.
  public func validAccessToken() async throws -> String {
    let (failure, token) = lock.withLock { (self.failure, self.token) }
    if let failure { throw failure }
    guard currentIdentity != nil else { throw FakeSessionError.signedOut }
    return token
  }
}

/// Why a ``FakeSessionContext`` refused.
public enum FakeSessionError: Error, Sendable {
  /// No identity is signed in.
  case signedOut
}
