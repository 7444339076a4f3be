/// The encrypted push envelope, format version 1 (Protocol/Push.md §3.2): the `serverbee_envelope`
/// object of an APNs payload.
///
/// Exactly five keys, in this order: `version`, `key_id`, `identity`, `nonce`, `ciphertext`.
/// This type only carries the text; opening and validating it is the job of the
/// PushEnvelopeCrypto module.
///
/// ```swift
/// let envelope = try WireJSON.decode(PushEnvelope.self, from: envelopeJSON)
/// ```
public struct PushEnvelope: Codable, Hashable, Sendable {
  /// The format version; `1`.
  public var version: Int
  /// The content key id (lowercase UUID).
  public var keyID: String
  /// Lowercase hex SHA-256 of `[deployment_id, user_id, installation_id]` (64 chars).
  public var identity: String
  /// Canonical standard base64 of the 12-byte nonce.
  public var nonce: String
  /// Canonical standard base64 of the ciphertext followed by the 16-byte GCM tag.
  public var ciphertext: String

  /// Creates an envelope.
  /// - Parameters:
  ///   - version: The format version.
  ///   - keyID: The content key id.
  ///   - identity: The identity hash.
  ///   - nonce: The base64 nonce.
  ///   - ciphertext: The base64 ciphertext and tag.
  public init(version: Int = 1, keyID: String, identity: String, nonce: String, ciphertext: String)
  {
    self.version = version
    self.keyID = keyID
    self.identity = identity
    self.nonce = nonce
    self.ciphertext = ciphertext
  }

  enum CodingKeys: String, CodingKey {
    case version
    case keyID = "key_id"
    case identity, nonce, ciphertext
  }
}
