/// The device's push content key as stored in the shared credential group (Protocol/Push.md §3.7).
///
/// Stored JSON, keys in order: `key_id`, `key`, `deployment_id`, `user_id`, `installation_id`,
/// `scope`. `key` is the standard base64 of 32 random bytes; the three identity fields must equal
/// those of every content opened with the key, and `scope` ties the key to one login. Generate
/// keys and compute scopes with PushEnvelopeCrypto.
///
/// The description leaves the key bytes out, so logging the value does not leak it.
public struct PushContentKey: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The key id, a lowercase hyphenated UUID.
  public var keyID: String
  /// Standard base64 of the 32 key bytes. Secret.
  public var key: String
  /// The server URL the key was registered with.
  public var deploymentID: String
  /// The server user id.
  public var userID: String
  /// The installation id.
  public var installationID: String
  /// Lowercase hex SHA-256 naming the login the key belongs to.
  public var scope: String

  /// Creates a stored key object.
  /// - Parameters:
  ///   - keyID: The key id.
  ///   - key: The base64 key bytes.
  ///   - deploymentID: The server URL.
  ///   - userID: The user id.
  ///   - installationID: The installation id.
  ///   - scope: The login scope hash.
  public init(
    keyID: String, key: String, deploymentID: String, userID: String, installationID: String,
    scope: String
  ) {
    self.keyID = keyID
    self.key = key
    self.deploymentID = deploymentID
    self.userID = userID
    self.installationID = installationID
    self.scope = scope
  }

  /// A description without the key bytes.
  public var description: String {
    "PushContentKey(keyID: \(keyID), deploymentID: \(deploymentID), userID: \(userID), "
      + "installationID: \(installationID), scope: \(scope))"
  }

  enum CodingKeys: String, CodingKey {
    case keyID = "key_id"
    case key
    case deploymentID = "deployment_id"
    case userID = "user_id"
    case installationID = "installation_id"
    case scope
  }
}
