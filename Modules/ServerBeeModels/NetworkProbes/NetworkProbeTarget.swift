/// A network probe target (Protocol/AppRoutes.md §6): a host every assigned server's agent
/// probes by ICMP, TCP or HTTP, either a built-in preset or a custom target an admin added.
///
/// The server writes targets in two shapes (Protocol/AppRoutes.md §2.6), and both decode into
/// this type:
/// - the lists (`GET /api/network-probes/targets`, `GET /api/servers/{id}/network-probes/targets`)
///   send ``source`` and ``sourceName`` and `+00:00` times, `null` for presets;
/// - create and update send the stored row: no `source` or `source_name` keys, `Z` times.
///
/// ```swift
/// for target in try await api.networkProbeTargets() {
///   print(target.name, target.target, target.isPreset ? "(built in)" : "")
/// }
/// ```
public struct NetworkProbeTarget: Codable, Hashable, Sendable, Identifiable {
  /// Target id.
  public var id: String
  /// Display name.
  public var name: String
  /// Who runs the host (a carrier, a cloud).
  public var provider: String
  /// Where it is.
  public var location: String
  /// What is probed: a host (ICMP), `host:port` (TCP) or a URL (HTTP).
  public var target: String
  /// How it is probed: `icmp`, `tcp` or `http`.
  public var probeType: PingProbeType
  /// `preset:<group>` for a built-in preset, `nil` for a custom target or when the answer was
  /// a stored row (create, update), which has no such key.
  public var source: String?
  /// The preset group's display name, if any.
  public var sourceName: String?
  /// When it was added; `nil` for presets.
  public var createdAt: RFC3339Timestamp?
  /// When it last changed; `nil` for presets.
  public var updatedAt: RFC3339Timestamp?

  /// Whether it is a built-in preset, which cannot be changed or deleted. Known only from a
  /// list's answer (``source``); a stored row from create or update is always custom.
  public var isPreset: Bool { source?.hasPrefix("preset:") == true }

  /// Creates a value.
  /// - Parameters:
  ///   - id: Target id.
  ///   - name: Name.
  ///   - provider: Provider.
  ///   - location: Location.
  ///   - target: Host, `host:port` or URL.
  ///   - probeType: Probe kind.
  ///   - source: `preset:<group>` or `nil`.
  ///   - sourceName: The preset group's name.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  public init(
    id: String, name: String, provider: String, location: String, target: String,
    probeType: PingProbeType, source: String? = nil, sourceName: String? = nil,
    createdAt: RFC3339Timestamp? = nil, updatedAt: RFC3339Timestamp? = nil
  ) {
    self.id = id
    self.name = name
    self.provider = provider
    self.location = location
    self.target = target
    self.probeType = probeType
    self.source = source
    self.sourceName = sourceName
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, provider, location, target
    case probeType = "probe_type"
    case source
    case sourceName = "source_name"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }

  /// Decodes either shape: `source`, `source_name` and the times may be missing or `null`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when a required key is missing or of the wrong type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    name = try c.decode(String.self, forKey: .name)
    provider = try c.decode(String.self, forKey: .provider)
    location = try c.decode(String.self, forKey: .location)
    target = try c.decode(String.self, forKey: .target)
    probeType = try c.decode(PingProbeType.self, forKey: .probeType)
    source = try c.decodeIfPresent(String.self, forKey: .source)
    sourceName = try c.decodeIfPresent(String.self, forKey: .sourceName)
    createdAt = try c.decodeIfPresent(RFC3339Timestamp.self, forKey: .createdAt)
    updatedAt = try c.decodeIfPresent(RFC3339Timestamp.self, forKey: .updatedAt)
  }

  /// Encodes the list's shape: every key, `null` where there is no value.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(provider, forKey: .provider)
    try c.encode(location, forKey: .location)
    try c.encode(target, forKey: .target)
    try c.encode(probeType, forKey: .probeType)
    try c.encode(source, forKey: .source)
    try c.encode(sourceName, forKey: .sourceName)
    try c.encode(createdAt, forKey: .createdAt)
    try c.encode(updatedAt, forKey: .updatedAt)
  }
}

/// The body of `POST /api/network-probes/targets` (every member required) and of
/// `PUT /api/network-probes/targets/{id}` (only the members set change). Unset members are left
/// out of the JSON; `null` is never sent.
///
/// ```swift
/// let made = try await api.createNetworkProbeTarget(
///   NetworkProbeTargetRequest(
///     name: "Office", provider: "ISP", location: "Berlin", target: "office.example.com",
///     probeType: .icmp))
/// _ = try await api.updateNetworkProbeTarget(id: made.id, NetworkProbeTargetRequest(name: "HQ"))
/// ```
public struct NetworkProbeTargetRequest: Codable, Hashable, Sendable {
  /// Display name.
  public var name: String?
  /// Provider.
  public var provider: String?
  /// Location.
  public var location: String?
  /// Host, `host:port` or URL; a literal loopback, link-local, metadata, NAT64, broadcast or
  /// `0.0.0.0/8` address is refused.
  public var target: String?
  /// `icmp`, `tcp` or `http`.
  public var probeType: PingProbeType?

  /// Creates a body with the members to send.
  /// - Parameters:
  ///   - name: Name.
  ///   - provider: Provider.
  ///   - location: Location.
  ///   - target: Host, `host:port` or URL.
  ///   - probeType: Probe kind.
  public init(
    name: String? = nil, provider: String? = nil, location: String? = nil,
    target: String? = nil, probeType: PingProbeType? = nil
  ) {
    self.name = name
    self.provider = provider
    self.location = location
    self.target = target
    self.probeType = probeType
  }

  /// Whether every member is set, as creating a target requires.
  public var isComplete: Bool {
    name != nil && provider != nil && location != nil && target != nil && probeType != nil
  }

  private enum CodingKeys: String, CodingKey {
    case name, provider, location, target
    case probeType = "probe_type"
  }

  /// Encodes the set members in wire order, leaving out the unset ones.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeUnlessNil(name, forKey: .name)
    try c.encodeUnlessNil(provider, forKey: .provider)
    try c.encodeUnlessNil(location, forKey: .location)
    try c.encodeUnlessNil(target, forKey: .target)
    try c.encodeUnlessNil(probeType, forKey: .probeType)
  }
}

/// The fleet's probe settings (Protocol/AppRoutes.md §6): `GET /api/network-probes/setting`
/// for any member, and the body and echo of `PUT` (admins; every member required).
///
/// ```swift
/// var setting = try await api.networkProbeSetting()
/// setting.interval = 120
/// _ = try await api.updateNetworkProbeSetting(setting)
/// ```
public struct NetworkProbeSetting: Codable, Hashable, Sendable {
  /// Seconds between probes, 30 to 600 (default 60).
  public var interval: Int
  /// Packets per probe, 5 to 20 (default 10).
  public var packetCount: Int
  /// The targets given to servers created from now on.
  public var defaultTargetIDs: [String]

  /// The accepted ``interval``s.
  public static let intervalRange = 30...600
  /// The accepted ``packetCount``s.
  public static let packetCountRange = 5...20

  /// Creates a value.
  /// - Parameters:
  ///   - interval: Seconds between probes.
  ///   - packetCount: Packets per probe.
  ///   - defaultTargetIDs: Targets for new servers.
  public init(interval: Int, packetCount: Int, defaultTargetIDs: [String]) {
    self.interval = interval
    self.packetCount = packetCount
    self.defaultTargetIDs = defaultTargetIDs
  }

  private enum CodingKeys: String, CodingKey {
    case interval
    case packetCount = "packet_count"
    case defaultTargetIDs = "default_target_ids"
  }
}
