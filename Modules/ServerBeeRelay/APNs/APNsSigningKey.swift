import COpenSSL
import Foundation
import ServerBeeCore

/// The APNs token-signing key (an Apple `.p8` file: a P-256 private key in PKCS#8 PEM) and the
/// ES256 JSON Web Tokens it signs (`alg` ES256, `kid`; claims `iss` team, `iat`).
///
/// ```swift
/// let key = try APNsSigningKey(pem: pemText, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
/// let jwt = try key.token(issuedAt: 1_765_000_000)   // "eyJhbGciOi…"
/// ```
///
/// The key text is never part of an error or a description. Signing goes through OpenSSL EVP
/// (ECDSA with SHA-256); the DER signature is converted to the 64-octet `r‖s` form of JWS
/// (RFC 7518 §3.4).
public final class APNsSigningKey: @unchecked Sendable {
  // @unchecked: `key` is immutable after init and OpenSSL signs with a shared EVP_PKEY safely
  // (each signature uses its own EVP_MD_CTX).
  private let key: OpaquePointer
  /// The key id (`kid`), from Apple's developer account.
  public let keyID: String
  /// The team id (`iss`).
  public let teamID: String

  /// Parses a PKCS#8 PEM private key and checks that it is a P-256 key.
  /// - Parameters:
  ///   - pem: The `-----BEGIN PRIVATE KEY-----` text.
  ///   - keyID: The key id.
  ///   - teamID: The team id.
  /// - Throws: ``ServerBeeRelayError`` with code `invalidSigningKey` and a sentence that never
  ///   contains the key.
  public init(pem: String, keyID: String, teamID: String) throws {
    for (name, value) in [("APNS_KEY_ID", keyID), ("APNS_TEAM_ID", teamID)] {
      guard !value.isEmpty, value.utf8.count <= 64,
        value.utf8.allSatisfy({
          ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a)
        })
      else {
        throw ServerBeeRelayError(
          .invalidSigningKey, "\(name) must be letters and digits (Apple's 10-character id)")
      }
    }
    guard pem.contains("-----BEGIN PRIVATE KEY-----") else {
      throw ServerBeeRelayError(
        .invalidSigningKey,
        "the APNs key is not a PKCS#8 PEM private key (no BEGIN PRIVATE KEY line)")
    }
    let bytes = Array(pem.utf8)
    let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
      guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
    }
    ERR_clear_error()
    guard let parsed else {
      throw ServerBeeRelayError(.invalidSigningKey, "the APNs key does not parse as a private key")
    }
    var group = [CChar](repeating: 0, count: 64)
    var length = 0
    guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_EC,
      EVP_PKEY_get_group_name(parsed, &group, group.count, &length) == 1,
      String(decoding: group.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        == "prime256v1"
    else {
      EVP_PKEY_free(parsed)
      throw ServerBeeRelayError(.invalidSigningKey, "the APNs key is not a P-256 (ES256) key")
    }
    key = parsed
    self.keyID = keyID
    self.teamID = teamID
  }

  deinit { EVP_PKEY_free(key) }

  /// Signs a token issued at `issuedAt` (Unix seconds).
  /// - Returns: `header.claims.signature`, base64url without padding.
  /// - Throws: ``ServerBeeRelayError`` `invalidSigningKey` when OpenSSL cannot sign.
  public func token(issuedAt: Int64) throws -> String {
    // The ids are letters and digits (checked in init): no JSON escape is needed.
    let header = #"{"alg":"ES256","kid":""# + keyID + #""}"#
    let claims = #"{"iss":""# + teamID + #"","iat":"# + String(issuedAt) + "}"
    let signingInput =
      Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
    let signature = try sign(Array(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// ECDSA P-256 with SHA-256 over `message`, as 64 octets `r‖s`.
  func sign(_ message: [UInt8]) throws -> [UInt8] {
    guard let context = EVP_MD_CTX_new() else {
      throw ServerBeeRelayError(.invalidSigningKey, "OpenSSL could not sign the APNs token")
    }
    defer { EVP_MD_CTX_free(context) }
    var der = [UInt8](repeating: 0, count: 80)
    var length = der.count
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
      EVP_DigestSign(context, &der, &length, message, message.count) == 1
    else {
      ERR_clear_error()
      throw ServerBeeRelayError(.invalidSigningKey, "OpenSSL could not sign the APNs token")
    }
    guard let raw = Self.rawSignature(fromDER: Array(der.prefix(length))) else {
      throw ServerBeeRelayError(.invalidSigningKey, "OpenSSL returned an unreadable signature")
    }
    return raw
  }

  /// A DER `ECDSA-Sig-Value` (SEQUENCE of two INTEGERs) as 32-octet big-endian `r` and `s`.
  static func rawSignature(fromDER der: [UInt8]) -> [UInt8]? {
    var pointer: UnsafePointer<UInt8>? = nil
    return der.withUnsafeBufferPointer { buffer -> [UInt8]? in
      pointer = buffer.baseAddress
      guard let signature = d2i_ECDSA_SIG(nil, &pointer, buffer.count) else { return nil }
      defer { ECDSA_SIG_free(signature) }
      var r: OpaquePointer?
      var s: OpaquePointer?
      ECDSA_SIG_get0(signature, &r, &s)
      var output = [UInt8](repeating: 0, count: 64)
      let written = output.withUnsafeMutableBufferPointer { out -> Bool in
        guard let base = out.baseAddress else { return false }
        return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
      }
      return written ? output : nil
    }
  }
}
