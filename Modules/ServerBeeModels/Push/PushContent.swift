/// The decrypted content of a push envelope (Protocol/Push.md §3.4): the plaintext the server
/// seals.
///
/// Always present: `kind`, `deployment_id`, `user_id`, `installation_id`, `event_id`,
/// `created_at`, `expires_at` (Unix seconds). Then, depending on the kind, `server_id`,
/// `security_event_id`, `security_event_type`, `task_run`, `alert`. Encoding writes the keys in
/// that order and leaves out every optional key that is `nil`, as the server does.
///
/// Decoding is deliberately strict about the optional keys: a key that is present with a JSON
/// `null` is refused (the server never writes one), so "absent" means the key is left out. The
/// per-kind rules (which keys a kind must and must not carry) are checked by PushEnvelopeCrypto.
///
/// ```swift
/// let content = PushContent(
///   kind: .test, deploymentID: "https://serverbee.test", userID: userID,
///   installationID: installationID, eventID: eventID, createdAt: now, expiresAt: now + 1800)
/// let plaintext = try WireJSON.encode(content)
/// ```
public struct PushContent: Codable, Hashable, Sendable {
  /// What the push is about.
  public var kind: PushContentKind
  /// The server URL the device registered with.
  public var deploymentID: String
  /// The recipient's server user id.
  public var userID: String
  /// The recipient's installation id.
  public var installationID: String
  /// The event's id (a UUID string).
  public var eventID: String
  /// The event time, Unix seconds.
  public var createdAt: Int64
  /// `createdAt + 1800`, Unix seconds.
  public var expiresAt: Int64
  /// The server of a `security` event (UUID).
  public var serverID: String?
  /// The id of a `security` event; equals ``eventID``.
  public var securityEventID: String?
  /// The type of a `security` event.
  public var securityEventType: PushSecurityEventType?
  /// The run summary of a `task_failure` or `task_success` push.
  public var taskRun: PushTaskRunSummary?
  /// The alert of an `alert` push.
  public var alert: PushAlertSummary?

  /// Creates a content object.
  /// - Parameters:
  ///   - kind: The kind.
  ///   - deploymentID: The server URL.
  ///   - userID: The user id.
  ///   - installationID: The installation id.
  ///   - eventID: The event id.
  ///   - createdAt: The event time, Unix seconds.
  ///   - expiresAt: The expiry, Unix seconds.
  ///   - serverID: The security event's server.
  ///   - securityEventID: The security event id.
  ///   - securityEventType: The security event type.
  ///   - taskRun: The task run summary.
  ///   - alert: The alert summary.
  public init(
    kind: PushContentKind, deploymentID: String, userID: String, installationID: String,
    eventID: String, createdAt: Int64, expiresAt: Int64, serverID: String? = nil,
    securityEventID: String? = nil, securityEventType: PushSecurityEventType? = nil,
    taskRun: PushTaskRunSummary? = nil, alert: PushAlertSummary? = nil
  ) {
    self.kind = kind
    self.deploymentID = deploymentID
    self.userID = userID
    self.installationID = installationID
    self.eventID = eventID
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.serverID = serverID
    self.securityEventID = securityEventID
    self.securityEventType = securityEventType
    self.taskRun = taskRun
    self.alert = alert
  }

  enum CodingKeys: String, CodingKey {
    case kind
    case deploymentID = "deployment_id"
    case userID = "user_id"
    case installationID = "installation_id"
    case eventID = "event_id"
    case createdAt = "created_at"
    case expiresAt = "expires_at"
    case serverID = "server_id"
    case securityEventID = "security_event_id"
    case securityEventType = "security_event_type"
    case taskRun = "task_run"
    case alert
  }

  /// Decodes a content object, refusing optional keys that are present but `null`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(PushContentKind.self, forKey: .kind)
    deploymentID = try container.decode(String.self, forKey: .deploymentID)
    userID = try container.decode(String.self, forKey: .userID)
    installationID = try container.decode(String.self, forKey: .installationID)
    eventID = try container.decode(String.self, forKey: .eventID)
    createdAt = try container.decode(Int64.self, forKey: .createdAt)
    expiresAt = try container.decode(Int64.self, forKey: .expiresAt)
    serverID = try Self.optional(String.self, .serverID, in: container)
    securityEventID = try Self.optional(String.self, .securityEventID, in: container)
    securityEventType = try Self.optional(
      PushSecurityEventType.self, .securityEventType, in: container)
    taskRun = try Self.optional(PushTaskRunSummary.self, .taskRun, in: container)
    alert = try Self.optional(PushAlertSummary.self, .alert, in: container)
  }

  /// Decodes a key that is either left out or holds a value; a `null` is an error.
  private static func optional<T: Decodable>(
    _ type: T.Type, _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
  ) throws -> T? {
    guard container.contains(key) else { return nil }
    return try container.decode(type, forKey: key)
  }

  /// Encodes the content in the server's key order, leaving out optional keys that are `nil`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    try container.encode(deploymentID, forKey: .deploymentID)
    try container.encode(userID, forKey: .userID)
    try container.encode(installationID, forKey: .installationID)
    try container.encode(eventID, forKey: .eventID)
    try container.encode(createdAt, forKey: .createdAt)
    try container.encode(expiresAt, forKey: .expiresAt)
    if let serverID { try container.encode(serverID, forKey: .serverID) }
    if let securityEventID { try container.encode(securityEventID, forKey: .securityEventID) }
    if let securityEventType {
      try container.encode(securityEventType, forKey: .securityEventType)
    }
    if let taskRun { try container.encode(taskRun, forKey: .taskRun) }
    if let alert { try container.encode(alert, forKey: .alert) }
  }
}
