import ServerBeeCore
import ServerBeeCrypto
public import ServerBeeModels

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Opens encrypted push envelopes (Protocol/Push.md §3.8) and validates their content for a
/// purpose.
///
/// Every rule is applied in the contract's order and any failure rejects:
/// 1. `version == 1`, `key_id` equals the stored key's id, ciphertext text ≤ 2760 characters;
/// 2. the key is 32 bytes, the nonce 12 bytes, the ciphertext 16…2064 bytes (canonical base64);
/// 3. AES-256-GCM open with AAD `ServerBee.Push.v1|key_id|identity`, then the content JSON;
/// 4. the content's deployment, user and installation equal the key's, the identity hash
///    matches, and `event_id` is a UUID;
/// 5. lifetime exactly 1800 s, created at most 60 s ahead, and for ``PushOpenPurpose/delivery``
///    not expired;
/// 6. the per-kind structure of Protocol/Push.md §3.4.
///
/// A rejection throws a ``PushEnvelopeCryptoError`` whose code names the rule; it never carries
/// content, and it never yields a ``PushTapTarget``.
///
/// ```swift
/// // In a notification service extension:
/// let opener = PushEnvelopeOpener()
/// let renderer = PushNotificationRenderer(
///   language: PushNotificationLanguage(preferredLanguages: Locale.preferredLanguages))
/// let shown = renderer.render(Result {
///   try opener.open(apnsPayload: payload, with: storedKey, for: .delivery)
/// })
/// ```
public struct PushEnvelopeOpener: Sendable {
  /// The longest `ciphertext` text accepted: 2760 characters.
  public static let maximumCiphertextLength = 2760
  /// The accepted decoded ciphertext‖tag sizes: 16…2064 bytes.
  public static let ciphertextByteRange = 16...2064
  /// The largest envelope object accepted, re-serialised: 4096 bytes.
  public static let maximumEnvelopeSize = 4096
  /// The largest APNs payload accepted by ``open(apnsPayload:with:for:)``: 8192 bytes (APNs
  /// itself sends at most 4096; the extra room allows for re-serialisation by the host).
  public static let maximumPayloadSize = 8192

  private let now: @Sendable () -> Date
  private let cipher: any AEADCipher
  private let readsJSONWithJSONDecoderOnly: Bool

  /// Creates an opener that reads the system clock.
  public init() {
    self.init(now: { Date() })
  }

  /// Creates an opener with an injected clock.
  /// - Parameter now: Returns the current time; evaluated once per ``open(_:with:for:)``.
  public init(now: @escaping @Sendable () -> Date) {
    self.init(now: now, readsJSONWithJSONDecoderOnly: false)
  }

  /// Creates an opener; `readsJSONWithJSONDecoderOnly` skips ``PushJSONReader`` (the reference
  /// path of the differential tests).
  init(now: @escaping @Sendable () -> Date, readsJSONWithJSONDecoderOnly: Bool) {
    self.now = now
    self.cipher = AESGCM.platform
    self.readsJSONWithJSONDecoderOnly = readsJSONWithJSONDecoderOnly
  }

  /// Opens and validates an envelope.
  /// - Parameters:
  ///   - envelope: The `serverbee_envelope` object.
  ///   - key: The stored content key.
  ///   - purpose: ``PushOpenPurpose/delivery`` (extension) or ``PushOpenPurpose/tap``.
  /// - Returns: The validated content.
  /// - Throws: ``PushEnvelopeCryptoError`` whose code is the rejection reason.
  public func open(
    _ envelope: PushEnvelope, with key: PushContentKey, for purpose: PushOpenPurpose
  ) throws -> ValidatedPushContent {
    try openTyped(envelope, with: key, for: purpose)
  }

  /// Reads the envelope out of an APNs payload (`{"aps":…,"serverbee_envelope":{…}}`), then
  /// opens and validates it as ``open(_:with:for:)`` does.
  /// - Parameters:
  ///   - apnsPayload: The payload JSON, at most ``maximumPayloadSize`` bytes.
  ///   - key: The stored content key.
  ///   - purpose: The purpose.
  /// - Returns: The validated content.
  /// - Throws: ``PushEnvelopeCryptoError``: `tooLarge` or `malformedEnvelope` for the payload,
  ///   then the codes of ``open(_:with:for:)``.
  public func open(
    apnsPayload: Data, with key: PushContentKey, for purpose: PushOpenPurpose
  ) throws -> ValidatedPushContent {
    let envelope = try Self.envelope(
      fromAPNSPayload: apnsPayload, usingReader: !readsJSONWithJSONDecoderOnly)
    return try openTyped(envelope, with: key, for: purpose)
  }

  /// The tap target of an envelope, or `nil` when anything is wrong (no key, or any rejection).
  ///
  /// Opens with ``PushOpenPurpose/tap``. The caller must already have checked that the key
  /// belongs to the current login (Protocol/Push.md §7 step 1).
  /// - Parameters:
  ///   - envelope: The buffered `serverbee_envelope`.
  ///   - key: The stored content key, if any.
  /// - Returns: Where the tap leads, or `nil`.
  public func tapTarget(for envelope: PushEnvelope, with key: PushContentKey?) -> PushTapTarget? {
    guard let key else { return nil }
    return try? openTyped(envelope, with: key, for: .tap).tapTarget
  }

  /// Decodes the `serverbee_envelope` object of an APNs payload and checks its size.
  /// - Parameter apnsPayload: The payload JSON.
  /// - Returns: The envelope.
  /// - Throws: ``PushEnvelopeCryptoError`` with code `tooLarge` or `malformedEnvelope`.
  public static func envelope(fromAPNSPayload apnsPayload: Data) throws(PushEnvelopeCryptoError)
    -> PushEnvelope
  {
    try envelope(fromAPNSPayload: apnsPayload, usingReader: true)
  }

  /// ``envelope(fromAPNSPayload:)``; without `usingReader`, `JSONDecoder` alone (the reference
  /// of the differential tests).
  static func envelope(fromAPNSPayload apnsPayload: Data, usingReader: Bool)
    throws(PushEnvelopeCryptoError) -> PushEnvelope
  {
    guard apnsPayload.count <= maximumPayloadSize else {
      throw PushEnvelopeCryptoError(
        .tooLarge, "the push payload exceeds \(maximumPayloadSize) bytes")
    }
    // The strict reader decides ordinary payloads; anything it leaves open goes to JSONDecoder,
    // so both the accepted envelopes and the error codes are the Codable path's.
    let envelope: PushEnvelope
    if usingReader, let read = PushJSONReader.envelope(fromAPNSPayload: apnsPayload) {
      envelope = read
    } else {
      envelope = try codableEnvelope(fromAPNSPayload: apnsPayload)
    }
    guard serialisedSize(of: envelope) <= maximumEnvelopeSize else {
      throw PushEnvelopeCryptoError(.tooLarge, "the envelope exceeds \(maximumEnvelopeSize) bytes")
    }
    return envelope
  }

  /// The reference reading of an APNs payload: `JSONDecoder`, which ignores unknown keys and
  /// keeps the first of repeated ones. ``PushJSONReader`` must agree with it.
  static func codableEnvelope(fromAPNSPayload apnsPayload: Data) throws(PushEnvelopeCryptoError)
    -> PushEnvelope
  {
    guard let payload = try? JSONDecoder().decode(APNSPayload.self, from: apnsPayload) else {
      throw PushEnvelopeCryptoError(
        .malformedEnvelope, "the payload has no valid serverbee_envelope")
    }
    return payload.envelope
  }

  /// Decodes the decrypted content: ``PushJSONReader`` first, `JSONDecoder` when it is undecided.
  static func content(fromPlaintext plaintext: [UInt8]) throws(PushEnvelopeCryptoError)
    -> PushContent
  {
    if let content = PushJSONReader.content(from: plaintext) { return content }
    return try codableContent(fromPlaintext: plaintext)
  }

  /// The reference decoding of the content: `JSONDecoder` into ``PushContent``.
  static func codableContent(fromPlaintext plaintext: [UInt8]) throws(PushEnvelopeCryptoError)
    -> PushContent
  {
    do {
      return try JSONDecoder().decode(PushContent.self, from: Data(plaintext))
    } catch {
      throw PushEnvelopeCryptoError(.malformedContent, "the decrypted content is not valid")
    }
  }

  /// The size of the envelope as `WireJSON` writes it. Encoding costs about as much as the
  /// rest of the payload decoding, so when no string needs escaping (always, for a well-formed
  /// envelope) the size is computed from the string lengths; otherwise the envelope is encoded.
  static func serialisedSize(of envelope: PushEnvelope) -> Int {
    let strings = [envelope.keyID, envelope.identity, envelope.nonce, envelope.ciphertext]
    let plain = strings.allSatisfy(ByteScan.needsNoJSONEscaping)
    guard plain else { return (try? WireJSON.encode(envelope).count) ?? Int.max }
    return emptyEnvelopeSize + String(envelope.version).utf8.count - 1
      + strings.reduce(0) { $0 + $1.utf8.count }
  }

  /// `{"version":0,"key_id":"","identity":"","nonce":"","ciphertext":""}`.
  private static let emptyEnvelopeSize =
    (try? WireJSON.encode(
      PushEnvelope(version: 0, keyID: "", identity: "", nonce: "", ciphertext: "")
    ).count) ?? Int.max

  private struct APNSPayload: Decodable {
    let envelope: PushEnvelope
    enum CodingKeys: String, CodingKey { case envelope = "serverbee_envelope" }
  }

  func openTyped(
    _ envelope: PushEnvelope, with key: PushContentKey, for purpose: PushOpenPurpose
  ) throws(PushEnvelopeCryptoError) -> ValidatedPushContent {
    // Step 1.
    guard envelope.version == 1 else {
      throw PushEnvelopeCryptoError(.unsupportedVersion, "envelope version \(envelope.version)")
    }
    guard envelope.keyID == key.keyID else {
      throw PushEnvelopeCryptoError(.keyIDMismatch, "the envelope names another content key")
    }
    guard envelope.ciphertext.utf8.count <= Self.maximumCiphertextLength else {
      throw PushEnvelopeCryptoError(.tooLarge, "the ciphertext exceeds 2760 characters")
    }
    // Step 2.
    guard key.key.utf8.count <= 64, let keyBytes = Base64.decodeCanonical(key.key),
      keyBytes.count == AESGCM.keyLength
    else { throw PushEnvelopeCryptoError(.invalidKey, "the content key is not 32 bytes") }
    guard envelope.nonce.utf8.count == 16, let nonce = Base64.decodeCanonical(envelope.nonce),
      nonce.count == AESGCM.nonceLength
    else {
      throw PushEnvelopeCryptoError(
        .invalidEncoding, "the nonce is not canonical base64 of 12 bytes")
    }
    guard let sealed = Base64.decodeCanonical(envelope.ciphertext),
      Self.ciphertextByteRange.contains(sealed.count)
    else {
      throw PushEnvelopeCryptoError(
        .invalidEncoding, "the ciphertext is not canonical base64 of 16…2064 bytes")
    }
    // Step 3.
    let aad = Array(
      PushIdentity.additionalData(keyID: envelope.keyID, identity: envelope.identity).utf8)
    guard let plaintext = cipher.open(key: keyBytes, nonce: nonce, aad: aad, sealed: sealed) else {
      throw PushEnvelopeCryptoError(.authenticationFailed, "the envelope did not authenticate")
    }
    let content =
      readsJSONWithJSONDecoderOnly
      ? try Self.codableContent(fromPlaintext: plaintext)
      : try Self.content(fromPlaintext: plaintext)
    // Step 4.
    guard content.deploymentID == key.deploymentID, content.userID == key.userID,
      content.installationID == key.installationID
    else {
      throw PushEnvelopeCryptoError(
        .identityMismatch, "the content names another deployment, user or installation")
    }
    let identity = PushIdentity.hash(
      deploymentID: content.deploymentID, userID: content.userID,
      installationID: content.installationID)
    guard identity == envelope.identity else {
      throw PushEnvelopeCryptoError(.identityMismatch, "the envelope identity does not match")
    }
    guard PushContentRules.isUUID(content.eventID) else {
      throw PushEnvelopeCryptoError(.invalidEventID, "the event id is not a UUID")
    }
    // Steps 5 and 6.
    try PushContentRules.checkTimes(content, purpose: purpose, now: now())
    let target = try PushContentRules.checkKind(content)
    return ValidatedPushContent(
      content: content, purpose: purpose, keyID: key.keyID, tapTarget: target)
  }
}
