import Foundation
import SecureStore
import ServerBeeModels

/// What the notification settings keep of one login between runs (app-private group): the
/// choice the server has not confirmed with the error its save ended with, and which content
/// key the server last confirmed a registration for. Both are login-scoped values
/// (`NotificationPreferencesClient.loginScopedValues`): the auth client removes them with the
/// login.
enum StoredNotificationState {
  /// The unconfirmed choice and the last save error.
  static let unconfirmedKey: CredentialKey = "serverbee_notification_unconfirmed_choice"
  /// The content key id the server last confirmed a registration with.
  static let registrationKey: CredentialKey = "serverbee_notification_registration"

  struct Unconfirmed: Codable, Hashable, Sendable {
    var scope: String
    var preferences: PushPreferences
    var basedOnRevision: Int64?
    var errorCode: String?
    var errorMessage: String?
    var errorHTTPStatus: Int?

    var failure: NotificationSettingsFailure? {
      guard let errorCode, let errorMessage else { return nil }
      return NotificationSettingsFailure(
        NotificationPreferencesError.Code(errorCode), errorMessage, httpStatus: errorHTTPStatus)
    }
  }

  struct Registration: Codable, Hashable, Sendable {
    var scope: String
    var keyID: String
  }
}
