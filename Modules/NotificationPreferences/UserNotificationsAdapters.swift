#if canImport(UserNotifications)
  public import Foundation
  public import ServerBeeModels
  import UserNotifications

  /// The iOS ``PushAuthorization``: `UNUserNotificationCenter`'s authorization status and request
  /// (alert, sound, badge).
  ///
  /// ```swift
  /// let preferences = NotificationPreferencesClient(
  ///   transport: api, session: auth, store: keychain,
  ///   authorization: UserNotificationsPushAuthorization(),
  ///   deviceTokens: remoteTokens)
  /// ```
  public struct UserNotificationsPushAuthorization: PushAuthorization {
    /// Creates the adapter for the current notification center.
    public init() {}

    /// The permission, without prompting.
    /// - Returns: The status.
    public func status() async -> PushPermissionStatus {
      let settings = await UNUserNotificationCenter.current().notificationSettings()
      return Self.status(settings.authorizationStatus)
    }

    /// Prompts when never asked; otherwise the current status.
    /// - Returns: The status after the answer.
    public func requestAuthorization() async -> PushPermissionStatus {
      let center = UNUserNotificationCenter.current()
      _ = try? await center.requestAuthorization(options: [.alert, .sound, .badge])
      return await status()
    }

    static func status(_ status: UNAuthorizationStatus) -> PushPermissionStatus {
      switch status {
      case .notDetermined: return .notDetermined
      case .denied: return .denied
      case .authorized, .provisional, .ephemeral: return .authorized
      @unknown default: return .denied
      }
    }
  }
#endif
