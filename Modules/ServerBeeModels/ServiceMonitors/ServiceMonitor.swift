#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a service monitor checks (Protocol/AppRoutes.md §11); values a newer server adds still
/// decode.
public struct ServiceMonitorType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a type from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A TLS certificate's validity and days to expiry.
  public static let ssl: Self = "ssl"
  /// A DNS lookup, optionally against expected values.
  public static let dns: Self = "dns"
  /// An HTTP request's status code and a keyword in the body.
  public static let httpKeyword: Self = "http_keyword"
  /// A TCP connection to `host:port`.
  public static let tcp: Self = "tcp"
  /// A domain's registration and days to expiry.
  public static let whois: Self = "whois"
}

/// A service monitor (Protocol/AppRoutes.md §11): a check of an outside service (certificate,
/// DNS, HTTP keyword, TCP port, domain registration) that the server runs every ``interval``
/// seconds, with its latest state.
///
/// Decoding is as tolerant as the official app's: a type a newer server adds decodes
/// (``ServiceMonitorType``), and the nullable members may also be absent. `config_json` and
/// `server_ids_json` are JSON **inside a string**: the text is kept as sent, and ``config`` and
/// ``serverIDs`` read it (`nil` when it is null or not valid JSON, never a decoding failure).
///
/// ```swift
/// for monitor in try await api.serviceMonitors() {
///   let state = monitor.lastStatus.map { $0 ? "up" : "down" } ?? "never checked"
///   print(monitor.name, monitor.monitorType, state)
/// }
/// ```
public struct ServiceMonitor: Codable, Hashable, Sendable, Identifiable {
  /// Monitor id.
  public var id: String
  /// Display name.
  public var name: String
  /// What it checks.
  public var monitorType: ServiceMonitorType
  /// The host, `host:port`, URL or domain checked.
  public var target: String
  /// Seconds between two scheduled checks.
  public var interval: Int
  /// The type's settings, JSON text (for example `{"keyword":"OK"}`).
  public var configJSON: String
  /// The notification group told when it goes down, if any.
  public var notificationGroupID: String?
  /// Failed checks in a row before it counts as down.
  public var retryCount: Int
  /// JSON text of the server ids it belongs to, or `nil` for none.
  public var serverIDsJSON: String?
  /// Whether the server checks it on schedule.
  public var enabled: Bool
  /// `true` up, `false` down, `nil` never checked.
  public var lastStatus: Bool?
  /// Failed checks in a row up to the latest.
  public var consecutiveFailures: Int
  /// The latest check's time (`Z` form), `nil` when never checked.
  public var lastCheckedAt: RFC3339Timestamp?
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// Last change or check (`Z` form).
  public var updatedAt: RFC3339Timestamp

  /// ``configJSON`` parsed; `nil` when it is not valid JSON.
  public var config: JSONValue? { Self.parse(configJSON) }

  /// ``serverIDsJSON`` parsed as an array of ids; `nil` when absent, null or not such an array.
  public var serverIDs: [String]? {
    guard case .array(let items) = serverIDsJSON.flatMap(Self.parse) else { return nil }
    let ids = items.compactMap(\.stringValue)
    return ids.count == items.count ? ids : nil
  }

  /// Creates a monitor.
  /// - Parameters:
  ///   - id: Monitor id.
  ///   - name: Name.
  ///   - monitorType: What it checks.
  ///   - target: What is checked.
  ///   - interval: Seconds between checks.
  ///   - configJSON: Settings as JSON text.
  ///   - notificationGroupID: Notification group, if any.
  ///   - retryCount: Failures before it is down.
  ///   - serverIDsJSON: Server ids as JSON text, if any.
  ///   - enabled: Checked on schedule.
  ///   - lastStatus: Up, down or never checked.
  ///   - consecutiveFailures: Failures in a row.
  ///   - lastCheckedAt: Latest check.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  public init(
    id: String, name: String, monitorType: ServiceMonitorType, target: String, interval: Int,
    configJSON: String = "{}", notificationGroupID: String? = nil, retryCount: Int = 1,
    serverIDsJSON: String? = nil, enabled: Bool = true, lastStatus: Bool? = nil,
    consecutiveFailures: Int = 0, lastCheckedAt: RFC3339Timestamp? = nil,
    createdAt: RFC3339Timestamp, updatedAt: RFC3339Timestamp
  ) {
    self.id = id
    self.name = name
    self.monitorType = monitorType
    self.target = target
    self.interval = interval
    self.configJSON = configJSON
    self.notificationGroupID = notificationGroupID
    self.retryCount = retryCount
    self.serverIDsJSON = serverIDsJSON
    self.enabled = enabled
    self.lastStatus = lastStatus
    self.consecutiveFailures = consecutiveFailures
    self.lastCheckedAt = lastCheckedAt
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// The wire keys, in the server's order; `latest_record` follows them in
  /// ``ServiceMonitorDetail``.
  enum CodingKeys: String, CodingKey {
    case id, name
    case monitorType = "monitor_type"
    case target, interval
    case configJSON = "config_json"
    case notificationGroupID = "notification_group_id"
    case retryCount = "retry_count"
    case serverIDsJSON = "server_ids_json"
    case enabled
    case lastStatus = "last_status"
    case consecutiveFailures = "consecutive_failures"
    case lastCheckedAt = "last_checked_at"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case latestRecord = "latest_record"
  }

  /// Decodes a monitor; the nullable members may be absent.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    name = try c.decode(String.self, forKey: .name)
    monitorType = try c.decode(ServiceMonitorType.self, forKey: .monitorType)
    target = try c.decode(String.self, forKey: .target)
    interval = try c.decode(Int.self, forKey: .interval)
    configJSON = try c.decode(String.self, forKey: .configJSON)
    notificationGroupID = try c.decodeIfPresent(String.self, forKey: .notificationGroupID)
    retryCount = try c.decode(Int.self, forKey: .retryCount)
    serverIDsJSON = try c.decodeIfPresent(String.self, forKey: .serverIDsJSON)
    enabled = try c.decode(Bool.self, forKey: .enabled)
    lastStatus = try c.decodeIfPresent(Bool.self, forKey: .lastStatus)
    consecutiveFailures = try c.decode(Int.self, forKey: .consecutiveFailures)
    lastCheckedAt = try c.decodeIfPresent(RFC3339Timestamp.self, forKey: .lastCheckedAt)
    createdAt = try c.decode(RFC3339Timestamp.self, forKey: .createdAt)
    updatedAt = try c.decode(RFC3339Timestamp.self, forKey: .updatedAt)
  }

  /// Encodes the monitor in the server's key order, with `null` for absent values.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try encodeFields(into: &c)
  }

  func encodeFields(into c: inout KeyedEncodingContainer<CodingKeys>) throws {
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(monitorType, forKey: .monitorType)
    try c.encode(target, forKey: .target)
    try c.encode(interval, forKey: .interval)
    try c.encode(configJSON, forKey: .configJSON)
    try c.encode(notificationGroupID, forKey: .notificationGroupID)
    try c.encode(retryCount, forKey: .retryCount)
    try c.encode(serverIDsJSON, forKey: .serverIDsJSON)
    try c.encode(enabled, forKey: .enabled)
    try c.encode(lastStatus, forKey: .lastStatus)
    try c.encode(consecutiveFailures, forKey: .consecutiveFailures)
    try c.encode(lastCheckedAt, forKey: .lastCheckedAt)
    try c.encode(createdAt, forKey: .createdAt)
    try c.encode(updatedAt, forKey: .updatedAt)
  }

  /// JSON text parsed, or `nil` when it is not JSON.
  static func parse(_ text: String) -> JSONValue? {
    try? WireJSON.decode(JSONValue.self, from: Data(text.utf8))
  }
}

/// One check of a service monitor (Protocol/AppRoutes.md §11): whether it passed, how long it
/// took, what the check saw (``detailJSON``) and why it failed.
///
/// `detail_json` is JSON **inside a string** whose members depend on the monitor's type (for a
/// TCP check `{"connected":true}`); the text is kept as sent and ``detail`` reads it (`nil`
/// when it is not valid JSON, never a decoding failure).
///
/// ```swift
/// for record in try await api.serviceMonitorRecords(id: monitor.id, limit: 50) {
///   print(record.time, record.success ? "ok" : record.error ?? "failed")
/// }
/// ```
public struct ServiceMonitorRecord: Codable, Hashable, Sendable, Identifiable {
  /// Record id (increasing with time on one server).
  public var id: Int64
  /// The monitor.
  public var monitorID: String
  /// Whether the check passed.
  public var success: Bool
  /// How long it took in milliseconds, if measured.
  public var latency: Double?
  /// What the check saw, JSON text (`"null"` when it saw nothing).
  public var detailJSON: String
  /// Why it failed, if it did.
  public var error: String?
  /// When it ran (`Z` form).
  public var time: RFC3339Timestamp

  /// ``detailJSON`` parsed; `nil` when it is not valid JSON.
  public var detail: JSONValue? { ServiceMonitor.parse(detailJSON) }

  /// Creates a record.
  /// - Parameters:
  ///   - id: Record id.
  ///   - monitorID: The monitor.
  ///   - success: Passed or not.
  ///   - latency: Milliseconds, if measured.
  ///   - detailJSON: What the check saw, JSON text.
  ///   - error: Why it failed.
  ///   - time: When it ran.
  public init(
    id: Int64, monitorID: String, success: Bool, latency: Double?, detailJSON: String,
    error: String?, time: RFC3339Timestamp
  ) {
    self.id = id
    self.monitorID = monitorID
    self.success = success
    self.latency = latency
    self.detailJSON = detailJSON
    self.error = error
    self.time = time
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case monitorID = "monitor_id"
    case success, latency
    case detailJSON = "detail_json"
    case error, time
  }

  /// Encodes the record in the server's key order, with `null` for absent values.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(monitorID, forKey: .monitorID)
    try c.encode(success, forKey: .success)
    try c.encode(latency, forKey: .latency)
    try c.encode(detailJSON, forKey: .detailJSON)
    try c.encode(error, forKey: .error)
    try c.encode(time, forKey: .time)
  }
}

/// `GET /api/service-monitors/{id}` (`MonitorWithRecord` upstream, Protocol/AppRoutes.md §11):
/// the monitor's members **flattened** at the top level, then `latest_record`.
///
/// As in the official app, an absent `latest_record` reads as `nil`, like `null`.
///
/// ```swift
/// let detail = try await api.serviceMonitor(id: monitor.id)
/// print(detail.monitor.name, detail.latestRecord?.latency ?? 0)
/// ```
public struct ServiceMonitorDetail: Codable, Hashable, Sendable {
  /// The monitor.
  public var monitor: ServiceMonitor
  /// Its newest check, if any.
  public var latestRecord: ServiceMonitorRecord?

  /// Creates a detail.
  /// - Parameters:
  ///   - monitor: The monitor.
  ///   - latestRecord: Its newest check.
  public init(monitor: ServiceMonitor, latestRecord: ServiceMonitorRecord?) {
    self.monitor = monitor
    self.latestRecord = latestRecord
  }

  /// Decodes the flattened members and `latest_record`.
  public init(from decoder: any Decoder) throws {
    monitor = try ServiceMonitor(from: decoder)
    let c = try decoder.container(keyedBy: ServiceMonitor.CodingKeys.self)
    latestRecord = try c.decodeIfPresent(ServiceMonitorRecord.self, forKey: .latestRecord)
  }

  /// Encodes the monitor's members, then `latest_record` (`null` when none).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: ServiceMonitor.CodingKeys.self)
    try monitor.encodeFields(into: &c)
    try c.encode(latestRecord, forKey: .latestRecord)
  }
}
