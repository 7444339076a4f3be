/// A `server_online` or `server_offline` frame: `{"server_id": …}`.
public struct ServerPresence: Codable, Hashable, Sendable {
  /// The server whose agent connected or disconnected.
  public var serverID: String

  /// Creates a presence change.
  /// - Parameter serverID: Server id.
  public init(serverID: String) { self.serverID = serverID }

  private enum CodingKeys: String, CodingKey { case serverID = "server_id" }
}

/// An `agent_authority_changed` frame: a server's enrollment changed.
public struct AgentAuthorityChange: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// Its new enrollment state.
  public var agentAuthority: AgentAuthority

  /// Creates a change.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - agentAuthority: New state.
  public init(serverID: String, agentAuthority: AgentAuthority) {
    self.serverID = serverID
    self.agentAuthority = agentAuthority
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case agentAuthority = "agent_authority"
  }
}

/// A `capabilities_changed` frame: the agent reported its capability masks.
public struct CapabilitiesChange: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// The configured mask.
  public var capabilities: Capabilities
  /// The agent's own mask, if reported.
  public var agentLocalCapabilities: Capabilities?
  /// The mask in force, if reported.
  public var effectiveCapabilities: Capabilities?
  /// Temporary grants.
  public var temporary: [TemporaryCapabilityGrant]

  /// Creates a change.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - capabilities: Configured mask.
  ///   - agentLocalCapabilities: Agent mask.
  ///   - effectiveCapabilities: Mask in force.
  ///   - temporary: Temporary grants.
  public init(
    serverID: String, capabilities: Capabilities, agentLocalCapabilities: Capabilities? = nil,
    effectiveCapabilities: Capabilities? = nil, temporary: [TemporaryCapabilityGrant] = []
  ) {
    self.serverID = serverID
    self.capabilities = capabilities
    self.agentLocalCapabilities = agentLocalCapabilities
    self.effectiveCapabilities = effectiveCapabilities
    self.temporary = temporary
  }

  /// The mask a UI should gate on; see ``Capabilities/resolved(configured:agentLocal:effective:)``.
  public var resolvedCapabilities: Capabilities {
    .resolved(
      configured: capabilities, agentLocal: agentLocalCapabilities, effective: effectiveCapabilities
    )
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case capabilities
    case agentLocalCapabilities = "agent_local_capabilities"
    case effectiveCapabilities = "effective_capabilities"
    case temporary
  }

  /// Decodes a change; a missing `temporary` (older servers) reads as empty.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    serverID = try c.decode(String.self, forKey: .serverID)
    capabilities = try c.decode(Capabilities.self, forKey: .capabilities)
    agentLocalCapabilities = try c.decodeIfPresent(
      Capabilities.self, forKey: .agentLocalCapabilities)
    effectiveCapabilities = try c.decodeIfPresent(Capabilities.self, forKey: .effectiveCapabilities)
    temporary = try c.decodeIfPresent([TemporaryCapabilityGrant].self, forKey: .temporary) ?? []
  }
}

/// An `agent_info_updated` frame: the agent sent its system info.
public struct AgentInfoUpdate: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// The agent protocol version.
  public var protocolVersion: Int
  /// The agent version, if known.
  public var agentVersion: String?

  /// Creates an update.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - protocolVersion: Protocol version.
  ///   - agentVersion: Agent version.
  public init(serverID: String, protocolVersion: Int, agentVersion: String? = nil) {
    self.serverID = serverID
    self.protocolVersion = protocolVersion
    self.agentVersion = agentVersion
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case protocolVersion = "protocol_version"
    case agentVersion = "agent_version"
  }
}

/// A `server_ip_changed` frame: a server's addresses changed.
public struct ServerIPChange: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// Previous IPv4 address.
  public var oldIPv4: String?
  /// New IPv4 address.
  public var newIPv4: String?
  /// Previous IPv6 address.
  public var oldIPv6: String?
  /// New IPv6 address.
  public var newIPv6: String?
  /// Previous remote address of the agent connection.
  public var oldRemoteAddr: String?
  /// New remote address of the agent connection.
  public var newRemoteAddr: String?

  /// Creates a change.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - oldIPv4: Previous IPv4.
  ///   - newIPv4: New IPv4.
  ///   - oldIPv6: Previous IPv6.
  ///   - newIPv6: New IPv6.
  ///   - oldRemoteAddr: Previous remote address.
  ///   - newRemoteAddr: New remote address.
  public init(
    serverID: String, oldIPv4: String? = nil, newIPv4: String? = nil, oldIPv6: String? = nil,
    newIPv6: String? = nil, oldRemoteAddr: String? = nil, newRemoteAddr: String? = nil
  ) {
    self.serverID = serverID
    self.oldIPv4 = oldIPv4
    self.newIPv4 = newIPv4
    self.oldIPv6 = oldIPv6
    self.newIPv6 = newIPv6
    self.oldRemoteAddr = oldRemoteAddr
    self.newRemoteAddr = newRemoteAddr
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case oldIPv4 = "old_ipv4"
    case newIPv4 = "new_ipv4"
    case oldIPv6 = "old_ipv6"
    case newIPv6 = "new_ipv6"
    case oldRemoteAddr = "old_remote_addr"
    case newRemoteAddr = "new_remote_addr"
  }
}
