#if canImport(FoundationEssentials)
  import ServerBeeCore
  import FoundationEssentials
#else
  import Foundation
#endif

/// The field rules a ServerBee server applies to `encrypted-register` and to its relay URL
/// (Protocol/Push.md §2.5, §2.7), in one place for the server side (the simulator) and the
/// client side (checking before sending).
///
/// ```swift
/// PushRegistrationRules.isUsableURL("http://127.0.0.1:8787")    // true
/// PushRegistrationRules.isUsableURL("http://monitor.example")    // false: http only on 127.0.0.1
/// PushRegistrationRules.isLowercaseHex("ab01", evenLengthIn: 2...1024)  // true
/// ```
public enum PushRegistrationRules {
  /// A usable relay URL or `deployment_id`: `https://host…`, or `http://127.0.0.1:PORT` with an
  /// explicit numeric port. Empty, `https://`, `http://remote.test` and
  /// `http://127.0.0.1:invalid` are unusable.
  /// - Parameter text: The URL text.
  /// - Returns: Whether a server accepts it.
  public static func isUsableURL(_ text: String) -> Bool {
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

  /// Lowercase hex (`0-9a-f`) of even length within `range` (device tokens: 2…1024).
  /// - Parameters:
  ///   - text: The text.
  ///   - range: The allowed lengths.
  /// - Returns: Whether it qualifies.
  public static func isLowercaseHex(_ text: String, evenLengthIn range: ClosedRange<Int>) -> Bool {
    let bytes = Array(text.utf8)
    guard range.contains(bytes.count), bytes.count % 2 == 0 else { return false }
    return bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// A UUID in canonical lowercase hyphenated form (`8-4-4-4-12` lowercase hex digits, any
  /// version): what `UUID(uuidString:)` reads and writes back lowercased unchanged, checked byte
  /// by byte (parsing, printing and lowercasing cost about 14,000 instructions a call, and the
  /// simulator checks a registration on every push).
  /// - Parameter text: The text.
  /// - Returns: Whether it qualifies.
  public static func isLowercaseUUID(_ text: String) -> Bool {
    var count = 0
    for byte in text.utf8 {
      if count == 8 || count == 13 || count == 18 || count == 23 {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard (48...57).contains(byte) || (97...102).contains(byte) else { return false }
      }
      count += 1
      guard count <= 36 else { return false }
    }
    return count == 36
  }

  /// Canonical standard base64 of exactly 32 bytes (a content key).
  /// - Parameter text: The text.
  /// - Returns: Whether it qualifies.
  public static func isContentKey(_ text: String) -> Bool {
    Base64.decodeCanonical(text)?.count == 32
  }

  /// A `deployment_id`: a usable URL of at most 512 bytes.
  /// - Parameter text: The text.
  /// - Returns: Whether it qualifies.
  public static func isDeploymentID(_ text: String) -> Bool {
    text.utf8.count <= 512 && isUsableURL(text)
  }

  /// Whether all five values of a registration pass (the server's single 422 check).
  /// - Parameters:
  ///   - deviceToken: The device token.
  ///   - environment: `sandbox` or `production`.
  ///   - contentKeyID: The key id.
  ///   - contentKey: The key.
  ///   - deploymentID: The deployment id.
  /// - Returns: Whether the server accepts them.
  public static func isValid(
    deviceToken: String, environment: String, contentKeyID: String, contentKey: String,
    deploymentID: String
  ) -> Bool {
    isLowercaseHex(deviceToken, evenLengthIn: 2...1024)
      && (environment == "sandbox" || environment == "production")
      && isLowercaseUUID(contentKeyID) && isContentKey(contentKey) && isDeploymentID(deploymentID)
  }
}
