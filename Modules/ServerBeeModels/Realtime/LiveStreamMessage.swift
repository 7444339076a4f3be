#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A frame the server sends on the live stream `GET /api/ws/servers` (Protocol/LiveStream.md §4).
///
/// Every frame is a JSON object whose `type` member picks the case. A frame whose `type` is
/// unknown, missing, `null` or not a string (or a frame that is JSON but not an object) becomes
/// ``unknown(_:)``, never an error: servers keep adding types. A known type whose members are
/// wrong throws a ``ServerBeeModelsError`` that names the field, for example
/// `missing field 'servers[0].id'`.
///
/// Encoding writes `type` first, then the payload in wire order, exactly as the server does, so a
/// simulator can send these with ``WireJSON/encode(_:)``.
///
/// ```swift
/// switch try LiveStreamMessage(decoding: frameText) {
/// case .fullSync(let sync): fleet.replace(with: sync.servers)  // authoritative replace
/// case .update(let update): update.servers.forEach { fleet[$0.id]?.merge($0) }
/// case .serverOffline(let presence): fleet[presence.serverID]?.online = false
/// case .unknown: break  // newer server
/// default: break
/// }
/// ```
public enum LiveStreamMessage: Codable, Hashable, Sendable {
  /// `full_sync`: every server and upgrade job. Replace the cached fleet with it.
  case fullSync(FullSync)
  /// `update`: one server's fresh metrics, to merge by id.
  case update(MetricsUpdate)
  /// `server_online`: an agent connected.
  case serverOnline(ServerPresence)
  /// `server_offline`: an agent disconnected or went silent for 30 s.
  case serverOffline(ServerPresence)
  /// `agent_authority_changed`: enrollment changed.
  case agentAuthorityChanged(AgentAuthorityChange)
  /// `capabilities_changed`: the agent reported its capability masks.
  case capabilitiesChanged(CapabilitiesChange)
  /// `security_event`: a security event was stored.
  case securityEvent(LiveSecurityEvent)
  /// `agent_info_updated`: the agent sent its system info.
  case agentInfoUpdated(AgentInfoUpdate)
  /// `upgrade_progress`: a self-upgrade reached a stage.
  case upgradeProgress(UpgradeProgress)
  /// `upgrade_result`: a self-upgrade finished.
  case upgradeResult(UpgradeResult)
  /// `network_probe_update`: a probe round finished.
  case networkProbeUpdate(NetworkProbeUpdate)
  /// `traceroute_update`: traceroute progress.
  case tracerouteUpdate(TracerouteUpdate)
  /// `docker_update`: container list and stats.
  case dockerUpdate(DockerMessage)
  /// `docker_event`: a Docker event.
  case dockerEvent(DockerMessage)
  /// `docker_availability_changed`: Docker appeared or vanished.
  case dockerAvailabilityChanged(DockerAvailabilityChange)
  /// `server_ip_changed`: a server's addresses changed.
  case serverIPChanged(ServerIPChange)
  /// `blocklist_changed`: a firewall block entry was created or deleted.
  case blocklistChanged(BlocklistChange)
  /// `firewall_apply_state_changed`: an agent acknowledged a block entry.
  case firewallApplyStateChanged(FirewallApplyStateChange)
  /// `ip_quality_update`: an IP-quality check finished.
  case ipQualityUpdate(IPQualityUpdate)
  /// `alert_event`: an alert fired or resolved. Current servers never send it
  /// (Protocol/LiveStream.md §4, Protocol/README.md §11; alerts are pull-only), but the upstream
  /// iOS client and the design doc expect it, so a server that does is understood instead of being
  /// dropped as unknown.
  case alertEvent(LiveAlertEvent)
  /// Any other frame, kept whole.
  case unknown(UnknownLiveStreamMessage)

  /// Decodes one text frame.
  /// - Parameter data: The frame's UTF-8 bytes (at most ``WireJSON/maximumInputSize``).
  /// - Throws: ``ServerBeeModelsError``: `malformedJSON` when the bytes are not JSON;
  ///   `missingField`, `invalidField` or `invalidTimestamp`, naming the field, when a known type
  ///   has a bad body; `tooLarge`.
  public init(decoding data: Data) throws {
    do {
      self = try WireJSON.decode(LiveStreamMessage.self, from: data)
    } catch var error as ServerBeeModelsError {
      // Only on failure: name the frame type too, for logs ("update frame: missing field …").
      if let type = (try? WireJSON.decode(TypeProbe.self, from: data))?.type {
        error.message = "\(type.prefix(64)) frame: \(error.message)"
      }
      throw error
    }
  }

  private struct TypeProbe: Decodable { var type: String? }

  /// Decodes one text frame.
  /// - Parameter text: The frame's text.
  /// - Throws: See ``init(decoding:)-(Data)``.
  public init(decoding text: String) throws {
    try self.init(decoding: Data(text.utf8))
  }

  /// The frame's `type` text (``UnknownLiveStreamMessage/type`` for unknown frames).
  public var type: String? {
    switch self {
    case .fullSync: return "full_sync"
    case .update: return "update"
    case .serverOnline: return "server_online"
    case .serverOffline: return "server_offline"
    case .agentAuthorityChanged: return "agent_authority_changed"
    case .capabilitiesChanged: return "capabilities_changed"
    case .securityEvent: return "security_event"
    case .agentInfoUpdated: return "agent_info_updated"
    case .upgradeProgress: return "upgrade_progress"
    case .upgradeResult: return "upgrade_result"
    case .networkProbeUpdate: return "network_probe_update"
    case .tracerouteUpdate: return "traceroute_update"
    case .dockerUpdate: return "docker_update"
    case .dockerEvent: return "docker_event"
    case .dockerAvailabilityChanged: return "docker_availability_changed"
    case .serverIPChanged: return "server_ip_changed"
    case .blocklistChanged: return "blocklist_changed"
    case .firewallApplyStateChanged: return "firewall_apply_state_changed"
    case .ipQualityUpdate: return "ip_quality_update"
    case .alertEvent: return "alert_event"
    case .unknown(let message): return message.type
    }
  }

  private enum TypeKey: String, CodingKey { case type }

  /// Decodes a frame by its `type`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field when a known type has a bad body.
  public init(from decoder: any Decoder) throws {
    let type = try? decoder.container(keyedBy: TypeKey.self).decodeIfPresent(
      String.self, forKey: .type)
    switch type {
    case "full_sync": self = .fullSync(try FullSync(from: decoder))
    case "update": self = .update(try MetricsUpdate(from: decoder))
    case "server_online": self = .serverOnline(try ServerPresence(from: decoder))
    case "server_offline": self = .serverOffline(try ServerPresence(from: decoder))
    case "agent_authority_changed":
      self = .agentAuthorityChanged(try AgentAuthorityChange(from: decoder))
    case "capabilities_changed":
      self = .capabilitiesChanged(try CapabilitiesChange(from: decoder))
    case "security_event": self = .securityEvent(try LiveSecurityEvent(from: decoder))
    case "agent_info_updated": self = .agentInfoUpdated(try AgentInfoUpdate(from: decoder))
    case "upgrade_progress": self = .upgradeProgress(try UpgradeProgress(from: decoder))
    case "upgrade_result": self = .upgradeResult(try UpgradeResult(from: decoder))
    case "network_probe_update":
      self = .networkProbeUpdate(try NetworkProbeUpdate(from: decoder))
    case "traceroute_update": self = .tracerouteUpdate(try TracerouteUpdate(from: decoder))
    case "docker_update": self = .dockerUpdate(try DockerMessage(from: decoder))
    case "docker_event": self = .dockerEvent(try DockerMessage(from: decoder))
    case "docker_availability_changed":
      self = .dockerAvailabilityChanged(try DockerAvailabilityChange(from: decoder))
    case "server_ip_changed": self = .serverIPChanged(try ServerIPChange(from: decoder))
    case "blocklist_changed": self = .blocklistChanged(try BlocklistChange(from: decoder))
    case "firewall_apply_state_changed":
      self = .firewallApplyStateChanged(try FirewallApplyStateChange(from: decoder))
    case "ip_quality_update": self = .ipQualityUpdate(try IPQualityUpdate(from: decoder))
    case "alert_event": self = .alertEvent(try LiveAlertEvent(from: decoder))
    default:
      self = .unknown(UnknownLiveStreamMessage(type: type, raw: try JSONValue(from: decoder)))
    }
  }

  /// Encodes `type` first, then the payload; an unknown frame is written as it was kept.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    let payload: any Encodable
    switch self {
    case .unknown(let message):
      try message.raw.encode(to: encoder)
      return
    case .fullSync(let p): payload = p
    case .update(let p): payload = p
    case .serverOnline(let p), .serverOffline(let p): payload = p
    case .agentAuthorityChanged(let p): payload = p
    case .capabilitiesChanged(let p): payload = p
    case .securityEvent(let p): payload = p
    case .agentInfoUpdated(let p): payload = p
    case .upgradeProgress(let p): payload = p
    case .upgradeResult(let p): payload = p
    case .networkProbeUpdate(let p): payload = p
    case .tracerouteUpdate(let p): payload = p
    case .dockerUpdate(let p), .dockerEvent(let p): payload = p
    case .dockerAvailabilityChanged(let p): payload = p
    case .serverIPChanged(let p): payload = p
    case .blocklistChanged(let p): payload = p
    case .firewallApplyStateChanged(let p): payload = p
    case .ipQualityUpdate(let p): payload = p
    case .alertEvent(let p): payload = p
    }
    var c = encoder.container(keyedBy: TypeKey.self)
    try c.encodeUnlessNil(type, forKey: .type)
    try payload.encode(to: encoder)
  }
}

/// A `full_sync` frame: the whole fleet (Protocol/LiveStream.md §4). Every `full_sync` is an
/// authoritative replace, including the second one a lagging client receives, and an empty one.
public struct FullSync: Codable, Hashable, Sendable {
  /// Every server, `weight` descending then `created_at` descending.
  public var servers: [ServerStatus]
  /// Agent self-upgrade jobs.
  public var upgrades: [UpgradeJob]

  /// Creates a snapshot.
  /// - Parameters:
  ///   - servers: Servers.
  ///   - upgrades: Upgrade jobs.
  public init(servers: [ServerStatus], upgrades: [UpgradeJob] = []) {
    self.servers = servers
    self.upgrades = upgrades
  }

  private enum CodingKeys: String, CodingKey { case servers, upgrades }

  /// Decodes a snapshot; a missing `upgrades` reads as empty (`servers` is required), and a
  /// server entry without an `id` or `name` string is dropped (Protocol/LiveStream.md §7).
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    servers = try c.decodeDroppingAnonymous([ServerStatus].self, forKey: .servers)
    upgrades = try c.decodeIfPresent([UpgradeJob].self, forKey: .upgrades) ?? []
  }
}

/// An `update` frame (Protocol/LiveStream.md §6). Real servers send exactly one entry per frame;
/// more are accepted.
public struct MetricsUpdate: Codable, Hashable, Sendable {
  /// The partial entries to merge by id.
  public var servers: [LiveMetrics]

  /// Creates an update.
  /// - Parameter servers: Entries.
  public init(servers: [LiveMetrics]) { self.servers = servers }

  private enum CodingKeys: String, CodingKey { case servers }

  /// Decodes an update; an entry without an `id` or `name` string is dropped
  /// (Protocol/LiveStream.md §7).
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    servers = try c.decodeDroppingAnonymous([LiveMetrics].self, forKey: .servers)
  }
}

/// An `alert_event` frame: `{"type":"alert_event","alert_key":…,"status":…}`, the shape the
/// upstream iOS client and the design doc expect (Protocol/LiveStream.md §4). Current servers do
/// not send it.
public struct LiveAlertEvent: Codable, Hashable, Sendable {
  /// The v1 alert key, `rule_id:server_id`; open the detail with it.
  public var alertKey: String
  /// `firing` or `resolved` (unknown values survive).
  public var status: AlertStatus

  /// Creates an alert event.
  /// - Parameters:
  ///   - alertKey: The alert key.
  ///   - status: The status.
  public init(alertKey: String, status: AlertStatus) {
    self.alertKey = alertKey
    self.status = status
  }

  private enum CodingKeys: String, CodingKey {
    case alertKey = "alert_key"
    case status
  }
}

/// A live-stream frame of a type this version does not know, or without a usable `type`.
public struct UnknownLiveStreamMessage: Codable, Hashable, Sendable {
  /// The `type` text, `nil` when missing, `null` or not a string.
  public var type: String?
  /// The whole frame as JSON (member order is not guaranteed to be the wire order).
  public var raw: JSONValue

  /// Creates an unknown frame.
  /// - Parameters:
  ///   - type: The `type` text.
  ///   - raw: The whole frame.
  public init(type: String?, raw: JSONValue) {
    self.type = type
    self.raw = raw
  }
}

/// A frame a client may send on the live stream (Protocol/LiveStream.md §3). A mobile client needs
/// none.
///
/// ```swift
/// let frame = try WireJSON.encode(LiveStreamClientMessage.dockerSubscribe(serverID: id))
/// // {"type":"docker_subscribe","server_id":"…"}
/// ```
public enum LiveStreamClientMessage: Codable, Hashable, Sendable {
  /// Start receiving Docker stats and events for a server.
  case dockerSubscribe(serverID: String)
  /// Stop receiving them.
  case dockerUnsubscribe(serverID: String)

  private enum CodingKeys: String, CodingKey {
    case type
    case serverID = "server_id"
  }

  /// The server the message is about.
  public var serverID: String {
    switch self {
    case .dockerSubscribe(let id), .dockerUnsubscribe(let id): return id
    }
  }

  /// Decodes a client frame (what a server or simulator receives).
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for an unknown `type` (servers ignore such frames) or a missing
  ///   `server_id`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let type = try c.decode(String.self, forKey: .type)
    switch type {
    case "docker_subscribe":
      self = .dockerSubscribe(serverID: try c.decode(String.self, forKey: .serverID))
    case "docker_unsubscribe":
      self = .dockerUnsubscribe(serverID: try c.decode(String.self, forKey: .serverID))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: c, debugDescription: "unknown client message type")
    }
  }

  /// Encodes `{"type":…,"server_id":…}`.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .dockerSubscribe: try c.encode("docker_subscribe", forKey: .type)
    case .dockerUnsubscribe: try c.encode("docker_unsubscribe", forKey: .type)
    }
    try c.encode(serverID, forKey: .serverID)
  }
}
