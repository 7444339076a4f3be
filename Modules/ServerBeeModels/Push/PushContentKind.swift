/// What a push is about (Protocol/Push.md §3.4): the `kind` of a ``PushContent``.
///
/// Clients reject any kind they do not know; the type still decodes unknown text so that the
/// rejection can be reported precisely.
public struct PushContentKind: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A test push asked for by the user.
  public static let test: Self = "test"
  /// An alert rule fired or recovered; carries ``PushContent/alert``.
  public static let alert: Self = "alert"
  /// A scheduled task run failed somewhere; carries ``PushContent/taskRun``.
  public static let taskFailure: Self = "task_failure"
  /// A scheduled task run succeeded everywhere; carries ``PushContent/taskRun``.
  public static let taskSuccess: Self = "task_success"
  /// A security rule matched; carries the `server_id` and `security_event_*` keys.
  public static let security: Self = "security"

  /// The five kinds a version 1 client understands.
  public static let known: Set<Self> = [.test, .alert, .taskFailure, .taskSuccess, .security]
}

/// The state of an alert in an `alert` push (Protocol/Push.md §3.4): `firing` or `resolved`.
public struct PushAlertStatus: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The rule triggered.
  public static let firing: Self = "firing"
  /// The rule recovered.
  public static let resolved: Self = "resolved"
}

/// The kind of security event in a `security` push (Protocol/Push.md §3.4).
public struct PushSecurityEventType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// An SSH login from a new IP address.
  public static let sshLogin: Self = "ssh_login"
  /// SSH brute-force activity.
  public static let sshBruteForce: Self = "ssh_brute_force"
  /// Port-scan activity.
  public static let portScan: Self = "port_scan"
}
