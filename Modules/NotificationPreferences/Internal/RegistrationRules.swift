import Foundation
import ServerBeeModels

/// The checks the server applies to `encrypted-register` (wire contract v2 §3.5), applied
/// before sending so a bad field is a typed error instead of a 422.
enum RegistrationRules {
  /// `https://host…`, or `http://127.0.0.1:PORT` with an explicit port (§3.5, §3.7).
  static func isUsableServerURL(_ text: String) -> Bool {
    guard let components = URLComponents(string: text), let scheme = components.scheme,
      let host = components.host, !host.isEmpty, components.user == nil,
      components.password == nil
    else { return false }
    switch scheme {
    case "https": return true
    case "http": return host == "127.0.0.1" && components.port != nil
    default: return false
    }
  }

  static func isLowercaseHex(_ text: String, evenLengthIn range: ClosedRange<Int>) -> Bool {
    let bytes = Array(text.utf8)
    guard range.contains(bytes.count), bytes.count % 2 == 0 else { return false }
    return bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// A canonical lowercase hyphenated UUID.
  static func isLowercaseUUID(_ text: String) -> Bool {
    guard let uuid = UUID(uuidString: text) else { return false }
    return uuid.uuidString.lowercased() == text
  }

  /// Canonical standard base64 of exactly 32 bytes.
  static func isContentKey(_ text: String) -> Bool {
    guard let data = Data(base64Encoded: text), data.count == 32 else { return false }
    return data.base64EncodedString() == text
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
    guard isLowercaseUUID(request.contentKeyID), isContentKey(request.contentKey) else {
      throw NotificationPreferencesError(
        .invalidContentKey, "the content key must have a lowercase UUID id and 32 bytes")
    }
    guard request.deploymentID.utf8.count <= 512, isUsableServerURL(request.deploymentID) else {
      throw NotificationPreferencesError(
        .invalidDeploymentID,
        "the deployment id must be an https URL (or http://127.0.0.1:PORT) of at most 512 bytes")
    }
  }
}
