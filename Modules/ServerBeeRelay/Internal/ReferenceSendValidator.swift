import Foundation
import ServerBeeModels

/// The first `/v1/send` schema check, on Foundation's `JSONDecoder`: kept as the reference that
/// ``SendValidator`` is tested against (a differential test on a table of valid and hostile
/// bodies, and the fuzz target `fuzz-relay-send` on every input). The relay does not call it:
/// at about 340 k instructions a body it was half of an accepted send's cost.
///
/// One known difference: `JSONDecoder` keeps one value of a top-level key that appears twice,
/// so this accepts `{"device_token":"aa","device_token":"bb",…}` (but refuses a repeated
/// envelope key); ``SendValidator`` refuses every repeated key, as "exactly these keys"
/// (Protocol/Relay.md) and this check's own member count intend.
enum ReferenceSendValidator {
  /// Parses and checks a body; `nil` when it breaks any rule (→ 400 `InvalidRequest`).
  static func parse(_ body: [UInt8]) -> RelaySendRequest? {
    // Invalid UTF-8 does not survive a decode/encode round trip.
    guard Array(String(decoding: body, as: UTF8.self).utf8) == body else { return nil }
    guard let value = try? WireJSON.decode(JSONValue.self, from: Data(body)),
      case .object(let members) = value, Set(members.map(\.key)) == SendValidator.requestKeys,
      members.count == SendValidator.requestKeys.count
    else { return nil }
    guard let token = value["device_token"]?.stringValue, SendValidator.isDeviceToken(token),
      let environment = value["environment"]?.stringValue,
      environment == PushEnvironment.sandbox.rawValue
        || environment == PushEnvironment.production.rawValue,
      let eventID = value["event_id"]?.stringValue, SendValidator.isLowercaseUUID(eventID),
      let expiresAt = safePositiveInteger(value["expires_at"]),
      let envelope = value["envelope"].flatMap(parseEnvelope)
    else { return nil }
    return RelaySendRequest(
      deviceToken: token, environment: PushEnvironment(rawValue: environment), eventID: eventID,
      expiresAt: expiresAt, envelope: envelope)
  }

  static func parseEnvelope(_ value: JSONValue) -> PushEnvelope? {
    guard case .object(let members) = value, Set(members.map(\.key)) == SendValidator.envelopeKeys,
      members.count == SendValidator.envelopeKeys.count,
      case .number(let version)? = value["version"], version == 1,
      let keyID = value["key_id"]?.stringValue, SendValidator.isLowercaseUUID(keyID),
      let identity = value["identity"]?.stringValue, identity.utf8.count == 64,
      SendValidator.isLowercaseHex(identity),
      let nonce = value["nonce"]?.stringValue, canonicalBase64Length(nonce) == 12,
      let ciphertext = value["ciphertext"]?.stringValue, ciphertext.utf8.count <= 2760,
      let length = canonicalBase64Length(ciphertext), (16...2070).contains(length)
    else { return nil }
    return PushEnvelope(
      version: 1, keyID: keyID, identity: identity, nonce: nonce, ciphertext: ciphertext)
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
      number >= 1, number <= Double(SendValidator.maximumSafeInteger)
    else { return nil }
    return Int64(number)
  }
}
