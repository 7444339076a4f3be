import ServerBeeCore
import ServerBeeCrypto
public import ServerBeeModels

/// Creates push content keys (Protocol/Push.md §2.9 step 4, Protocol/Push.md §3.7) and computes
/// login scopes.
///
/// A new key has a lowercase UUID (version 4) key id and 32 random bytes from the system's
/// cryptographic generator (ServerBeeCore's `SecureRandom`: `getrandom` on Linux,
/// `arc4random_buf` on Apple platforms) unless a source is injected for tests. The key is
/// stored in the shared credential group and sent to the server only with `encrypted-register`.
///
/// ```swift
/// let scope = PushContentKeyGenerator.scope(
///   serverURL: serverURL, userID: user.id, installationID: installationID,
///   loginSecret: revocationToken)
/// let key = try PushContentKeyGenerator().makeKey(
///   deploymentID: serverURL, userID: user.id, installationID: installationID, scope: scope)
/// ```
public struct PushContentKeyGenerator: Sendable {
  private let randomBytes: @Sendable (Int) throws -> [UInt8]

  /// Creates a generator that draws from the system's cryptographic generator.
  public init() {
    self.init(randomBytes: { SecureRandom.bytes($0) })
  }

  /// Creates a generator with an injected random source (tests, deterministic fixtures).
  /// - Parameter randomBytes: Returns the requested number of random bytes (48 per key).
  public init(randomBytes: @escaping @Sendable (Int) throws -> [UInt8]) {
    self.randomBytes = randomBytes
  }

  /// Generates a new content key.
  /// - Parameters:
  ///   - deploymentID: The server URL, byte-identical to the `encrypted-register` value.
  ///   - userID: The server user id.
  ///   - installationID: The installation id.
  ///   - scope: The login scope from ``scope(serverURL:userID:installationID:loginSecret:)``.
  /// - Returns: The key object to store in the shared credential group.
  /// - Throws: ``PushEnvelopeCryptoError`` with code `cryptoFailure` when the random source
  ///   fails or returns the wrong length (an error thrown by an injected source passes through).
  public func makeKey(
    deploymentID: String, userID: String, installationID: String, scope: String
  ) throws -> PushContentKey {
    let random = try randomBytes(16 + AESGCM.keyLength)
    guard random.count == 16 + AESGCM.keyLength else {
      throw PushEnvelopeCryptoError(.cryptoFailure, "the random source returned the wrong length")
    }
    return PushContentKey(
      keyID: UUIDText.v4(from: Array(random.prefix(16))),
      key: Base64.encode(Array(random.suffix(AESGCM.keyLength))),
      deploymentID: deploymentID, userID: userID, installationID: installationID, scope: scope)
  }

  /// The scope of a login (Protocol/Push.md §3.7): lowercase hex SHA-256 of
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
    return Hex.encode(SHA256.digest(Array(text.utf8)))
  }
}
