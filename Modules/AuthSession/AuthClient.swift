import Foundation
public import SecureStore
import ServerBeeCore
import ServerBeeModels
public import ServerBeeTransport

/// The login lifecycle of one ServerBee mobile installation: login and pairing, rotating
/// refresh, logout with an offline journal, and session recovery.
///
/// One `AuthClient` owns the stored login of an installation. Create it once per process with the
/// app-private credential store, call ``restore()``, and hand it to other modules as their
/// `AccessTokenProvider` (or wrap their transport in ``AuthorizedHTTPTransport``):
///
/// ```swift
/// let store = try EncryptedSQLiteCredentialStore(directory: home)
/// let http = SocketHTTPTransport()  // or URLSessionHTTPTransport()
/// let client = AuthClient(
///   configuration: .init(deviceName: "Build agent"), store: store, transport: http)
/// try await client.restore()
/// await client.completePendingCleanups()
/// _ = await client.sweepInterruptedSignIns()  // also after every successful login or pairing
///
/// switch try await client.login(server: "https://monitor.example.com", username: "ada",
///                               password: password) {
/// case .signedIn(let identity): print("signed in as", identity.user.username)
/// case .twoFactorRequired: // ask for the TOTP code, then call login again with it
///   break
/// }
/// let api = AuthorizedHTTPTransport(wrapping: http, client: client)
/// ```
///
/// ### Rules it keeps (Protocol/Auth.md)
/// - Refresh is single-flight: any number of concurrent callers cause one request. Rotated tokens
///   are written to the store before any caller gets them.
/// - Until the server confirms a deletion proof, every refresh proposes one
///   (`sb-revoke-v1.` + 32 random bytes), persisted before it is sent.
/// - Logout with a confirmed proof works offline: a journal entry replaces the login in one
///   atomic store write, and ``completePendingCleanups()`` revokes it later.
/// - A login the server rejects without a confirmed proof moves to
///   ``SessionState/recoveryRequired(_:)``; ``recoverSession(_:)`` clears it.
///
/// ## Topics
/// ### Lifecycle
/// - ``restore()``
/// - ``stateChanges()``
/// - ``currentState``
/// ### Signing in
/// - ``login(server:username:password:totpCode:)``
/// - ``pair(scannedPayload:expectedServer:)``
/// ### Interrupted sign-ins
/// - ``sweepInterruptedSignIns()``
/// - ``pendingSignInAttempts()``
/// - ``maximumSignInAttempts``
/// ### Tokens
/// - ``validAccessToken()``
/// - ``accessToken(afterRejectionOf:)``
/// - ``refresh()``
/// - ``confirmDeletionProof()``
/// ### Signing out
/// - ``logout()``
/// - ``completePendingCleanups()``
/// - ``pendingCleanups()``
/// - ``forgetPendingCleanup(id:)``
/// - ``forgetSession()``
/// ### Recovery
/// - ``recoverSession(_:)``
/// - ``recoverSession(selecting:with:)``
public actor AuthClient: SessionContext {
  /// Settings of an ``AuthClient``.
  public struct Configuration: Sendable, Hashable {
    /// The device name sent at login and pairing (shown in the web UI's device list).
    public var deviceName: String
    /// How long before the access token's fixed expiry it is refreshed. Default 60 s.
    public var refreshLeadTime: Duration
    /// Whether the client refreshes on its own, ``refreshLeadTime`` before expiry, instead of
    /// only when a token is asked for. Default `true`.
    public var refreshesProactively: Bool
    /// How long a proactive refresh that failed transiently waits before trying again.
    /// Default 30 s.
    public var proactiveRetryDelay: Duration
    /// Whether logout first calls `POST /api/mobile/push/unregister` (best effort). Default
    /// `true`.
    public var unregistersPushOnLogout: Bool
    /// Stored values that belong to one login and must not outlive it (a push content key, a
    /// test push in flight, an unsaved notification choice): removed in the same atomic store
    /// write that signs out, replaces the login, moves it to recovery or ends it after a
    /// rejection, so none is left when that call returns. Default none; `ServerBeeClient`
    /// passes `NotificationPreferencesClient.loginScopedValues`, and an app that composes the
    /// modules itself passes them here:
    ///
    /// ```swift
    /// let auth = AuthClient(
    ///   configuration: .init(
    ///     deviceName: "Status board",
    ///     loginScopedValues: NotificationPreferencesClient.loginScopedValues),
    ///   store: store, transport: http)
    /// ```
    public var loginScopedValues: [CredentialSlot]

    /// Creates a configuration.
    /// - Parameters:
    ///   - deviceName: The device name; must not be empty.
    ///   - refreshLeadTime: Refresh this long before the access token expires.
    ///   - refreshesProactively: Whether to refresh on a timer.
    ///   - proactiveRetryDelay: The wait after a transient proactive failure.
    ///   - unregistersPushOnLogout: Whether logout unregisters push first.
    ///   - loginScopedValues: Values removed whenever the signed-in login ends or changes.
    public init(
      deviceName: String, refreshLeadTime: Duration = .seconds(60),
      refreshesProactively: Bool = true, proactiveRetryDelay: Duration = .seconds(30),
      unregistersPushOnLogout: Bool = true, loginScopedValues: [CredentialSlot] = []
    ) {
      self.loginScopedValues = loginScopedValues
      self.deviceName = deviceName
      self.refreshLeadTime = refreshLeadTime
      self.refreshesProactively = refreshesProactively
      self.proactiveRetryDelay = proactiveRetryDelay
      self.unregistersPushOnLogout = unregistersPushOnLogout
    }
  }

  /// The most unresolved offline logouts kept (Protocol/Auth.md §10); a full journal refuses new
  /// logins.
  public static let maximumPendingCleanups = 16

  let configuration: Configuration
  let transport: any HTTPTransport
  let store: any CredentialStore
  /// The store's caller executor: every method of the client runs on its thread.
  let executor: CredentialStoreExecutor
  let clock: any Clock<Duration>
  let now: @Sendable () -> Date
  let randomBytes: @Sendable (Int) -> [UInt8]
  let makeUUID: @Sendable () -> UUID
  let states = ValueBroadcaster<SessionState>(.restoring)

  /// The stored login as last read or written; `nil` when signed out.
  var record: LoginRecord?
  var isRestored = false
  var refreshTask: Task<LoginRecord, any Error>?
  var refreshGeneration = 0
  var proactiveTask: Task<Void, Never>?
  var cleanupTask: Task<PendingCleanupReport, any Error>?
  /// QR-mode recovery state, in memory only: a grant lives 300 s and dies with the process.
  var recoveryGrant: RecoveryGrant?
  /// The candidate ids the server last offered for the current login.
  var offeredCandidates: (loginID: String, ids: Set<String>)?
  /// Test hook: called whenever a caller joins a refresh already in flight.
  var refreshJoinObserver: (@Sendable () -> Void)?

  /// Creates a client with the system clock and randomness over the transport you give (the
  /// facade, `ServerBeeClient`, passes the platform's; Documentation/Architecture.md §1: only the
  /// facade and executables wire live parts).
  ///
  /// The client reads nothing until ``restore()`` (or the first operation).
  /// - Parameters:
  ///   - configuration: Settings.
  ///   - store: The credential store; the client uses its app-private group only.
  ///   - transport: The HTTP transport for auth requests (no bearer decorator).
  public init(
    configuration: Configuration, store: any CredentialStore,
    transport: any HTTPTransport
  ) {
    self.init(
      configuration: configuration, store: store, transport: transport, clock: ContinuousClock(),
      now: { Date() },
      randomBytes: SecureRandom.bytes,
      makeUUID: { UUID() })
  }

  /// Creates a client with every seam injected (tests).
  /// - Parameters:
  ///   - configuration: Settings.
  ///   - store: The credential store.
  ///   - transport: The HTTP transport.
  ///   - clock: The clock proactive refresh sleeps on.
  ///   - now: The wall clock used for token expiry dates.
  ///   - randomBytes: Returns that many cryptographically random bytes.
  ///   - makeUUID: Makes login, journal and installation identifiers.
  init(
    configuration: Configuration, store: any CredentialStore, transport: any HTTPTransport,
    clock: any Clock<Duration>, now: @escaping @Sendable () -> Date,
    randomBytes: @escaping @Sendable (Int) -> [UInt8], makeUUID: @escaping @Sendable () -> UUID
  ) {
    self.configuration = configuration
    self.store = store
    self.executor = store.callerExecutor
    self.transport = transport
    self.clock = clock
    self.now = now
    self.randomBytes = randomBytes
    self.makeUUID = makeUUID
  }

  deinit {
    proactiveTask?.cancel()
    states.finishAll()
  }

  /// The executor every method of the client runs on: its store's
  /// `CredentialStore/callerExecutor` (one long-lived thread), not the cooperative pool.
  ///
  /// The client calls its `CredentialStore` synchronously, so that nothing runs between
  /// "rotated tokens stored" and "token handed out". On the store's caller thread, those calls (an fsync'd SQLite transaction, a busy timeout, a Keychain call) never
  /// block a thread of the cooperative pool. The executor is serial, so the client is as
  /// exclusive as any actor.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  // MARK: State

  /// The current session state.
  public nonisolated var currentState: SessionState { states.value }

  /// A new stream of session states for one subscriber, starting with the current state.
  ///
  /// Each call returns an independent stream; ending the `for await` loop (or cancelling its
  /// task) unsubscribes. Intermediate states may be skipped by a slow subscriber, never the
  /// latest one.
  /// - Returns: The stream.
  public nonisolated func stateChanges() -> AsyncStream<SessionState> { states.subscribe() }

  /// The stored login's identity, in any state that has one (`SessionContext`).
  public nonisolated var currentIdentity: SessionIdentity? { currentState.identity }

  /// The identity now and after every change; `nil` while signed out or restoring
  /// (`SessionContext`).
  /// - Returns: A new stream for one subscriber.
  public nonisolated func identityChanges() -> AsyncStream<SessionIdentity?> {
    states.subscribe { $0.identity }
  }

  /// Reads the stored login and publishes the resulting state. Idempotent.
  ///
  /// Also schedules the proactive refresh of a restored login.
  /// - Returns: The state after restoring.
  /// - Throws: ``AuthSessionError`` with `.storageFailed` when the store
  ///   cannot be read; the state then stays ``SessionState/restoring``.
  @discardableResult
  public func restore() throws -> SessionState {
    try ensureRestored()
    return states.value
  }

  func ensureRestored() throws {
    guard !isRestored else { return }
    record = try storeCall("read the login") {
      try store.value(LoginRecord.self, forKey: .login, in: .appPrivate)
    }
    try reconcileLoginScope()
    isRestored = true
    publishState()
    scheduleProactiveRefresh()
  }

  func publishState() {
    guard let record else {
      states.publish(.signedOut)
      return
    }
    switch record.status {
    case .active: states.publish(.signedIn(record.identity))
    case .recoveryRequired:
      if case .serverTooOld(let identity) = states.value, identity.loginID == record.loginID {
        return
      }
      states.publish(.recoveryRequired(record.identity))
    }
  }

  /// Installs the test hook called when a caller joins an in-flight refresh.
  func observeRefreshJoins(_ observer: @escaping @Sendable () -> Void) {
    refreshJoinObserver = observer
  }

  /// The number of state subscribers (tests check that termination unsubscribes).
  nonisolated var stateSubscriberCount: Int { states.subscriberCount }

  // MARK: Store access

  /// Runs a store call, turning its failure into `.storageFailed`.
  func storeCall<Value>(_ what: String, _ body: () throws -> Value) throws -> Value {
    do {
      return try body()
    } catch {
      throw AuthSessionError(.storageFailed, "could not \(what)", underlying: error)
    }
  }

  /// Writes the login record, then adopts it in memory.
  func save(_ newRecord: LoginRecord) throws {
    try save(newRecord, replacing: record)
  }

  /// Writes the login record that replaces `old` (with the login-scoped clean-up a change of
  /// scope needs, in the same atomic write), then adopts it in memory.
  func save(_ newRecord: LoginRecord, replacing old: LoginRecord?) throws {
    try storeCall("save the login") {
      var batch = CredentialBatch()
      try batch.setValue(newRecord, forKey: .login, in: .appPrivate)
      try addLoginScopeChanges(to: &batch, from: old, to: newRecord)
      try store.commit(batch)
    }
    record = newRecord
  }

  /// This installation's identifier, created and stored on first use.
  func installationID() throws -> String {
    if let existing = try storeCall(
      "read the installation id",
      {
        try store.value(String.self, forKey: .installationID, in: .appPrivate)
      })
    {
      return existing
    }
    let created = makeUUID().uuidString.uppercased()
    try storeCall("save the installation id") {
      try store.setValue(created, forKey: .installationID, in: .appPrivate)
    }
    return created
  }

  /// The active login, or the error explaining why there is none.
  func activeRecord() throws -> LoginRecord {
    try ensureRestored()
    guard let record else { throw AuthSessionError(.notSignedIn, "no session is signed in") }
    guard record.status == .active else {
      throw AuthSessionError(.recoveryRequired, "the session needs recovery first")
    }
    return record
  }
}
