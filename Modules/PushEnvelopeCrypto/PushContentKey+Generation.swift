public import ServerBeeModels

extension PushContentKey {
  /// Generates a new content key: a lowercase UUID key id and 32 random bytes (v2 §3.9 step 4).
  ///
  /// ```swift
  /// let scope = PushContentKey.scope(
  ///   serverURL: serverURL, userID: user.id, installationID: installationID,
  ///   loginSecret: revocationToken)
  /// let key = try PushContentKey.generate(
  ///   deploymentID: serverURL, userID: user.id, installationID: installationID, scope: scope)
  /// ```
  /// - Parameters:
  ///   - deploymentID: The server URL, byte-identical to the `encrypted-register` value.
  ///   - userID: The server user id.
  ///   - installationID: The installation id.
  ///   - scope: The login scope from ``scope(serverURL:userID:installationID:loginSecret:)``.
  ///   - randomBytes: The random source (the system's cryptographic generator by default).
  /// - Returns: The key object to store in the shared credential group.
  /// - Throws: ``PushEnvelopeCryptoError`` with code `cryptoFailure` when no random bytes are
  ///   available.
  public static func generate(
    deploymentID: String, userID: String, installationID: String, scope: String,
    randomBytes: (@Sendable (Int) throws -> [UInt8])? = nil
  ) throws -> PushContentKey {
    let random: [UInt8]?
    if let randomBytes {
      random = try randomBytes(16 + PlatformCrypto.keyLength)
    } else {
      random = PlatformCrypto.randomBytes(16 + PlatformCrypto.keyLength)
    }
    guard let random, random.count == 16 + PlatformCrypto.keyLength else {
      throw PushEnvelopeCryptoError(.cryptoFailure, "no random bytes for a content key")
    }
    return PushContentKey(
      keyID: Encoding.uuidV4(Array(random.prefix(16))),
      key: Encoding.base64(Array(random.suffix(PlatformCrypto.keyLength))),
      deploymentID: deploymentID, userID: userID, installationID: installationID, scope: scope)
  }

  /// The scope of a login (v2 §4.7): lowercase hex SHA-256 of
  /// `serverURL|userID|installationID|loginSecret`.
  ///
  /// `loginSecret` is the login's revocation token, else its refresh token, else a UUID kept for
  /// the login. The scope is fixed for the login (a refresh does not change it); a key whose
  /// scope differs from the current login's is replaced, never reused.
  /// - Parameters:
  ///   - serverURL: The normalised server URL.
  ///   - userID: The server user id.
  ///   - installationID: The installation id.
  ///   - loginSecret: The login discriminator described above.
  /// - Returns: 64 lowercase hex characters.
  public static func scope(
    serverURL: String, userID: String, installationID: String, loginSecret: String
  ) -> String {
    let text = serverURL + "|" + userID + "|" + installationID + "|" + loginSecret
    return Encoding.hex(PlatformCrypto.sha256(Array(text.utf8)))
  }
}
