public import ServerBeeModels

/// The error domain of the PushEnvelopeCrypto module.
public enum PushEnvelopeCryptoDomain: ServerBeeErrorDomain {
  /// `"PushEnvelopeCrypto"`.
  public static let name = "PushEnvelopeCrypto"
}

/// The one public error type of PushEnvelopeCrypto: a `ServerBeeError` (ServerBeeModels) with this module's codes.
///
/// When ``PushEnvelopeOpener`` rejects an envelope, `code` is the rejection
/// reason (one code per rule of Protocol/Push.md §3.8). Messages never contain key bytes or
/// plaintext.
///
/// ```swift
/// do {
///   let content = try opener.open(envelope, with: key, for: .delivery)
/// } catch let error as PushEnvelopeCryptoError where error.code == .expired {
///   // show the generic fallback text
/// }
/// ```
public typealias PushEnvelopeCryptoError = ServerBeeError<PushEnvelopeCryptoDomain>

extension ServerBeeError.Code where Domain == PushEnvelopeCryptoDomain {
  /// The envelope's `version` is not `1`.
  public static let unsupportedVersion = Self("unsupported_version")
  /// The envelope's `key_id` is not the stored key's id.
  public static let keyIDMismatch = Self("key_id_mismatch")
  /// An input exceeds a size limit of Protocol/Push.md §3.5 (payload, envelope, ciphertext or
  /// plaintext).
  public static let tooLarge = Self("too_large")
  /// The content key is not canonical base64 of 32 bytes.
  public static let invalidKey = Self("invalid_key")
  /// The nonce or ciphertext is not canonical base64 of the right length.
  public static let invalidEncoding = Self("invalid_encoding")
  /// AES-GCM authentication failed: wrong key, or a changed ciphertext, nonce, key id or identity.
  public static let authenticationFailed = Self("authentication_failed")
  /// The APNs payload or envelope is not the expected JSON.
  public static let malformedEnvelope = Self("malformed_envelope")
  /// The decrypted content is not a content JSON object.
  public static let malformedContent = Self("malformed_content")
  /// The content's deployment, user or installation differs from the key's, or the envelope's
  /// identity hash does not match them.
  public static let identityMismatch = Self("identity_mismatch")
  /// The content's `event_id` is not a UUID.
  public static let invalidEventID = Self("invalid_event_id")
  /// `expires_at − created_at` is not exactly 1800 seconds.
  public static let invalidLifetime = Self("invalid_lifetime")
  /// `created_at` is more than 60 seconds in the future.
  public static let notYetValid = Self("not_yet_valid")
  /// The content expired (delivery only; taps stay valid after expiry).
  public static let expired = Self("expired")
  /// The content's `kind` is not one a version 1 client knows.
  public static let unknownKind = Self("unknown_kind")
  /// The content breaks a per-kind rule of Protocol/Push.md §3.4 (missing or stray keys, bad
  /// values).
  public static let invalidContent = Self("invalid_content")
  /// The system random generator or the cipher failed while sealing or generating a key.
  public static let cryptoFailure = Self("crypto_failure")
}
