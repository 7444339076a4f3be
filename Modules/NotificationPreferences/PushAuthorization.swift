/// The platform's notification permission: read it without prompting, or ask for it.
///
/// ``NotificationPreferencesClient`` reads the status on every reconcile and asks only after the
/// server confirmed an enabling save, never at sign-in. iOS: `UserNotificationsPushAuthorization`;
/// a Linux or desktop device of a `serverbee-relay`: ``AlwaysAuthorizedPushAuthorization``.
///
/// ```swift
/// struct Denied: PushAuthorization {
///   func status() async -> PushPermissionStatus { .denied }
///   func requestAuthorization() async -> PushPermissionStatus { .denied }
/// }
/// ```
public protocol PushAuthorization: Sendable {
  /// The current permission, without prompting.
  /// - Returns: The status.
  func status() async -> PushPermissionStatus

  /// Prompts for the permission when it was never asked; otherwise returns the current status.
  /// - Returns: The status after the user answered.
  func requestAuthorization() async -> PushPermissionStatus
}

/// A ``PushAuthorization`` that is always granted: a device without a permission prompt, such
/// as a Linux or desktop device registered with a `serverbee-relay`.
///
/// ```swift
/// let authorization = AlwaysAuthorizedPushAuthorization()
/// #expect(await authorization.requestAuthorization() == .authorized)
/// ```
public struct AlwaysAuthorizedPushAuthorization: PushAuthorization {
  /// Creates the authorization.
  public init() {}

  /// Always ``PushPermissionStatus/authorized``.
  /// - Returns: `.authorized`.
  public func status() async -> PushPermissionStatus { .authorized }

  /// Always ``PushPermissionStatus/authorized``, without prompting.
  /// - Returns: `.authorized`.
  public func requestAuthorization() async -> PushPermissionStatus { .authorized }
}
