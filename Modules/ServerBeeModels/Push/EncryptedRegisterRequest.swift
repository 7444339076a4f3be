/// The body of `POST /api/mobile/push/encrypted-register` (Protocol/Push.md §2.5): the device token
/// and the content key the server will encrypt pushes with.
///
/// Every key is required and the server refuses unknown keys. `content_key` is the standard
/// base64 of the 32 key bytes and `deployment_id` must be byte-identical to the value in the
/// stored ``PushContentKey``, because it enters the identity hash.
///
/// ```swift
/// let body = try WireJSON.encode(EncryptedRegisterRequest(
///   expectedRevision: settings.revision, deviceToken: hexToken, environment: .production,
///   contentKey: key))
/// ```
public struct EncryptedRegisterRequest: Codable, Hashable, Sendable {
  /// The revision the client last confirmed.
  public var expectedRevision: Int64
  /// The APNs device token, lowercase hex (2–1024 chars, even length).
  public var deviceToken: String
  /// The APNs environment of the token.
  public var environment: PushEnvironment
  /// The content key id (lowercase hyphenated UUID).
  public var contentKeyID: String
  /// The content key: standard base64 of 32 bytes.
  public var contentKey: String
  /// The server URL the client logged in to (https, ≤ 512 chars).
  public var deploymentID: String

  /// Creates a registration body.
  /// - Parameters:
  ///   - expectedRevision: The revision the client last confirmed.
  ///   - deviceToken: The APNs token, lowercase hex.
  ///   - environment: The APNs environment.
  ///   - contentKeyID: The content key id.
  ///   - contentKey: The base64 key bytes.
  ///   - deploymentID: The server URL.
  public init(
    expectedRevision: Int64, deviceToken: String, environment: PushEnvironment,
    contentKeyID: String, contentKey: String, deploymentID: String
  ) {
    self.expectedRevision = expectedRevision
    self.deviceToken = deviceToken
    self.environment = environment
    self.contentKeyID = contentKeyID
    self.contentKey = contentKey
    self.deploymentID = deploymentID
  }

  /// Creates a registration body from a stored content key.
  /// - Parameters:
  ///   - expectedRevision: The revision the client last confirmed.
  ///   - deviceToken: The APNs token, lowercase hex.
  ///   - environment: The APNs environment.
  ///   - contentKey: The stored key; its id, key and deployment id are sent.
  public init(
    expectedRevision: Int64, deviceToken: String, environment: PushEnvironment,
    contentKey: PushContentKey
  ) {
    self.init(
      expectedRevision: expectedRevision, deviceToken: deviceToken, environment: environment,
      contentKeyID: contentKey.keyID, contentKey: contentKey.key,
      deploymentID: contentKey.deploymentID)
  }

  enum CodingKeys: String, CodingKey {
    case expectedRevision = "expected_revision"
    case deviceToken = "device_token"
    case environment
    case contentKeyID = "content_key_id"
    case contentKey = "content_key"
    case deploymentID = "deployment_id"
  }
}

extension EncryptedRegisterRequest: CustomStringConvertible {
  /// A description without the key or the device token.
  public var description: String {
    "EncryptedRegisterRequest(expectedRevision: \(expectedRevision), environment: "
      + "\(environment), contentKeyID: \(contentKeyID), deploymentID: \(deploymentID))"
  }
}
