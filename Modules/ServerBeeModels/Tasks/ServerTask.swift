/// A one-shot or scheduled command over a set of servers (Protocol/Tasks.md §1). Admin only.
///
/// ```swift
/// let tasks = try APIResponse<[ServerTask]>.payload(status: status, body: body)
/// for task in tasks where task.taskType == .scheduled { print(task.name ?? task.command) }
/// ```
public struct ServerTask: Codable, Hashable, Sendable, Identifiable {
  /// Task id (UUID).
  public var id: String
  /// The shell command.
  public var command: String
  /// Target servers.
  public var serverIDs: [String]
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// One-shot or scheduled.
  public var taskType: TaskType
  /// Display name.
  public var name: String?
  /// Cron expression of a scheduled task.
  public var cronExpression: String?
  /// Whether a scheduled task runs.
  public var enabled: Bool
  /// Timeout in seconds; `nil` means ``defaultTimeout``.
  public var timeout: Int?
  /// Retries after a non-zero exit, 0–10.
  public var retryCount: Int
  /// Seconds between retries.
  public var retryInterval: Int
  /// Last run (`Z` form).
  public var lastRunAt: RFC3339Timestamp?
  /// Next run (`Z` form).
  public var nextRunAt: RFC3339Timestamp?

  /// The timeout the server applies when ``timeout`` is `nil`: 300 s.
  public static let defaultTimeout = 300

  /// Creates a task.
  /// - Parameters:
  ///   - id: Task id.
  ///   - command: Command.
  ///   - serverIDs: Targets.
  ///   - createdAt: Creation time.
  ///   - taskType: Type.
  ///   - name: Name.
  ///   - cronExpression: Cron expression.
  ///   - enabled: Enabled.
  ///   - timeout: Timeout seconds.
  ///   - retryCount: Retries.
  ///   - retryInterval: Retry spacing.
  ///   - lastRunAt: Last run.
  ///   - nextRunAt: Next run.
  public init(
    id: String, command: String, serverIDs: [String], createdAt: RFC3339Timestamp,
    taskType: TaskType = .oneshot, name: String? = nil, cronExpression: String? = nil,
    enabled: Bool = true, timeout: Int? = nil, retryCount: Int = 0, retryInterval: Int = 60,
    lastRunAt: RFC3339Timestamp? = nil, nextRunAt: RFC3339Timestamp? = nil
  ) {
    self.id = id
    self.command = command
    self.serverIDs = serverIDs
    self.createdAt = createdAt
    self.taskType = taskType
    self.name = name
    self.cronExpression = cronExpression
    self.enabled = enabled
    self.timeout = timeout
    self.retryCount = retryCount
    self.retryInterval = retryInterval
    self.lastRunAt = lastRunAt
    self.nextRunAt = nextRunAt
  }

  /// ``timeout``, or ``defaultTimeout`` when it is `nil`.
  public var effectiveTimeout: Int { timeout ?? Self.defaultTimeout }

  private enum CodingKeys: String, CodingKey {
    case id, command
    case serverIDs = "server_ids"
    case createdAt = "created_at"
    case taskType = "task_type"
    case name
    case cronExpression = "cron_expression"
    case enabled, timeout
    case retryCount = "retry_count"
    case retryInterval = "retry_interval"
    case lastRunAt = "last_run_at"
    case nextRunAt = "next_run_at"
  }
}

/// A task's kind (unknown values survive).
public struct TaskType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a kind.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Runs once, at creation.
  public static let oneshot: Self = "oneshot"
  /// Runs on a cron schedule.
  public static let scheduled: Self = "scheduled"
}

/// The body of `POST /api/tasks` (Protocol/Tasks.md §2). Unset optional members are left out of the
/// JSON, so the server applies its defaults.
///
/// ```swift
/// let body = try WireJSON.encode(CreateTaskRequest(command: "uptime", serverIDs: [id]))
/// // {"command":"uptime","server_ids":["…"]}
/// ```
public struct CreateTaskRequest: Codable, Hashable, Sendable {
  /// The shell command (must not be blank).
  public var command: String
  /// Target servers (at least one).
  public var serverIDs: [String]
  /// Timeout seconds (not 0); server default 300.
  public var timeout: Int?
  /// Kind; server default `oneshot`.
  public var taskType: TaskType?
  /// Display name.
  public var name: String?
  /// Cron expression (required for scheduled tasks).
  public var cronExpression: String?
  /// Retries, 0–10.
  public var retryCount: Int?
  /// Seconds between retries, at least 1.
  public var retryInterval: Int?

  /// Creates a request.
  /// - Parameters:
  ///   - command: Command.
  ///   - serverIDs: Targets.
  ///   - timeout: Timeout seconds.
  ///   - taskType: Kind.
  ///   - name: Name.
  ///   - cronExpression: Cron expression.
  ///   - retryCount: Retries.
  ///   - retryInterval: Retry spacing.
  public init(
    command: String, serverIDs: [String], timeout: Int? = nil, taskType: TaskType? = nil,
    name: String? = nil, cronExpression: String? = nil, retryCount: Int? = nil,
    retryInterval: Int? = nil
  ) {
    self.command = command
    self.serverIDs = serverIDs
    self.timeout = timeout
    self.taskType = taskType
    self.name = name
    self.cronExpression = cronExpression
    self.retryCount = retryCount
    self.retryInterval = retryInterval
  }

  private enum CodingKeys: String, CodingKey {
    case command
    case serverIDs = "server_ids"
    case timeout
    case taskType = "task_type"
    case name
    case cronExpression = "cron_expression"
    case retryCount = "retry_count"
    case retryInterval = "retry_interval"
  }

  /// Encodes the set members in wire order, leaving out the unset ones.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(command, forKey: .command)
    try c.encode(serverIDs, forKey: .serverIDs)
    try c.encodeUnlessNil(timeout, forKey: .timeout)
    try c.encodeUnlessNil(taskType, forKey: .taskType)
    try c.encodeUnlessNil(name, forKey: .name)
    try c.encodeUnlessNil(cronExpression, forKey: .cronExpression)
    try c.encodeUnlessNil(retryCount, forKey: .retryCount)
    try c.encodeUnlessNil(retryInterval, forKey: .retryInterval)
  }
}

/// The body of `PUT /api/tasks/{id}` (Protocol/Tasks.md §2): only the members set change, the
/// unset ones are left out of the JSON and stay as they are. A new ``cronExpression`` is checked
/// and moves the next run; ``enabled`` `true` moves it too.
///
/// ```swift
/// // Turn a scheduled task off, and nothing else.
/// _ = try await api.updateTask(id: task.id, UpdateTaskRequest(enabled: false))
/// // Move it to 04:00:00 UTC every day.
/// _ = try await api.updateTask(id: task.id, UpdateTaskRequest(cronExpression: "0 0 4 * * *"))
/// ```
public struct UpdateTaskRequest: Codable, Hashable, Sendable {
  /// Display name.
  public var name: String?
  /// The shell command.
  public var command: String?
  /// Target servers.
  public var serverIDs: [String]?
  /// Cron expression (6 fields, with seconds, UTC).
  public var cronExpression: String?
  /// Whether a scheduled task runs.
  public var enabled: Bool?
  /// Timeout seconds, at least 1.
  public var timeout: Int?
  /// Retries, 0–10.
  public var retryCount: Int?
  /// Seconds between retries, at least 1.
  public var retryInterval: Int?

  /// Creates a body with the members to change.
  /// - Parameters:
  ///   - name: Name.
  ///   - command: Command.
  ///   - serverIDs: Targets.
  ///   - cronExpression: Cron expression.
  ///   - enabled: Enabled.
  ///   - timeout: Timeout seconds.
  ///   - retryCount: Retries.
  ///   - retryInterval: Retry spacing.
  public init(
    name: String? = nil, command: String? = nil, serverIDs: [String]? = nil,
    cronExpression: String? = nil, enabled: Bool? = nil, timeout: Int? = nil,
    retryCount: Int? = nil, retryInterval: Int? = nil
  ) {
    self.name = name
    self.command = command
    self.serverIDs = serverIDs
    self.cronExpression = cronExpression
    self.enabled = enabled
    self.timeout = timeout
    self.retryCount = retryCount
    self.retryInterval = retryInterval
  }

  private enum CodingKeys: String, CodingKey {
    case name, command
    case serverIDs = "server_ids"
    case cronExpression = "cron_expression"
    case enabled, timeout
    case retryCount = "retry_count"
    case retryInterval = "retry_interval"
  }

  /// Encodes the set members in wire order, leaving out the unset ones.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeUnlessNil(name, forKey: .name)
    try c.encodeUnlessNil(command, forKey: .command)
    try c.encodeUnlessNil(serverIDs, forKey: .serverIDs)
    try c.encodeUnlessNil(cronExpression, forKey: .cronExpression)
    try c.encodeUnlessNil(enabled, forKey: .enabled)
    try c.encodeUnlessNil(timeout, forKey: .timeout)
    try c.encodeUnlessNil(retryCount, forKey: .retryCount)
    try c.encodeUnlessNil(retryInterval, forKey: .retryInterval)
  }
}
