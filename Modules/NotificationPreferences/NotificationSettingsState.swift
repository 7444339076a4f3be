public import ServerBeeModels

/// A failure as the settings state keeps it: comparable, so the state stays `Equatable`.
///
/// ```swift
/// if let failure = state.saveError { showBanner(failure.message) }
/// ```
public struct NotificationSettingsFailure: Sendable, Hashable, CustomStringConvertible {
  /// The error code.
  public var code: NotificationPreferencesError.Code
  /// A message for logs (never a token, key or content).
  public var message: String
  /// The HTTP status, when the server answered.
  public var httpStatus: Int?

  /// Creates a failure.
  /// - Parameters:
  ///   - code: The code.
  ///   - message: The message.
  ///   - httpStatus: The HTTP status, if any.
  public init(_ code: NotificationPreferencesError.Code, _ message: String, httpStatus: Int? = nil)
  {
    self.code = code
    self.message = message
    self.httpStatus = httpStatus
  }

  /// Creates a failure from the module's error.
  /// - Parameter error: The error.
  public init(_ error: NotificationPreferencesError) {
    self.init(error.code, error.message, httpStatus: error.httpStatus)
  }

  /// The failure as the module's error, for throwing.
  public var error: NotificationPreferencesError {
    NotificationPreferencesError(code, message, httpStatus: httpStatus)
  }

  /// The error's description.
  public var description: String { error.description }
}

/// The system's notification permission for this app, as last seen (never asked at sign-in).
public enum PushPermissionStatus: Sendable, Hashable {
  /// Not looked at yet.
  case unknown
  /// The user was never asked.
  case notDetermined
  /// The user refused; only the system settings can change it.
  case denied
  /// Notifications may be shown (including provisional authorization).
  case authorized
}

/// Where this installation's server registration stands, shown apart from the permission.
public enum PushRegistrationStatus: Sendable, Hashable {
  /// Notifications are off (or the settings were not loaded yet): nothing is registered.
  case notRegistered
  /// Notifications are on but the system permission is missing; reconcile never asks for it.
  case needsPermission
  /// A device token is being obtained or `encrypted-register` is under way.
  case registering
  /// The server confirmed the registration and this device holds the content key.
  case registered
  /// The last registration attempt failed; the next reconcile retries it.
  case failed(NotificationSettingsFailure)
}

/// Something the settings page should say once, next to the state.
public enum NotificationSettingsNotice: Sendable, Hashable {
  /// The server refused a save because the settings changed elsewhere (409); they were reloaded.
  case reloadedAfterConflict
}

/// Everything the notification settings page shows: the server-confirmed document, the user's
/// unconfirmed choices, the last save error, the permission and the registration, each apart.
///
/// ```swift
/// for await state in preferences.states() {
///   toggles = state.unconfirmed ?? state.confirmed?.preferences ?? PushPreferences()
///   errorText = state.saveError?.message
///   permissionRow = state.permission
///   registrationRow = state.registration
/// }
/// ```
public struct NotificationSettingsState: Sendable, Hashable {
  /// Whether a session is signed in; when `false` everything else is empty.
  public var isSignedIn: Bool
  /// The last settings document the server answered with (its `revision` included); `nil`
  /// until loaded.
  public var confirmed: PushSetupResponse?
  /// The user's choices the server has not confirmed yet (already filtered to what the server
  /// allows); `nil` when there are none.
  public var unconfirmed: PushPreferences?
  /// The last save failure; it stays until a save succeeds or the server confirms the same
  /// preferences at a newer revision.
  public var saveError: NotificationSettingsFailure?
  /// The last failure to load the settings (cleared by the next successful load).
  public var loadError: NotificationSettingsFailure?
  /// The system permission.
  public var permission: PushPermissionStatus
  /// The server registration.
  public var registration: PushRegistrationStatus
  /// A `GET settings` is under way.
  public var isLoading: Bool
  /// A `PUT settings` is under way.
  public var isSaving: Bool
  /// A one-time remark, for example that a conflict reloaded the settings.
  public var notice: NotificationSettingsNotice?

  /// Creates a state.
  /// - Parameters:
  ///   - isSignedIn: Whether a session is signed in.
  ///   - confirmed: The confirmed document.
  ///   - unconfirmed: The unconfirmed choices.
  ///   - saveError: The last save error.
  ///   - loadError: The last load error.
  ///   - permission: The permission.
  ///   - registration: The registration.
  ///   - isLoading: A load is under way.
  ///   - isSaving: A save is under way.
  ///   - notice: A one-time remark.
  public init(
    isSignedIn: Bool = false, confirmed: PushSetupResponse? = nil,
    unconfirmed: PushPreferences? = nil, saveError: NotificationSettingsFailure? = nil,
    loadError: NotificationSettingsFailure? = nil, permission: PushPermissionStatus = .unknown,
    registration: PushRegistrationStatus = .notRegistered, isLoading: Bool = false,
    isSaving: Bool = false, notice: NotificationSettingsNotice? = nil
  ) {
    self.isSignedIn = isSignedIn
    self.confirmed = confirmed
    self.unconfirmed = unconfirmed
    self.saveError = saveError
    self.loadError = loadError
    self.permission = permission
    self.registration = registration
    self.isLoading = isLoading
    self.isSaving = isSaving
    self.notice = notice
  }

  /// The confirmed switches (all off until loaded): what is really saved.
  public var confirmedPreferences: PushPreferences { confirmed?.preferences ?? PushPreferences() }

  /// Whether to offer the security switch: the server says the caller is an admin now.
  public var offersSecurity: Bool { confirmed?.securityAllowed == true }

  /// Whether to offer the task switches: the server says `tasks_allowed == true`.
  public var offersTasks: Bool { confirmed?.tasksAllowed == true }

  /// Whether the server has no push setup routes (a v1 server).
  public var isUnsupportedByServer: Bool { loadError?.code == .unsupportedByServer }

  /// Whether a test push may be sent: `registered`, `enabled` and `test_available != false`.
  public var canSendTest: Bool {
    guard let confirmed else { return false }
    return confirmed.registered && confirmed.preferences.enabled
      && confirmed.testAvailable != false
  }
}
