import Foundation
public import PushEnvelopeCrypto
public import SecureStore
public import ServerBeeModels
public import ServerBeeTransport

/// The server-confirmed notification settings of the signed-in installation: load, save,
/// enable, disable, encrypted registration and the content key's lifecycle.
///
/// One ``state`` value (and ``states()``, the current value first) shows the confirmed
/// document, the unconfirmed choices, the last save error, the permission and the registration
/// apart. The logic is ``NotificationSettingsMachine``; this actor performs its actions.
///
/// ```swift
/// let api = AuthorizedHTTPTransport(wrapping: URLSessionHTTPTransport(), client: auth)
/// let preferences = NotificationPreferencesClient(
///   transport: api, session: auth, store: store,
///   authorization: AlwaysAuthorizedPushAuthorization(),
///   deviceTokens: LocalRelayDeviceTokenProvider(store: store))
/// await preferences.reconcile()  // launch, foreground, network return: never prompts
/// try await preferences.enable(PushPreferences(enabled: true, alerts: true))
/// ```
///
/// - Before every settings change (save, register) it confirms the session's deletion proof
///   (`SessionContext.confirmDeletionProof()`), so an offline logout can still finish.
/// - The permission is asked only after the server confirmed an enabling save.
/// - Signing out, a replacement login and another account remove the content key; results of
///   work started for an earlier login are dropped, so a retried registration never writes
///   over a newer account's.
public actor NotificationPreferencesClient {
  private let api: PushSetupAPI
  private let session: any SessionContext
  private let keys: ContentKeyStore
  /// The store's caller executor: every method of the client runs on its thread.
  private let executor: CredentialStoreExecutor
  private let authorization: any PushAuthorization
  private let deviceTokens: any PushDeviceTokenProvider
  private let broadcaster = ValueBroadcaster(NotificationSettingsState())

  private var machine = NotificationSettingsMachine()
  /// The scope the machine's state belongs to; `nil` when signed out.
  private var activeScope: String?
  /// Bumped on every sign-in, sign-out or account change: work started in an older epoch has
  /// its results dropped.
  private var epoch = 0
  private var observation: Task<Void, Never>?
  private var saveOwner = false
  private var saveWaiters: [CheckedContinuation<Void, Never>] = []
  private var lastSaveFailure: NotificationSettingsFailure?
  /// The unconfirmed choice as last stored (to write only changes).
  private var storedUnconfirmed: StoredNotificationState.Unconfirmed?

  /// The stored values that belong to one login: the content key, the test push in flight, the
  /// unconfirmed choice and the registered key id. Pass them to
  /// `AuthClient.Configuration.loginScopedValues` (`ServerBeeClient` does), so signing out,
  /// another login, a rejection or a recovery removes them in the same store write:
  ///
  /// ```swift
  /// let auth = AuthClient(
  ///   configuration: .init(
  ///     deviceName: "Status board",
  ///     loginScopedValues: NotificationPreferencesClient.loginScopedValues),
  ///   store: store, transport: http)
  /// ```
  public static let loginScopedValues: [CredentialSlot] = [
    CredentialSlot(.pushContentKey, in: .sharedWithExtension),
    CredentialSlot(TestPushTracker.storeKey, in: .appPrivate),
    CredentialSlot(StoredNotificationState.unconfirmedKey, in: .appPrivate),
    CredentialSlot(StoredNotificationState.registrationKey, in: .appPrivate),
  ]

  /// Creates a client.
  /// - Parameters:
  ///   - transport: A transport that signs requests for the session, for example
  ///     `AuthorizedHTTPTransport(wrapping:client:)` of AuthSession.
  ///   - session: The session seam (`AuthClient`, or a fake in tests).
  ///   - store: The credential store; the content key goes into its extension-shared group.
  ///   - authorization: The platform permission.
  ///   - deviceTokens: The platform device token.
  ///   - keyGenerator: Makes content keys; the system's generator by default.
  public init(
    transport: any HTTPTransport, session: any SessionContext, store: any CredentialStore,
    authorization: any PushAuthorization, deviceTokens: any PushDeviceTokenProvider,
    keyGenerator: PushContentKeyGenerator = PushContentKeyGenerator()
  ) {
    self.api = PushSetupAPI(transport: transport)
    self.session = session
    self.keys = ContentKeyStore(store: store, generator: keyGenerator)
    self.executor = store.callerExecutor
    self.authorization = authorization
    self.deviceTokens = deviceTokens
  }

  deinit { observation?.cancel() }

  /// The executor every method of the client runs on: its store's
  /// `CredentialStore/callerExecutor` (shared with the auth client on the same store), so the content key's synchronous `CredentialStore` calls never hold a thread
  /// of the cooperative pool.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// The current state.
  public nonisolated var state: NotificationSettingsState { broadcaster.value }

  /// The state now, then after every change; each call gives its own stream.
  /// - Returns: A stream that starts with the current state.
  public nonisolated func states() -> AsyncStream<NotificationSettingsState> {
    broadcaster.subscribe()
  }

  /// Stops watching the session and ends every ``states()`` stream.
  public func close() {
    observation?.cancel()
    observation = nil
    broadcaster.finishAll()
  }

  /// Launch, foreground and network return: checks the permission (never prompts), loads the
  /// settings, deletes the local key when notifications are off and retries a pending
  /// registration. Failures show in ``state`` (`loadError`, `registration`).
  public func reconcile() async {
    guard syncIdentity() != nil else { return }
    await drive(.reconcile)
  }

  /// Saves the switches: filtered to what the server allows, `PUT` with the confirmed revision;
  /// an enabling save the server confirmed then asks for the permission and registers.
  ///
  /// ```swift
  /// do {
  ///   try await preferences.save(PushPreferences(enabled: true, alerts: true, security: true))
  /// } catch let error as NotificationPreferencesError where error.code == .conflict {
  ///   // reloaded; state.notice == .reloadedAfterConflict
  /// }
  /// ```
  /// - Parameter preferences: The wanted switches.
  /// - Returns: The state after the save (and any registration it started).
  /// - Throws: ``NotificationPreferencesError`` when the save failed (the confirmed settings
  ///   are unchanged and ``NotificationSettingsState/saveError`` shows it, also after a
  ///   relaunch, until a save succeeds or the server confirms that choice); `notPermitted`,
  ///   before anything is sent, when it turns on a category this account may not have
  ///   (security and task notifications are for admins); a conflict whose reload shows the
  ///   server already holds the choice is a success. A registration failure after a confirmed
  ///   save does not throw, it shows in the state.
  @discardableResult
  public func save(_ preferences: PushPreferences) async throws -> NotificationSettingsState {
    guard syncIdentity() != nil else {
      throw NotificationPreferencesError(.notSignedIn, "no session is signed in")
    }
    await acquireSave()
    defer { releaseSave() }
    let started = epoch
    if machine.state.confirmed == nil || machine.state.isLoading { await drive(.reconcile) }
    guard epoch == started, machine.state.isSignedIn else {
      throw NotificationPreferencesError(.notSignedIn, "the session changed during the save")
    }
    guard machine.state.confirmed != nil, !machine.state.isSaving else {
      throw
        (machine.state.loadError
        ?? NotificationSettingsFailure(.transportFailed, "the settings could not be loaded"))
        .error
    }
    if let confirmed = machine.state.confirmed {
      try Self.refuseForbiddenCategories(preferences, confirmed)
    }
    lastSaveFailure = nil
    await drive(.save(preferences))
    if let failure = lastSaveFailure {
      // Reloaded after a conflict and the server already holds this choice: nothing to save.
      let settled = failure.code == .conflict && machine.state.unconfirmed == nil
      if !settled { throw failure.error }
    }
    return machine.state
  }

  /// Refuses turning on a category the account's role does not allow (Protocol/Push.md §2.2:
  /// security and task notifications are for admins). A category a demoted admin still has on
  /// is filtered out by the save instead, so turning notifications off always works.
  static func refuseForbiddenCategories(
    _ wanted: PushPreferences, _ confirmed: PushSetupResponse
  ) throws {
    var refused: [String] = []
    let current = confirmed.preferences
    if wanted.security, !current.security, !confirmed.securityAllowed {
      refused.append("security")
    }
    if confirmed.tasksAllowed != true {
      if wanted.taskFailure, !current.taskFailure { refused.append("task failure") }
      if wanted.taskSuccess, !current.taskSuccess { refused.append("task success") }
    }
    guard !refused.isEmpty else { return }
    throw NotificationPreferencesError(
      .notPermitted,
      "only admins can receive \(refused.joined(separator: " and ")) notifications; "
        + "this account is not an admin")
  }

  /// Turns notifications on with the given switches (by default the confirmed ones, or alerts
  /// when nothing was saved yet).
  /// - Parameter preferences: The switches; `enabled` is set to `true`.
  /// - Returns: The state after the save and registration.
  /// - Throws: See ``save(_:)``.
  @discardableResult
  public func enable(_ preferences: PushPreferences? = nil) async throws
    -> NotificationSettingsState
  {
    // Turning on is idempotent: a save that lost a race with another device or process of
    // this installation is tried again on the reloaded revision (three times at most).
    var attempt = 0
    while true {
      var wanted = preferences ?? machine.state.confirmedPreferences
      if preferences == nil, machine.state.confirmed?.revision ?? 0 == 0 { wanted.alerts = true }
      wanted.enabled = true
      do {
        return try await save(wanted)
      } catch let error as NotificationPreferencesError where error.code == .conflict {
        attempt += 1
        if attempt >= 3 { throw error }
      }
    }
  }

  /// Turns notifications off; once the server confirms, the local content key is deleted. A
  /// demoted admin's disable also clears the categories no longer allowed.
  /// - Returns: The state after the save.
  /// - Throws: See ``save(_:)``.
  @discardableResult
  public func disable() async throws -> NotificationSettingsState {
    var wanted = machine.state.confirmedPreferences
    wanted.enabled = false
    return try await save(wanted)
  }

  // MARK: - Identity

  /// Starts watching the session (once) and applies the current identity now.
  @discardableResult
  private func syncIdentity() -> SessionIdentity? {
    if observation == nil {
      let changes = session.identityChanges()
      observation = Task { [weak self] in
        for await identity in changes {
          guard let self else { return }
          await self.apply(identity: identity)
        }
      }
    }
    let identity = session.currentIdentity
    apply(identity: identity)
    return identity
  }

  private func apply(identity: SessionIdentity?) {
    let scope = identity?.scope
    guard scope != activeScope || (scope == nil && machine.state.isSignedIn) else { return }
    epoch += 1
    let event: NotificationSettingsMachine.Event
    if scope == nil {
      event = .signedOut
    } else if activeScope == nil {
      event = .signedIn
      // A key left by an earlier login (this process or a previous run) is another scope's.
      if let scope { _ = try? keys.key(scope: scope) }
    } else {
      event = .accountChanged
    }
    activeScope = scope
    // The key goes before the new state is published, so an observer never sees the
    // signed-out state while the old login's key is still stored. (An `AuthClient` with
    // `loginScopedValues` has removed it already, in the write that ended the login.)
    for action in machine.handle(event) where action == .clearKey { try? keys.remove() }
    storedUnconfirmed = nil
    if let scope, let stored = readUnconfirmed(), stored.scope == scope {
      storedUnconfirmed = stored
      _ = machine.handle(
        .restoredUnconfirmed(
          stored.preferences, failure: stored.failure, basedOnRevision: stored.basedOnRevision))
    }
    broadcaster.publish(machine.state)
  }

  // MARK: - What survives a relaunch

  private func readUnconfirmed() -> StoredNotificationState.Unconfirmed? {
    (try? keys.store.value(
      StoredNotificationState.Unconfirmed.self, forKey: StoredNotificationState.unconfirmedKey,
      in: .appPrivate)) ?? nil
  }

  /// Stores the unconfirmed choice and the last save error when they changed, so the next run
  /// shows them too (best effort: the state in memory is the truth for this run).
  private func storeUnconfirmedIfChanged() {
    guard let scope = activeScope else { return }
    let state = machine.state
    let wanted = state.unconfirmed.map {
      StoredNotificationState.Unconfirmed(
        scope: scope, preferences: $0, basedOnRevision: machine.attemptRevision,
        errorCode: state.saveError?.code.rawValue, errorMessage: state.saveError?.message,
        errorHTTPStatus: state.saveError?.httpStatus)
    }
    guard wanted != storedUnconfirmed else { return }
    do {
      if let wanted {
        try keys.store.setValue(
          wanted, forKey: StoredNotificationState.unconfirmedKey, in: .appPrivate)
      } else {
        try keys.store.removeValue(forKey: StoredNotificationState.unconfirmedKey, in: .appPrivate)
      }
      storedUnconfirmed = wanted
    } catch {
      // Kept in memory; the next change tries again.
    }
  }

  /// Whether the server's registration uses the content key stored here: the key exists for
  /// this login and is the one the last confirmed registration sent. The settings document
  /// names no key id (Protocol/Push.md §2.2), so a registration another process made with a
  /// key this installation no longer holds is caught here and registered again.
  private func hasRegisteredKey(_ identity: SessionIdentity) -> Bool {
    guard let key = (try? keys.key(scope: identity.scope)) ?? nil else { return false }
    let registration =
      (try? keys.store.value(
        StoredNotificationState.Registration.self,
        forKey: StoredNotificationState.registrationKey, in: .appPrivate)) ?? nil
    return registration
      == StoredNotificationState.Registration(
        scope: identity.scope, keyID: key.keyID)
  }

  // MARK: - Driving the machine

  private func handle(_ event: NotificationSettingsMachine.Event)
    -> [NotificationSettingsMachine.Action]
  {
    let actions = machine.handle(event)
    storeUnconfirmedIfChanged()
    broadcaster.publish(machine.state)
    return actions
  }

  /// Handles `event` and performs the actions it leads to until none are left, dropping
  /// everything once the login changed.
  private func drive(_ event: NotificationSettingsMachine.Event) async {
    let started = epoch
    var queue = handle(event)
    while !queue.isEmpty, epoch == started {
      let action = queue.removeFirst()
      guard let next = await perform(action), epoch == started else { continue }
      queue += handle(next)
    }
  }

  private func perform(_ action: NotificationSettingsMachine.Action) async
    -> NotificationSettingsMachine.Event?
  {
    guard let identity = session.currentIdentity, identity.scope == activeScope else {
      return nil
    }
    switch action {
    case .checkPermission:
      return .permissionChecked(await authorization.status())
    case .requestPermission:
      return .permissionAnswered(await authorization.requestAuthorization())
    case .fetch:
      do {
        let document = try await api.settings(server: identity.server)
        return .fetched(document, hasLocalKey: hasRegisteredKey(identity))
      } catch {
        return .fetchFailed(Self.failure(error))
      }
    case .put(let update):
      do {
        try await confirmProof(for: identity)
        let document = try await api.put(update, server: identity.server)
        return .saved(document, hasLocalKey: hasRegisteredKey(identity))
      } catch {
        let failure = Self.failure(error)
        lastSaveFailure = failure
        return .saveFailed(failure)
      }
    case .obtainDeviceToken:
      do {
        return .deviceTokenReceived(try await deviceTokens.deviceToken())
      } catch {
        return .deviceTokenFailed(
          Self.failure(error, default: .deviceTokenUnavailable))
      }
    case .register(let revision, let token):
      do {
        return .registered(try await register(revision: revision, token: token, for: identity))
      } catch {
        return .registrationFailed(Self.failure(error))
      }
    case .clearKey:
      try? keys.remove()
      try? keys.store.removeValue(forKey: StoredNotificationState.registrationKey, in: .appPrivate)
      return nil
    }
  }

  private func confirmProof(for identity: SessionIdentity) async throws {
    do {
      let confirmed = try await session.confirmDeletionProof()
      guard confirmed.scope == identity.scope else {
        throw NotificationPreferencesError(.notSignedIn, "the session changed")
      }
    } catch let error as NotificationPreferencesError {
      throw error
    } catch let error as CancellationError {
      throw error
    } catch {
      throw NotificationPreferencesError(
        .notSignedIn, "the session's deletion proof could not be confirmed",
        underlying: error)
    }
  }

  private func register(revision: Int64, token: PushDeviceToken, for identity: SessionIdentity)
    async throws -> PushSetupResponse
  {
    let deployment = identity.server.url.absoluteString
    guard RegistrationRules.isUsableServerURL(deployment) else {
      throw NotificationPreferencesError(
        .insecureServer, "encrypted push needs an https server (or http://127.0.0.1:PORT)")
    }
    // Checked with no suspension before the key is made: on the store thread that the auth
    // client shares, a logout either finished before this line or starts after the key exists
    // (and then removes it with the login).
    guard session.currentIdentity?.scope == identity.scope, identity.scope == activeScope else {
      throw NotificationPreferencesError(.notSignedIn, "the session changed")
    }
    let key: PushContentKey
    do {
      key = try keys.keyCreatingIfNeeded(for: identity)
    } catch let error as NotificationPreferencesError {
      throw error
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the content key could not be stored",
        underlying: error)
    }
    let request = EncryptedRegisterRequest(
      expectedRevision: revision, deviceToken: token.hex, environment: token.environment,
      contentKey: key)
    try RegistrationRules.validate(request)
    try await confirmProof(for: identity)
    // The transport signs with whatever session is current: never send for an older login.
    guard session.currentIdentity?.scope == identity.scope, identity.scope == activeScope else {
      throw NotificationPreferencesError(.notSignedIn, "the session changed")
    }
    let document = try await api.register(request, server: identity.server)
    if document.registered, identity.scope == activeScope {
      try? keys.store.setValue(
        StoredNotificationState.Registration(scope: identity.scope, keyID: key.keyID),
        forKey: StoredNotificationState.registrationKey, in: .appPrivate)
    }
    return document
  }

  static func failure(
    _ error: any Error, default code: NotificationPreferencesError.Code = .transportFailed
  ) -> NotificationSettingsFailure {
    if let error = error as? NotificationPreferencesError {
      return NotificationSettingsFailure(error)
    }
    if let error = error as? any ServerBeeErrorProtocol {
      return NotificationSettingsFailure(code, error.message, httpStatus: error.httpStatus)
    }
    if error is CancellationError { return NotificationSettingsFailure(code, "cancelled") }
    return NotificationSettingsFailure(code, "an unexpected failure stopped it")
  }

  // MARK: - Serialising saves

  private func acquireSave() async {
    if !saveOwner {
      saveOwner = true
      return
    }
    await withCheckedContinuation { saveWaiters.append($0) }
  }

  private func releaseSave() {
    if saveWaiters.isEmpty {
      saveOwner = false
    } else {
      saveWaiters.removeFirst().resume()
    }
  }
}
