import Foundation
import ServerBeeModels

/// The schema of `POST /v1/send` (wire contract v2 §7), as a pure function of the body bytes.
///
/// Strict like the upstream Worker: a UTF-8 JSON object with exactly five keys, an envelope with
/// exactly five keys, lowercase hex and UUIDs, canonical standard base64 with the byte counts
/// of §4.5, and a positive safe integer `expires_at`. The time checks (`expires_at` against
/// now) are not here: they need the clock and come after the environment check.
enum SendValidator {
  /// 2^53 − 1, the largest safe integer (JavaScript's `Number.MAX_SAFE_INTEGER`).
  static let maximumSafeInteger: Int64 = 9_007_199_254_740_991
  static let requestKeys: Set<String> = [
    "device_token", "environment", "event_id", "expires_at", "envelope",
  ]
  static let envelopeKeys: Set<String> = ["version", "key_id", "identity", "nonce", "ciphertext"]

  /// Parses and checks a body; `nil` when it breaks any rule (→ 400 `InvalidRequest`).
  static func parse(_ body: [UInt8]) -> RelaySendRequest? {
    // Invalid UTF-8 does not survive a decode/encode round trip.
    guard Array(String(decoding: body, as: UTF8.self).utf8) == body else { return nil }
    guard let value = try? WireJSON.decode(JSONValue.self, from: Data(body)),
      case .object(let members) = value, Set(members.map(\.key)) == requestKeys,
      members.count == requestKeys.count
    else { return nil }
    guard let token = value["device_token"]?.stringValue, isDeviceToken(token),
      let environment = value["environment"]?.stringValue,
      environment == PushEnvironment.sandbox.rawValue
        || environment == PushEnvironment.production.rawValue,
      let eventID = value["event_id"]?.stringValue, isLowercaseUUID(eventID),
      let expiresAt = safePositiveInteger(value["expires_at"]),
      let envelope = value["envelope"].flatMap(parseEnvelope)
    else { return nil }
    return RelaySendRequest(
      deviceToken: token, environment: PushEnvironment(rawValue: environment), eventID: eventID,
      expiresAt: expiresAt, envelope: envelope)
  }

  static func parseEnvelope(_ value: JSONValue) -> PushEnvelope? {
    guard case .object(let members) = value, Set(members.map(\.key)) == envelopeKeys,
      members.count == envelopeKeys.count,
      case .number(let version)? = value["version"], version == 1,
      let keyID = value["key_id"]?.stringValue, isLowercaseUUID(keyID),
      let identity = value["identity"]?.stringValue, identity.utf8.count == 64,
      isLowercaseHex(identity),
      let nonce = value["nonce"]?.stringValue, canonicalBase64Length(nonce) == 12,
      let ciphertext = value["ciphertext"]?.stringValue, ciphertext.utf8.count <= 2760,
      let length = canonicalBase64Length(ciphertext), (16...2070).contains(length)
    else { return nil }
    return PushEnvelope(
      version: 1, keyID: keyID, identity: identity, nonce: nonce, ciphertext: ciphertext)
  }

  /// Lowercase hex, even length, 2–1024 characters.
  static func isDeviceToken(_ text: String) -> Bool {
    let count = text.utf8.count
    return (2...1024).contains(count) && count % 2 == 0 && isLowercaseHex(text)
  }

  static func isLowercaseHex(_ text: String) -> Bool {
    text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase hex, any version.
  static func isLowercaseUUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard (48...57).contains(byte) || (97...102).contains(byte) else { return false }
      }
    }
    return true
  }

  /// The decoded length of canonical standard base64 (padded, no whitespace, zero pad bits),
  /// or `nil`.
  static func canonicalBase64Length(_ text: String) -> Int? {
    guard text.utf8.count % 4 == 0, let data = Data(base64Encoded: text),
      data.base64EncodedString() == text
    else { return nil }
    return data.count
  }

  /// A JSON number that is a whole number in 1…2^53 − 1.
  static func safePositiveInteger(_ value: JSONValue?) -> Int64? {
    guard case .number(let number)? = value, number.isFinite, number.rounded() == number,
      number >= 1, number <= Double(maximumSafeInteger)
    else { return nil }
    return Int64(number)
  }
}
