#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A ping task (Protocol/Tasks.md §5): an ICMP, TCP or HTTP probe that agents run against one
/// target every ``interval`` seconds. Anyone signed in may list them; admins change them.
///
/// The servers it runs on arrive as JSON **text** in ``serverIDsJSON`` (requests send a real
/// array, ``PingTaskRequest/serverIDs``); ``serverIDs`` reads it.
///
/// ```swift
/// let tasks = try await api.send(RouteCatalogue.Tasks.pingTasks)
/// for task in tasks where task.serverIDs?.isEmpty == true {
///   print(task.name, "runs on every capable server")
/// }
/// ```
public struct PingTask: Codable, Hashable, Sendable, Identifiable {
  /// Task id.
  public var id: String
  /// Display name.
  public var name: String
  /// How the target is probed.
  public var probeType: PingProbeType
  /// What is probed: a host (ICMP), `host:port` (TCP) or a URL (HTTP).
  public var target: String
  /// Seconds between probes.
  public var interval: Int
  /// The servers that run it, as JSON array text; `"[]"` means every capable server.
  public var serverIDsJSON: String
  /// Whether agents run it.
  public var enabled: Bool
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp

  /// Creates a ping task.
  /// - Parameters:
  ///   - id: Task id.
  ///   - name: Name.
  ///   - probeType: Probe kind.
  ///   - target: Target.
  ///   - interval: Seconds between probes.
  ///   - serverIDsJSON: The servers, as JSON array text.
  ///   - enabled: Whether enabled.
  ///   - createdAt: Creation time.
  public init(
    id: String, name: String, probeType: PingProbeType, target: String, interval: Int,
    serverIDsJSON: String, enabled: Bool, createdAt: RFC3339Timestamp
  ) {
    self.id = id
    self.name = name
    self.probeType = probeType
    self.target = target
    self.interval = interval
    self.serverIDsJSON = serverIDsJSON
    self.enabled = enabled
    self.createdAt = createdAt
  }

  /// The servers that run it (empty: every capable server); `nil` when ``serverIDsJSON`` is
  /// not a JSON array of strings.
  public var serverIDs: [String]? {
    try? WireJSON.decode([String].self, from: Data(serverIDsJSON.utf8))
  }

  private enum CodingKeys: String, CodingKey {
    case id, name
    case probeType = "probe_type"
    case target, interval
    case serverIDsJSON = "server_ids_json"
    case enabled
    case createdAt = "created_at"
  }
}

/// How a ping task probes its target; kinds a newer server adds still decode.
public struct PingProbeType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a kind from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// ICMP echo to a host.
  public static let icmp: Self = "icmp"
  /// A TCP connect to `host:port`.
  public static let tcp: Self = "tcp"
  /// An HTTP request to a URL.
  public static let http: Self = "http"
}

/// The body of `POST /api/ping-tasks` (every member) and of `PUT /api/ping-tasks/{id}` (only
/// the members set: the rest stay as they are). Unset members are left out of the JSON, so the
/// server applies its defaults on create (`interval` 60, `server_ids` every capable server,
/// `enabled` true) and keeps the stored values on change. `null` is never sent: on this route
/// it would not clear anything (Protocol/Tasks.md §5).
///
/// ```swift
/// // Create: name, probe type and target are required.
/// let created = try await api.send(
///   RouteCatalogue.Tasks.createPingTask,
///   body: PingTaskRequest(name: "edge", probeType: .tcp, target: "1.1.1.1:443", interval: 30))
/// // The app's toggle sends only `enabled`.
/// _ = try await api.send(
///   RouteCatalogue.Tasks.updatePingTask, PathID(created.id), body: PingTaskRequest(enabled: false))
/// ```
public struct PingTaskRequest: Codable, Hashable, Sendable {
  /// Display name (required on create).
  public var name: String?
  /// Probe kind (required on create): `icmp`, `tcp` or `http`.
  public var probeType: PingProbeType?
  /// Target (required on create).
  public var target: String?
  /// Seconds between probes; the server does not check its range.
  public var interval: Int?
  /// The servers that run it; empty means every capable server.
  public var serverIDs: [String]?
  /// Whether agents run it.
  public var enabled: Bool?

  /// Creates a body with the members to send.
  /// - Parameters:
  ///   - name: Name.
  ///   - probeType: Probe kind.
  ///   - target: Target.
  ///   - interval: Seconds between probes.
  ///   - serverIDs: The servers.
  ///   - enabled: Whether enabled.
  public init(
    name: String? = nil, probeType: PingProbeType? = nil, target: String? = nil,
    interval: Int? = nil, serverIDs: [String]? = nil, enabled: Bool? = nil
  ) {
    self.name = name
    self.probeType = probeType
    self.target = target
    self.interval = interval
    self.serverIDs = serverIDs
    self.enabled = enabled
  }

  private enum CodingKeys: String, CodingKey {
    case name
    case probeType = "probe_type"
    case target, interval
    case serverIDs = "server_ids"
    case enabled
  }

  /// Encodes the set members in wire order, leaving out the unset ones.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeUnlessNil(name, forKey: .name)
    try c.encodeUnlessNil(probeType, forKey: .probeType)
    try c.encodeUnlessNil(target, forKey: .target)
    try c.encodeUnlessNil(interval, forKey: .interval)
    try c.encodeUnlessNil(serverIDs, forKey: .serverIDs)
    try c.encodeUnlessNil(enabled, forKey: .enabled)
  }
}
