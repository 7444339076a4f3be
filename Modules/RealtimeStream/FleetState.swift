public import ServerBeeModels

/// The live fleet as the `/api/ws/servers` stream describes it, with the merge rules of
/// Protocol/LiveStream.md.
///
/// - `full_sync` replaces everything (it is authoritative, also the one a lagging client gets).
/// - `update` merges only the fields present into the server with that `id` (looked up in a
///   dictionary, so the cost does not grow with the fleet): totals and static facts are never
///   erased by a partial frame, a total of 0 (unknown capacity) never replaces a known one, and
///   the `name` an update carries never overwrites the known one.
/// - `server_online`/`server_offline` flip the online flag; `agent_authority_changed`,
///   `capabilities_changed`, `agent_info_updated`, `upgrade_progress`/`upgrade_result` update
///   what they describe (a finished `upgrade_result` sets the job's status, error and
///   `finished_at`); every other message changes nothing here.
/// - Configuration from `GET /api/servers` can be merged in with ``mergeConfiguration(_:)``.
///
/// It is a value: keep a copy as a snapshot; ``MetricsStreamClient`` publishes one after each
/// frame.
///
/// ```swift
/// var fleet = FleetState()
/// fleet.apply(try LiveFrameDecoder.decode(frame))
/// fleet.server(id: "c2f1…")?.cpu
/// ```
public struct FleetState: Sendable, Hashable {
  /// The servers in the order of the last `full_sync` (new ones appended).
  public private(set) var servers = ServerList()
  /// Agent self-upgrade jobs, from `full_sync` and later progress and results.
  public private(set) var upgrades: [UpgradeJob] = []
  /// REST configuration by server id (``mergeConfiguration(_:)``).
  public private(set) var configurations: [String: ServerResponse] = [:]
  /// The last capability report per server id.
  public private(set) var capabilities: [String: CapabilitiesChange] = [:]
  /// The last agent information per server id.
  public private(set) var agents: [String: AgentInfoUpdate] = [:]
  /// Whether a `full_sync` has been applied.
  public private(set) var isSynchronized = false
  private var positions: [String: Int] = [:]

  /// An empty, unsynchronised fleet.
  public init() {}

  /// The live state of one server.
  /// - Parameter id: The server id.
  /// - Returns: The server, or `nil` if the fleet has none with that id.
  public func server(id: String) -> ServerStatus? {
    positions[id].map { servers[$0] }
  }

  /// What changed when a message was applied.
  public enum Change: Sendable, Hashable {
    /// A `full_sync` replaced the fleet.
    case replaced
    /// Servers merged from an `update`; unknown ids were added.
    case updated(ids: [String])
    /// A server's online flag or agent facts changed.
    case changed(id: String)
    /// The upgrade list changed.
    case upgradesChanged
    /// Nothing in the fleet changed (events such as `security_event`, unknown types).
    case none
  }

  /// Applies one stream message.
  /// - Parameters:
  ///   - message: A decoded frame.
  ///   - receivedAt: When the frame arrived. `upgrade_result` carries no end time, so a
  ///     finished job's `finishedAt` is set from this (left as it was when `nil`).
  /// - Returns: What changed.
  @discardableResult
  public mutating func apply(_ message: LiveStreamMessage, receivedAt: RFC3339Timestamp? = nil)
    -> Change
  {
    switch message {
    case .fullSync(let sync):
      replace(with: sync)
      return .replaced
    case .update(let update):
      for metrics in update.servers { merge(metrics) }
      return .updated(ids: update.servers.map(\.id))
    case .serverOnline(let presence):
      return setOnline(true, id: presence.serverID)
    case .serverOffline(let presence):
      return setOnline(false, id: presence.serverID)
    case .agentAuthorityChanged(let change):
      guard let position = positions[change.serverID] else { return .none }
      servers.modify(at: position) { server in
        server.agentAuthority = change.agentAuthority
        server.hasToken = change.agentAuthority.status == .claimed
        server.outstandingEnrollment = change.agentAuthority.outstandingOffer
      }
      return .changed(id: change.serverID)
    case .capabilitiesChanged(let change):
      capabilities[change.serverID] = change
      return .changed(id: change.serverID)
    case .agentInfoUpdated(let info):
      agents[info.serverID] = info
      return .changed(id: info.serverID)
    case .upgradeProgress(let progress):
      guard let index = upgrades.firstIndex(where: { $0.jobID == progress.jobID }) else {
        return .none
      }
      upgrades[index].stage = progress.stage
      return .upgradesChanged
    case .upgradeResult(let result):
      guard let index = upgrades.firstIndex(where: { $0.jobID == result.jobID }) else {
        return .none
      }
      upgrades[index].status = result.status
      if let stage = result.stage { upgrades[index].stage = stage }
      upgrades[index].error = result.error
      upgrades[index].backupPath = result.backupPath
      if result.status != .running, let receivedAt { upgrades[index].finishedAt = receivedAt }
      return .upgradesChanged
    default:
      return .none
    }
  }

  /// Replaces the fleet with a `full_sync`.
  /// - Parameter sync: The snapshot.
  public mutating func replace(with sync: FullSync) {
    servers = ServerList(sync.servers)
    upgrades = sync.upgrades
    positions = Dictionary(
      sync.servers.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    isSynchronized = true
  }

  /// Merges one `update` entry: present fields only, never the name.
  /// - Parameter metrics: The entry.
  public mutating func merge(_ metrics: LiveMetrics) {
    guard let position = positions[metrics.id] else {
      // A server the last full_sync did not have: keep what the frame says until the next
      // full_sync brings its totals and static facts.
      var server = ServerStatus(id: metrics.id, name: metrics.name)
      server.merge(metrics)
      positions[metrics.id] = servers.count
      servers.append(server)
      return
    }
    servers.modify(at: position) { $0.merge(metrics) }
  }

  private mutating func setOnline(_ online: Bool, id: String) -> Change {
    guard let position = positions[id] else { return .none }
    servers.modify(at: position) { $0.online = online }
    return .changed(id: id)
  }

  /// Merges REST configuration (`GET /api/servers`) by id; it does not add live entries.
  /// - Parameter list: The configuration list.
  public mutating func mergeConfiguration(_ list: [ServerResponse]) {
    for server in list { configurations[server.id] = server }
  }

  /// The capabilities a UI should gate on for a server: the live report's effective mask, else
  /// the configuration's resolved mask (Protocol/Servers.md §1), else `nil`.
  /// - Parameter id: The server id.
  /// - Returns: The capabilities, if known.
  public func effectiveCapabilities(of id: String) -> Capabilities? {
    capabilities[id]?.resolvedCapabilities ?? configurations[id]?.resolvedCapabilities
  }
}
