import Foundation
import ServerBeeModels

/// The checks the server applies to `encrypted-register` (Protocol/Push.md §2.5), applied
/// before sending so a bad field is a typed error instead of a 422.
enum RegistrationRules {
  /// `https://host…`, or `http://127.0.0.1:PORT` with an explicit port (Protocol/Push.md §2.5,
  /// §2.7).
  static func isUsableServerURL(_ text: String) -> Bool { PushRegistrationRules.isUsableURL(text) }

  static func isLowercaseHex(_ text: String, evenLengthIn range: ClosedRange<Int>) -> Bool {
    PushRegistrationRules.isLowercaseHex(text, evenLengthIn: range)
  }

  /// Checks every field; the first bad one is the error.
  static func validate(_ request: EncryptedRegisterRequest) throws(NotificationPreferencesError) {
    guard isLowercaseHex(request.deviceToken, evenLengthIn: 2...1024) else {
      throw NotificationPreferencesError(
        .invalidDeviceToken, "the device token must be lowercase hex of even length, 2–1024")
    }
    guard request.environment == .sandbox || request.environment == .production else {
      throw NotificationPreferencesError(
        .invalidEnvironment, "the environment must be sandbox or production")
    }
    guard PushRegistrationRules.isLowercaseUUID(request.contentKeyID),
      PushRegistrationRules.isContentKey(request.contentKey)
    else {
      throw NotificationPreferencesError(
        .invalidContentKey, "the content key must have a lowercase UUID id and 32 bytes")
    }
    guard PushRegistrationRules.isDeploymentID(request.deploymentID) else {
      throw NotificationPreferencesError(
        .invalidDeploymentID,
        "the deployment id must be an https URL (or http://127.0.0.1:PORT) of at most 512 bytes")
    }
  }
}
