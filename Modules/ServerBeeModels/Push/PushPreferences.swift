/// The five notification switches of one installation (Protocol/Push.md §2.2): the `preferences`
/// object.
///
/// Without a registration row every switch is `false`. Stored values are returned as saved even
/// when the caller is no longer allowed to use them (a demoted admin may see `security: true`).
///
/// ```swift
/// let wanted = PushPreferences(enabled: true, alerts: true)
/// let body = try WireJSON.encode(PushSettingsUpdate(expectedRevision: 2, preferences: wanted))
/// ```
public struct PushPreferences: Codable, Hashable, Sendable {
  /// Notifications are on for this installation.
  public var enabled: Bool
  /// Alert rule transitions (admins and members).
  public var alerts: Bool
  /// Security rule matches (admins only).
  public var security: Bool
  /// Failed scheduled task runs (admins only).
  public var taskFailure: Bool
  /// Successful scheduled task runs (admins only, opt-in).
  public var taskSuccess: Bool

  /// Creates a set of switches; every switch defaults to `false`.
  /// - Parameters:
  ///   - enabled: Notifications are on.
  ///   - alerts: Alert pushes.
  ///   - security: Security pushes.
  ///   - taskFailure: Task failure pushes.
  ///   - taskSuccess: Task success pushes.
  public init(
    enabled: Bool = false, alerts: Bool = false, security: Bool = false,
    taskFailure: Bool = false, taskSuccess: Bool = false
  ) {
    self.enabled = enabled
    self.alerts = alerts
    self.security = security
    self.taskFailure = taskFailure
    self.taskSuccess = taskSuccess
  }

  enum CodingKeys: String, CodingKey {
    case enabled, alerts, security
    case taskFailure = "task_failure"
    case taskSuccess = "task_success"
  }
}
