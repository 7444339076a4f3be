/// A `blocklist_changed` frame: a firewall block entry was created or deleted.
public struct BlocklistChange: Codable, Hashable, Sendable {
  /// `created` or `deleted`.
  public var kind: BlocklistChangeKind
  /// The block entry id.
  public var blockID: String
  /// The blocked IP or CIDR.
  public var target: String

  /// Creates a change.
  /// - Parameters:
  ///   - kind: Created or deleted.
  ///   - blockID: Entry id.
  ///   - target: Blocked IP or CIDR.
  public init(kind: BlocklistChangeKind, blockID: String, target: String) {
    self.kind = kind
    self.blockID = blockID
    self.target = target
  }

  private enum CodingKeys: String, CodingKey {
    case kind
    case blockID = "block_id"
    case target
  }
}

/// What happened to a block entry (unknown values survive).
public struct BlocklistChangeKind: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a kind.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The entry was added.
  public static let created: Self = "created"
  /// The entry was removed.
  public static let deleted: Self = "deleted"
}

/// A `firewall_apply_state_changed` frame: an agent acknowledged a block entry.
public struct FirewallApplyStateChange: Codable, Hashable, Sendable {
  /// The block entry id.
  public var blockID: String
  /// The agent's server.
  public var serverID: String
  /// The entry's state on that agent.
  public var state: FirewallApplyState
  /// Why it failed, if it did.
  public var reason: String?

  /// Creates a change.
  /// - Parameters:
  ///   - blockID: Entry id.
  ///   - serverID: Server id.
  ///   - state: New state.
  ///   - reason: Failure reason.
  public init(blockID: String, serverID: String, state: FirewallApplyState, reason: String? = nil) {
    self.blockID = blockID
    self.serverID = serverID
    self.state = state
    self.reason = reason
  }

  private enum CodingKeys: String, CodingKey {
    case blockID = "block_id"
    case serverID = "server_id"
    case state, reason
  }
}

/// The state of a block entry on one agent (unknown values survive).
public struct FirewallApplyState: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a state.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The rule is installed.
  public static let present: Self = "present"
  /// The rule is not installed.
  public static let absent: Self = "absent"
  /// Installing or removing it failed.
  public static let failed: Self = "failed"
}

/// An `ip_quality_update` frame: results of an IP-quality check, kept as JSON.
public struct IPQualityUpdate: Codable, Hashable, Sendable {
  /// The checked server.
  public var serverID: String
  /// Streaming-unlock results (an array).
  public var unlockResults: JSONValue
  /// The IP-quality snapshot, or `null`.
  public var ipQuality: JSONValue

  /// Creates an update.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - unlockResults: Unlock results.
  ///   - ipQuality: Quality snapshot.
  public init(serverID: String, unlockResults: JSONValue, ipQuality: JSONValue) {
    self.serverID = serverID
    self.unlockResults = unlockResults
    self.ipQuality = ipQuality
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case unlockResults = "unlock_results"
    case ipQuality = "ip_quality"
  }
}
