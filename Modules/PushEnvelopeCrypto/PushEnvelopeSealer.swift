import ServerBeeCore
import ServerBeeCrypto
public import ServerBeeModels

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Seals push contents into envelopes (Protocol/Push.md §3.3), as a server does.
///
/// Used by servers, the simulator and tests. The nonce comes from an injectable source of random
/// bytes (the system generator by default), so tests can produce exact envelopes. Sealing checks
/// only the 2048-byte plaintext limit, not the per-kind rules, so deliberately broken contents
/// can be sealed to exercise ``PushEnvelopeOpener``.
///
/// ```swift
/// let envelope = try PushEnvelopeSealer().seal(content, with: key)
/// let body = try WireJSON.encode(RelaySendRequest(
///   deviceToken: token, environment: .production, eventID: content.eventID,
///   expiresAt: content.expiresAt, envelope: envelope))
/// ```
public struct PushEnvelopeSealer: Sendable {
  /// The largest plaintext sealed: 2048 bytes (larger contents are skipped by servers).
  public static let maximumPlaintextSize = 2048

  private let randomBytes: @Sendable (Int) throws -> [UInt8]
  private let cipher: any AEADCipher

  /// Creates a sealer that draws nonces from the system's cryptographic generator.
  public init() {
    self.init(randomBytes: { SecureRandom.bytes($0) })
  }

  /// Creates a sealer with an injected nonce source.
  /// - Parameter randomBytes: Returns the requested number of random bytes (12 per envelope).
  public init(randomBytes: @escaping @Sendable (Int) throws -> [UInt8]) {
    self.randomBytes = randomBytes
    self.cipher = AESGCM.platform
  }

  /// Seals a content with a key, computing the identity from the content.
  /// - Parameters:
  ///   - content: The content; encoded in the server's key order.
  ///   - key: The recipient's content key.
  /// - Returns: The envelope.
  /// - Throws: ``PushEnvelopeCryptoError`` with code `tooLarge`, `invalidKey` or
  ///   `cryptoFailure`.
  public func seal(_ content: PushContent, with key: PushContentKey) throws -> PushEnvelope {
    let plaintext: Data
    do {
      plaintext = try Self.plaintext(content)
    } catch {
      throw PushEnvelopeCryptoError(.cryptoFailure, "the content could not be encoded")
    }
    let identity = PushIdentity.hash(
      deploymentID: content.deploymentID, userID: content.userID,
      installationID: content.installationID)
    return try seal(plaintext: plaintext, keyID: key.keyID, key: key.key, identity: identity)
  }

  /// The content's JSON, byte for byte as `WireJSON.encode(content)` writes it: written
  /// directly when it has no nested summary (a test push, a security event), where the generic
  /// encoder's node tree cost about 29 k instructions a push; through the encoder otherwise.
  static func plaintext(_ content: PushContent) throws -> Data {
    guard content.taskRun == nil, content.alert == nil else { return try WireJSON.encode(content) }
    var out: [UInt8] = []
    out.reserveCapacity(320)
    func key(_ name: StaticString) {
      out.append(
        contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
    func integer(_ value: Int64) {
      var text = String(value)
      text.withUTF8 { out.append(contentsOf: $0) }
    }
    key(#"{"kind":"#)
    WireJSON.appendString(content.kind.rawValue, to: &out)
    key(#","deployment_id":"#)
    WireJSON.appendString(content.deploymentID, to: &out)
    key(#","user_id":"#)
    WireJSON.appendString(content.userID, to: &out)
    key(#","installation_id":"#)
    WireJSON.appendString(content.installationID, to: &out)
    key(#","event_id":"#)
    WireJSON.appendString(content.eventID, to: &out)
    key(#","created_at":"#)
    integer(content.createdAt)
    key(#","expires_at":"#)
    integer(content.expiresAt)
    if let serverID = content.serverID {
      key(#","server_id":"#)
      WireJSON.appendString(serverID, to: &out)
    }
    if let eventID = content.securityEventID {
      key(#","security_event_id":"#)
      WireJSON.appendString(eventID, to: &out)
    }
    if let type = content.securityEventType {
      key(#","security_event_type":"#)
      WireJSON.appendString(type.rawValue, to: &out)
    }
    key("}")
    return Data(out)
  }

  /// Seals arbitrary plaintext under an explicit key id and identity (for simulators and tests
  /// that need envelopes a real server would never send).
  /// - Parameters:
  ///   - plaintext: The bytes to seal, at most ``maximumPlaintextSize``.
  ///   - keyID: The key id written into the envelope and the AAD.
  ///   - key: Standard base64 of the 32 key bytes.
  ///   - identity: The identity written into the envelope and the AAD.
  /// - Returns: The envelope.
  /// - Throws: ``PushEnvelopeCryptoError`` with code `tooLarge`, `invalidKey` or
  ///   `cryptoFailure`.
  public func seal(plaintext: Data, keyID: String, key: String, identity: String) throws
    -> PushEnvelope
  {
    guard plaintext.count <= Self.maximumPlaintextSize else {
      throw PushEnvelopeCryptoError(.tooLarge, "the content exceeds 2048 bytes")
    }
    guard let keyBytes = Base64.decodeCanonical(key), keyBytes.count == AESGCM.keyLength
    else { throw PushEnvelopeCryptoError(.invalidKey, "the content key is not 32 bytes") }
    let nonce = try randomBytes(AESGCM.nonceLength)
    guard nonce.count == AESGCM.nonceLength else {
      throw PushEnvelopeCryptoError(.cryptoFailure, "the nonce source returned the wrong length")
    }
    let aad = Array(PushIdentity.additionalData(keyID: keyID, identity: identity).utf8)
    guard
      let sealed = cipher.seal(key: keyBytes, nonce: nonce, aad: aad, plaintext: Array(plaintext))
    else { throw PushEnvelopeCryptoError(.cryptoFailure, "AES-GCM sealing failed") }
    return PushEnvelope(
      version: 1, keyID: keyID, identity: identity, nonce: Base64.encode(nonce),
      ciphertext: Base64.encode(sealed))
  }
}
