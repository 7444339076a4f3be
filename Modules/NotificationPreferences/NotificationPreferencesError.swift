public import ServerBeeModels

/// The error domain of the NotificationPreferences module.
public enum NotificationPreferencesDomain: ServerBeeErrorDomain {
  /// `"NotificationPreferences"`.
  public static let name = "NotificationPreferences"
}

/// The one public error type of NotificationPreferences: a `ServerBeeError` (ServerBeeModels)
/// with this module's codes.
///
/// ```swift
/// do { try await preferences.save(wanted) } catch let error as NotificationPreferencesError
///   where error.code == .conflict {
///   // the settings were reloaded; show them and let the user save again
/// }
/// ```
public typealias NotificationPreferencesError = ServerBeeError<NotificationPreferencesDomain>

extension ServerBeeError.Code where Domain == NotificationPreferencesDomain {
  /// The operation is not available in this version of the SDK.
  public static let notImplemented = Self("not_implemented")
  /// The server has no push setup routes (a v1 server answered 404 with an empty body).
  public static let unsupportedByServer = Self("unsupported_by_server")
  /// No session is signed in.
  public static let notSignedIn = Self("not_signed_in")
  /// The settings changed on the server (409); they were reloaded.
  public static let conflict = Self("conflict")
  /// The server refused the change (403), for example a member asking for security pushes.
  public static let notPermitted = Self("not_permitted")
  /// The session was rejected (401).
  public static let unauthorized = Self("unauthorized")
  /// The server refused the request as invalid (400 or 422).
  public static let invalidRequest = Self("invalid_request")
  /// The server failed (5xx) or answered something unreadable.
  public static let serverError = Self("server_error")
  /// The request did not reach the server or its answer was lost.
  public static let transportFailed = Self("transport_failed")
  /// The server URL is neither `https` nor `http://127.0.0.1:PORT`: no encrypted registration.
  public static let insecureServer = Self("insecure_server")
  /// The device token is not lowercase hex of even length, 2–1024 characters.
  public static let invalidDeviceToken = Self("invalid_device_token")
  /// The environment is neither `sandbox` nor `production`.
  public static let invalidEnvironment = Self("invalid_environment")
  /// The content key id is not a lowercase hyphenated UUID, or the key is not 32 bytes.
  public static let invalidContentKey = Self("invalid_content_key")
  /// The deployment id is longer than 512 characters or not a usable URL.
  public static let invalidDeploymentID = Self("invalid_deployment_id")
  /// The server's answer to a registration did not say `registered`, or went back in revision.
  public static let registrationNotConfirmed = Self("registration_not_confirmed")
  /// The user did not allow notifications on this device.
  public static let permissionDenied = Self("permission_denied")
  /// No device token could be obtained.
  public static let deviceTokenUnavailable = Self("device_token_unavailable")
  /// The credential store failed.
  public static let storageFailed = Self("storage_failed")
  /// A test push cannot be sent now (not enabled, not registered or no relay).
  public static let testUnavailable = Self("test_unavailable")
  /// The server no longer knows a test it had admitted (404 after admission).
  public static let testNotFound = Self("test_not_found")
  /// The relay URL is not an `http` or `https` URL with a host (and no user, query or
  /// fragment).
  public static let invalidRelayURL = Self("invalid_relay_url")
  /// The relay could not be reached, is busy, rate limiting or out of room; trying again later
  /// may work.
  public static let relayUnavailable = Self("relay_unavailable")
  /// The relay answered in a way that trying again will not change: no local-device routes, an
  /// environment it does not serve, or an unreadable answer.
  public static let relayRejected = Self("relay_rejected")
  /// The relay unregistered this local device (its token was revoked); a new token is needed.
  public static let deviceUnregistered = Self("device_unregistered")
}
