public import ServerBeeModels

/// The pure state machine behind ``NotificationPreferencesClient``: events in, actions out.
///
/// It never performs anything itself. The client feeds it what happened (a load finished, a
/// save failed, the user allowed notifications), performs the actions it returns (fetch, put,
/// request permission, obtain a device token, register, clear the key) and feeds the results
/// back. The published ``NotificationSettingsState`` is the machine's ``state``.
///
/// Rules it enforces (Protocol/Push.md §2.4–§2.6, §2.9):
/// - Only the server's answer becomes ``NotificationSettingsState/confirmed``; a save puts the
///   choice in ``NotificationSettingsState/unconfirmed`` and `PUT`s it with the confirmed
///   revision, after dropping `security` unless `security_allowed` and the task categories
///   unless `tasks_allowed == true`.
/// - A failed save keeps the confirmed document and the unconfirmed choice and shows the error
///   until a save succeeds or a load shows the same preferences at a newer revision; a
///   registration success alone never clears it. A 409 reloads and says so.
/// - A response older than the confirmed revision never overwrites it.
/// - Permission is requested only after the server confirmed an enabling save; a reconcile only
///   checks it, and registers when it is already granted.
///
/// ```swift
/// var machine = NotificationSettingsMachine()
/// _ = machine.handle(.signedIn)
/// var actions = machine.handle(.reconcile)  // [.checkPermission, .fetch]
/// actions = machine.handle(.permissionChecked(.authorized))  // []
/// actions = machine.handle(.fetched(document, hasLocalKey: false))  // [.obtainDeviceToken]
/// ```
public struct NotificationSettingsMachine: Sendable {
  /// What happened.
  public enum Event: Sendable, Hashable {
    /// A session is signed in (a new scope): start empty.
    case signedIn
    /// The session signed out: forget everything and clear the key.
    case signedOut
    /// Another login (replacement login or another account) replaced the session.
    case accountChanged
    /// Launch, foreground or network return: check permission and reload (never prompts).
    case reconcile
    /// The permission as the system reports it, without asking.
    case permissionChecked(PushPermissionStatus)
    /// `GET settings` answered; `hasLocalKey` says whether a key of this scope is stored.
    case fetched(PushSetupResponse, hasLocalKey: Bool)
    /// `GET settings` failed.
    case fetchFailed(NotificationSettingsFailure)
    /// The user saves these switches (enable and disable are saves too).
    case save(PushPreferences)
    /// `PUT settings` answered 200.
    case saved(PushSetupResponse, hasLocalKey: Bool)
    /// `PUT settings` failed (409 included).
    case saveFailed(NotificationSettingsFailure)
    /// The user answered the permission request.
    case permissionAnswered(PushPermissionStatus)
    /// The platform gave a device token.
    case deviceTokenReceived(PushDeviceToken)
    /// The platform could not give a device token.
    case deviceTokenFailed(NotificationSettingsFailure)
    /// `encrypted-register` answered 200.
    case registered(PushSetupResponse)
    /// `encrypted-register` failed, or its answer could not be confirmed.
    case registrationFailed(NotificationSettingsFailure)
    /// A choice the server had not confirmed when the app last ran, with the error its save
    /// ended with and the revision it was based on, read back from the store at sign-in.
    case restoredUnconfirmed(
      PushPreferences, failure: NotificationSettingsFailure?, basedOnRevision: Int64?)
  }

  /// What the client must do.
  public enum Action: Sendable, Hashable {
    /// Ask the system for the permission status without prompting.
    case checkPermission
    /// `GET /api/mobile/push/settings`.
    case fetch
    /// Confirm the session's deletion proof, then `PUT /api/mobile/push/settings` with this body.
    case put(PushSettingsUpdate)
    /// Prompt for the notification permission.
    case requestPermission
    /// Obtain the device token (iOS: `registerForRemoteNotifications`).
    case obtainDeviceToken
    /// Make sure a content key of the current scope exists, then `encrypted-register`.
    case register(expectedRevision: Int64, deviceToken: PushDeviceToken)
    /// Delete the local content key.
    case clearKey
  }

  /// The state the settings page shows.
  public private(set) var state = NotificationSettingsState()

  /// The revision the failed or in-flight save was based on: a load confirms the unconfirmed
  /// choice only at a newer revision than this.
  /// The confirmed revision the unconfirmed choice was based on (`nil` when there is none).
  public private(set) var attemptRevision: Int64?
  /// A fetch is needed as soon as the one in flight answers (its answer may predate a change).
  private var fetchAgain = false
  /// A token request or `encrypted-register` is under way (its answer must come back, even when
  /// the settings moved on meanwhile and the page no longer shows "registering").
  private var registrationInFlight = false

  /// Creates a machine in the signed-out state.
  public init() {}

  /// Drops what the server does not allow: `security` unless `security_allowed`, the task
  /// categories unless `tasks_allowed == true` (a demoted admin's save clears them).
  /// - Parameters:
  ///   - preferences: The wanted switches.
  ///   - document: The confirmed settings document.
  /// - Returns: The switches to `PUT`.
  public static func filtered(_ preferences: PushPreferences, for document: PushSetupResponse)
    -> PushPreferences
  {
    var result = preferences
    if !document.securityAllowed { result.security = false }
    if document.tasksAllowed != true {
      result.taskFailure = false
      result.taskSuccess = false
    }
    return result
  }

  /// Handles one event.
  /// - Parameter event: What happened.
  /// - Returns: The actions to perform, in order.
  public mutating func handle(_ event: Event) -> [Action] {
    switch event {
    case .signedIn:
      reset(signedIn: true)
      return []
    case .signedOut:
      reset(signedIn: false)
      return [.clearKey]
    case .accountChanged:
      reset(signedIn: true)
      return [.clearKey]
    case .reconcile:
      requireSignedIn(event)
      return [.checkPermission] + fetchActions()
    case .permissionChecked(let status), .permissionAnswered(let status):
      return permissionChanged(status, answered: isAnswer(event))
    case .fetched(let document, let hasLocalKey):
      return fetched(document, hasLocalKey: hasLocalKey)
    case .fetchFailed(let failure):
      require(state.isLoading, event)
      state.isLoading = false
      state.loadError = failure
      return takeFetchAgain()
    case .save(let wanted):
      return save(wanted, event: event)
    case .saved(let document, let hasLocalKey):
      return saved(document, hasLocalKey: hasLocalKey, event: event)
    case .saveFailed(let failure):
      require(state.isSaving, event)
      state.isSaving = false
      state.saveError = failure
      guard failure.code == .conflict else { return [] }
      state.notice = .reloadedAfterConflict
      return fetchActions()
    case .deviceTokenReceived(let token):
      require(registrationInFlight, event)
      guard let confirmed = state.confirmed, confirmed.preferences.enabled else {
        registrationInFlight = false
        return []
      }
      return [.register(expectedRevision: confirmed.revision, deviceToken: token)]
    case .deviceTokenFailed(let failure):
      return registrationEnded(.failed(failure), event: event)
    case .registered(let document):
      return registered(document, event: event)
    case .restoredUnconfirmed(let preferences, let failure, let revision):
      requireSignedIn(event)
      guard !state.isSaving, state.unconfirmed == nil else { return [] }
      state.unconfirmed = preferences
      state.saveError = failure
      attemptRevision = revision
      return []
    case .registrationFailed(let failure):
      let actions = registrationEnded(.failed(failure), event: event)
      return failure.code == .conflict && state.registration != .notRegistered
        ? actions + fetchActions() : actions
    }
  }

  // MARK: - Transitions

  private mutating func reset(signedIn: Bool) {
    let permission = state.permission
    state = NotificationSettingsState(isSignedIn: signedIn, permission: permission)
    attemptRevision = nil
    fetchAgain = false
    registrationInFlight = false
  }

  /// Ends the in-flight registration; the outcome shows only while notifications are still on.
  private mutating func registrationEnded(_ status: PushRegistrationStatus, event: Event)
    -> [Action]
  {
    require(registrationInFlight, event)
    registrationInFlight = false
    guard state.confirmed?.preferences.enabled == true else {
      state.registration = .notRegistered
      return []
    }
    state.registration = status
    return []
  }

  private mutating func fetchActions() -> [Action] {
    if state.isLoading {
      fetchAgain = true
      return []
    }
    state.isLoading = true
    return [.fetch]
  }

  private mutating func takeFetchAgain() -> [Action] {
    guard fetchAgain else { return [] }
    fetchAgain = false
    return fetchActions()
  }

  private func isAnswer(_ event: Event) -> Bool {
    if case .permissionAnswered = event { return true }
    return false
  }

  private mutating func permissionChanged(_ status: PushPermissionStatus, answered: Bool)
    -> [Action]
  {
    state.permission = status
    // A check (reconcile) never starts a registration by itself: the load that follows does.
    guard answered, state.registration == .needsPermission, status == .authorized else {
      return []
    }
    guard state.confirmed?.preferences.enabled == true else {
      state.registration = .notRegistered
      return []
    }
    return startRegistration()
  }

  private mutating func startRegistration() -> [Action] {
    state.registration = .registering
    if registrationInFlight { return [] }
    registrationInFlight = true
    return [.obtainDeviceToken]
  }

  /// Whether `document` is older than what is confirmed, so it must not overwrite it.
  private func isStale(_ document: PushSetupResponse) -> Bool {
    guard let confirmed = state.confirmed else { return false }
    return document.revision < confirmed.revision
  }

  private mutating func confirm(_ document: PushSetupResponse) {
    state.confirmed = document
    if let unconfirmed = state.unconfirmed {
      state.unconfirmed = Self.filtered(unconfirmed, for: document)
    }
  }

  private mutating func fetched(_ document: PushSetupResponse, hasLocalKey: Bool) -> [Action] {
    require(state.isLoading, .fetched(document, hasLocalKey: hasLocalKey))
    state.isLoading = false
    state.loadError = nil
    if isStale(document) { return takeFetchAgain() }
    confirm(document)
    // The server confirmed the same preferences at a newer revision than the failed attempt.
    if !state.isSaving, let unconfirmed = state.unconfirmed,
      document.preferences == unconfirmed, document.revision > (attemptRevision ?? -1)
    {
      state.unconfirmed = nil
      state.saveError = nil
      attemptRevision = nil
    }
    return registrationActions(for: document, hasLocalKey: hasLocalKey, mayPrompt: false)
      + takeFetchAgain()
  }

  private mutating func save(_ wanted: PushPreferences, event: Event) -> [Action] {
    requireSignedIn(event)
    guard !state.isSaving, let confirmed = state.confirmed else {
      preconditionFailure(
        "NotificationSettingsMachine: a save needs loaded settings and no save in flight")
    }
    let preferences = Self.filtered(wanted, for: confirmed)
    state.unconfirmed = preferences
    state.isSaving = true
    state.notice = nil
    attemptRevision = confirmed.revision
    return [
      .put(PushSettingsUpdate(expectedRevision: confirmed.revision, preferences: preferences))
    ]
  }

  private mutating func saved(_ document: PushSetupResponse, hasLocalKey: Bool, event: Event)
    -> [Action]
  {
    require(state.isSaving, event)
    state.isSaving = false
    state.unconfirmed = nil
    state.saveError = nil
    state.notice = nil
    attemptRevision = nil
    if isStale(document) { return [] }
    confirm(document)
    return registrationActions(for: document, hasLocalKey: hasLocalKey, mayPrompt: true)
  }

  private mutating func registrationActions(
    for document: PushSetupResponse, hasLocalKey: Bool, mayPrompt: Bool
  ) -> [Action] {
    guard document.preferences.enabled else {
      state.registration = .notRegistered
      return [.clearKey]
    }
    if registrationInFlight {
      state.registration = .registering
      return []
    }
    if document.registered && hasLocalKey {
      state.registration = .registered
      return []
    }
    if state.permission == .authorized { return startRegistration() }
    state.registration = .needsPermission
    // Only an enabling save that the server confirmed may prompt; a reconcile never does.
    return mayPrompt && state.permission != .denied ? [.requestPermission] : []
  }

  private mutating func registered(_ document: PushSetupResponse, event: Event) -> [Action] {
    let previous = state.confirmed?.revision ?? 0
    guard document.registered, document.revision >= previous else {
      let failure = NotificationSettingsFailure(
        .registrationNotConfirmed,
        document.registered
          ? "the registration answer went back in revision"
          : "the server did not confirm the registration")
      return registrationEnded(.failed(failure), event: event)
    }
    _ = registrationEnded(.registered, event: event)
    guard state.registration == .registered else { return [] }
    // The document is the server's, so it becomes confirmed; the unconfirmed choice and the
    // save error stay: a registration success alone never confirms preferences.
    confirm(document)
    return []
  }

  private func requireSignedIn(_ event: Event) {
    require(state.isSignedIn, event)
  }

  private func require(_ condition: Bool, _ event: Event) {
    if !condition {
      preconditionFailure("NotificationSettingsMachine: impossible event \(event) in \(state)")
    }
  }
}
