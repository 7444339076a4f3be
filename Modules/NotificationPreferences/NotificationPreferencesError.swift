public import ServerBeeModels

/// The error domain of the NotificationPreferences module.
public enum NotificationPreferencesDomain: ServerBeeErrorDomain {
  /// `"NotificationPreferences"`.
  public static let name = "NotificationPreferences"
}

/// The one public error type of NotificationPreferences: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias NotificationPreferencesError = ServerBeeError<NotificationPreferencesDomain>

extension ServerBeeError.Code where Domain == NotificationPreferencesDomain {
  /// The operation is not available in this version of the SDK.
  public static let notImplemented = Self("not_implemented")
}
