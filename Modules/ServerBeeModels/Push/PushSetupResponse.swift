/// The notification-settings document (Protocol/Push.md §2.2), returned by `GET`/`PUT
/// /api/mobile/push/settings` and by `POST /api/mobile/push/encrypted-register`.
///
/// Keys in wire order: `revision`, `preferences`, `security_allowed`, `tasks_allowed`,
/// `task_failure_available`, `registered`, `delivery_available`, `test_available`. Servers before
/// the task categories lack `tasks_allowed`, `task_failure_available` and `test_available`, so
/// those decode as optionals and are left out of the JSON when `nil`.
///
/// ```swift
/// let settings = try APIResponse<PushSetupResponse>.payload(status: status, body: body)
/// if settings.registered, settings.testAvailable != false { … }
/// ```
public struct PushSetupResponse: Codable, Hashable, Sendable {
  /// The registration revision used for compare-and-set writes (0 = no row).
  public var revision: Int64
  /// The stored switches.
  public var preferences: PushPreferences
  /// The caller's current role is `admin` (security pushes allowed).
  public var securityAllowed: Bool
  /// The caller's current role is `admin` (task pushes allowed); `nil` from older servers.
  public var tasksAllowed: Bool?
  /// Always `true` on current servers; `nil` from older servers.
  public var taskFailureAvailable: Bool?
  /// Enabled, and a complete device token, environment and content key are stored.
  public var registered: Bool
  /// The server has a usable relay configured.
  public var deliveryAvailable: Bool
  /// `registered && deliveryAvailable`; `nil` from older servers.
  public var testAvailable: Bool?

  /// Creates a settings document.
  /// - Parameters:
  ///   - revision: The registration revision.
  ///   - preferences: The stored switches.
  ///   - securityAllowed: Security pushes are allowed.
  ///   - tasksAllowed: Task pushes are allowed.
  ///   - taskFailureAvailable: Task failure pushes exist on this server.
  ///   - registered: A complete registration is stored.
  ///   - deliveryAvailable: A relay is configured.
  ///   - testAvailable: A test push can be sent.
  public init(
    revision: Int64, preferences: PushPreferences, securityAllowed: Bool,
    tasksAllowed: Bool?, taskFailureAvailable: Bool?, registered: Bool,
    deliveryAvailable: Bool, testAvailable: Bool?
  ) {
    self.revision = revision
    self.preferences = preferences
    self.securityAllowed = securityAllowed
    self.tasksAllowed = tasksAllowed
    self.taskFailureAvailable = taskFailureAvailable
    self.registered = registered
    self.deliveryAvailable = deliveryAvailable
    self.testAvailable = testAvailable
  }

  enum CodingKeys: String, CodingKey {
    case revision, preferences
    case securityAllowed = "security_allowed"
    case tasksAllowed = "tasks_allowed"
    case taskFailureAvailable = "task_failure_available"
    case registered
    case deliveryAvailable = "delivery_available"
    case testAvailable = "test_available"
  }

  /// Encodes the document in wire order, leaving out the optional keys that are `nil`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(revision, forKey: .revision)
    try container.encode(preferences, forKey: .preferences)
    try container.encode(securityAllowed, forKey: .securityAllowed)
    if let tasksAllowed { try container.encode(tasksAllowed, forKey: .tasksAllowed) }
    if let taskFailureAvailable {
      try container.encode(taskFailureAvailable, forKey: .taskFailureAvailable)
    }
    try container.encode(registered, forKey: .registered)
    try container.encode(deliveryAvailable, forKey: .deliveryAvailable)
    if let testAvailable { try container.encode(testAvailable, forKey: .testAvailable) }
  }
}
