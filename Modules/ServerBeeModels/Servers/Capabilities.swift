/// The capability bitmask of a server's agent (Protocol/Servers.md §1): what the agent may do.
///
/// The server reports three masks: the admin-configured `capabilities`, the agent's own
/// `agent_local_capabilities` and the combined `effective_capabilities` (the last two are `null`
/// while the agent is offline or has not reported). Gate a feature on
/// ``resolved(configured:agentLocal:effective:)``, which applies the contract's fallback rule.
/// Unknown bits survive decoding and encoding unchanged.
///
/// ```swift
/// let caps = Capabilities.resolved(
///   configured: server.capabilities,
///   agentLocal: server.agentLocalCapabilities,
///   effective: server.effectiveCapabilities)
/// if caps.contains(.docker) { showDockerTab() }
/// ```
public struct Capabilities: OptionSet, Codable, Hashable, Sendable {
  /// The mask as sent on the wire.
  public let rawValue: UInt32

  /// Creates a mask.
  /// - Parameter rawValue: The bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Bit 1: web terminal.
  public static let terminal = Self(rawValue: 1)
  /// Bit 2: command execution (tasks).
  public static let exec = Self(rawValue: 2)
  /// Bit 4: agent self-upgrade.
  public static let upgrade = Self(rawValue: 4)
  /// Bit 8: ICMP ping probes.
  public static let pingICMP = Self(rawValue: 8)
  /// Bit 16: TCP ping probes.
  public static let pingTCP = Self(rawValue: 16)
  /// Bit 32: HTTP ping probes.
  public static let pingHTTP = Self(rawValue: 32)
  /// Bit 64: file management.
  public static let file = Self(rawValue: 64)
  /// Bit 128: Docker.
  public static let docker = Self(rawValue: 128)
  /// Bit 256: security-event detection.
  public static let securityEvents = Self(rawValue: 256)
  /// Bit 512: firewall blocking.
  public static let firewallBlock = Self(rawValue: 512)
  /// Bit 1024: IP-quality checks.
  public static let ipQuality = Self(rawValue: 1024)

  /// The server's default mask, 1852.
  public static let defaultMask = Self(rawValue: 1852)
  /// Every bit the contract defines, 2047.
  public static let all = Self(rawValue: 2047)

  /// The mask a UI should gate on (Protocol/Servers.md §1): `effective` when present, otherwise
  /// `configured ∩ agentLocal` when the agent reported its local mask, otherwise `configured`.
  /// - Parameters:
  ///   - configured: The admin-configured `capabilities`.
  ///   - agentLocal: `agent_local_capabilities`, `nil` when not reported.
  ///   - effective: `effective_capabilities`, `nil` when not reported.
  /// - Returns: The capabilities in force.
  public static func resolved(
    configured: Capabilities, agentLocal: Capabilities?, effective: Capabilities?
  ) -> Capabilities {
    if let effective { return effective }
    if let agentLocal { return configured.intersection(agentLocal) }
    return configured
  }
}

/// A temporary capability grant (`temporary` in Protocol/LiveStream.md §4, Protocol/Servers.md §1):
/// `{cap, granted_at, expires_at}` with both times in Unix seconds.
public struct TemporaryCapabilityGrant: Codable, Hashable, Sendable {
  /// The capability name, for example `exec`.
  public var cap: String
  /// When it was granted, Unix seconds.
  public var grantedAt: Int64
  /// When it lapses, Unix seconds.
  public var expiresAt: Int64

  /// Creates a grant.
  /// - Parameters:
  ///   - cap: The capability name.
  ///   - grantedAt: Unix seconds.
  ///   - expiresAt: Unix seconds.
  public init(cap: String, grantedAt: Int64, expiresAt: Int64) {
    self.cap = cap
    self.grantedAt = grantedAt
    self.expiresAt = expiresAt
  }

  private enum CodingKeys: String, CodingKey {
    case cap
    case grantedAt = "granted_at"
    case expiresAt = "expires_at"
  }
}
