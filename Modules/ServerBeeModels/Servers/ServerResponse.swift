/// A server's configuration from `GET /api/servers` and `GET /api/servers/{id}`
/// (Protocol/Servers.md §1).
///
/// This is configuration only: no `online` flag and no live metrics. Live state comes from the
/// stream (``ServerStatus``); merge the two by ``id``. Properties are in wire order.
///
/// ```swift
/// let servers = try APIResponse<[ServerResponse]>.payload(status: status, body: body)
/// let canExec = servers[0].resolvedCapabilities.contains(.exec)
/// ```
public struct ServerResponse: Codable, Hashable, Sendable, Identifiable {
  /// Server id (UUID).
  public var id: String
  /// Display name.
  public var name: String
  /// CPU model name.
  public var cpuName: String?
  /// CPU core count.
  public var cpuCores: Int?
  /// CPU architecture.
  public var cpuArch: String?
  /// Operating system.
  public var os: String?
  /// Kernel version.
  public var kernelVersion: String?
  /// Total memory, bytes.
  public var memTotal: Int64?
  /// Total swap, bytes.
  public var swapTotal: Int64?
  /// Total disk, bytes.
  public var diskTotal: Int64?
  /// IPv4 address.
  public var ipv4: String?
  /// IPv6 address.
  public var ipv6: String?
  /// Region text.
  public var region: String?
  /// ISO country code.
  public var countryCode: String?
  /// Whether an admin pinned the geo fields by hand.
  public var geoManual: Bool
  /// Virtualization technology.
  public var virtualization: String?
  /// Agent version.
  public var agentVersion: String?
  /// Server group id.
  public var groupID: String?
  /// Sort key (descending).
  public var weight: Int
  /// Whether the server is hidden from public pages.
  public var hidden: Bool
  /// Private remark.
  public var remark: String?
  /// Public remark.
  public var publicRemark: String?
  /// Price.
  public var price: Double?
  /// Billing cycle text.
  public var billingCycle: String?
  /// Currency text.
  public var currency: String?
  /// Expiry (`Z` form).
  public var expiredAt: RFC3339Timestamp?
  /// Traffic allowance, bytes.
  public var trafficLimit: Int64?
  /// How the allowance is counted.
  public var trafficLimitType: String?
  /// Day of month the billing period starts.
  public var billingStartDay: Int?
  /// The configured capability mask.
  public var capabilities: Capabilities
  /// The agent's own mask; `nil` when offline or not reported.
  public var agentLocalCapabilities: Capabilities?
  /// The mask in force; `nil` when offline or not reported.
  public var effectiveCapabilities: Capabilities?
  /// Temporary grants (empty when offline).
  public var temporary: [TemporaryCapabilityGrant]
  /// Agent protocol version.
  public var protocolVersion: Int
  /// Agent features.
  public var features: [String]
  /// Enrollment state.
  public var agentAuthority: AgentAuthority
  /// Whether the agent is claimed.
  public var hasToken: Bool
  /// Pending enrollment offer.
  public var outstandingEnrollment: OutstandingOffer?
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// Last change (`Z` form).
  public var updatedAt: RFC3339Timestamp

  /// Creates a server configuration.
  /// - Parameters:
  ///   - id: Server id.
  ///   - name: Display name.
  ///   - cpuName: CPU model.
  ///   - cpuCores: Core count.
  ///   - cpuArch: Architecture.
  ///   - os: Operating system.
  ///   - kernelVersion: Kernel version.
  ///   - memTotal: Bytes.
  ///   - swapTotal: Bytes.
  ///   - diskTotal: Bytes.
  ///   - ipv4: IPv4 address.
  ///   - ipv6: IPv6 address.
  ///   - region: Region.
  ///   - countryCode: Country code.
  ///   - geoManual: Geo pinned by hand.
  ///   - virtualization: Virtualization.
  ///   - agentVersion: Agent version.
  ///   - groupID: Group id.
  ///   - weight: Sort key.
  ///   - hidden: Hidden flag.
  ///   - remark: Private remark.
  ///   - publicRemark: Public remark.
  ///   - price: Price.
  ///   - billingCycle: Billing cycle.
  ///   - currency: Currency.
  ///   - expiredAt: Expiry.
  ///   - trafficLimit: Bytes.
  ///   - trafficLimitType: Limit type.
  ///   - billingStartDay: Billing start day.
  ///   - capabilities: Configured mask.
  ///   - agentLocalCapabilities: Agent mask.
  ///   - effectiveCapabilities: Mask in force.
  ///   - temporary: Temporary grants.
  ///   - protocolVersion: Protocol version.
  ///   - features: Agent features.
  ///   - agentAuthority: Enrollment state.
  ///   - hasToken: Claimed flag.
  ///   - outstandingEnrollment: Pending offer.
  ///   - createdAt: Creation time.
  ///   - updatedAt: Last change.
  public init(
    id: String, name: String, cpuName: String? = nil, cpuCores: Int? = nil,
    cpuArch: String? = nil, os: String? = nil, kernelVersion: String? = nil,
    memTotal: Int64? = nil, swapTotal: Int64? = nil, diskTotal: Int64? = nil,
    ipv4: String? = nil, ipv6: String? = nil, region: String? = nil, countryCode: String? = nil,
    geoManual: Bool = false, virtualization: String? = nil, agentVersion: String? = nil,
    groupID: String? = nil, weight: Int = 0, hidden: Bool = false, remark: String? = nil,
    publicRemark: String? = nil, price: Double? = nil, billingCycle: String? = nil,
    currency: String? = nil, expiredAt: RFC3339Timestamp? = nil, trafficLimit: Int64? = nil,
    trafficLimitType: String? = nil, billingStartDay: Int? = nil,
    capabilities: Capabilities = .defaultMask, agentLocalCapabilities: Capabilities? = nil,
    effectiveCapabilities: Capabilities? = nil, temporary: [TemporaryCapabilityGrant] = [],
    protocolVersion: Int = 0, features: [String] = [],
    agentAuthority: AgentAuthority = AgentAuthority(status: .unclaimed), hasToken: Bool = false,
    outstandingEnrollment: OutstandingOffer? = nil, createdAt: RFC3339Timestamp,
    updatedAt: RFC3339Timestamp
  ) {
    self.id = id
    self.name = name
    self.cpuName = cpuName
    self.cpuCores = cpuCores
    self.cpuArch = cpuArch
    self.os = os
    self.kernelVersion = kernelVersion
    self.memTotal = memTotal
    self.swapTotal = swapTotal
    self.diskTotal = diskTotal
    self.ipv4 = ipv4
    self.ipv6 = ipv6
    self.region = region
    self.countryCode = countryCode
    self.geoManual = geoManual
    self.virtualization = virtualization
    self.agentVersion = agentVersion
    self.groupID = groupID
    self.weight = weight
    self.hidden = hidden
    self.remark = remark
    self.publicRemark = publicRemark
    self.price = price
    self.billingCycle = billingCycle
    self.currency = currency
    self.expiredAt = expiredAt
    self.trafficLimit = trafficLimit
    self.trafficLimitType = trafficLimitType
    self.billingStartDay = billingStartDay
    self.capabilities = capabilities
    self.agentLocalCapabilities = agentLocalCapabilities
    self.effectiveCapabilities = effectiveCapabilities
    self.temporary = temporary
    self.protocolVersion = protocolVersion
    self.features = features
    self.agentAuthority = agentAuthority
    self.hasToken = hasToken
    self.outstandingEnrollment = outstandingEnrollment
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// The mask a UI should gate on; see ``Capabilities/resolved(configured:agentLocal:effective:)``.
  public var resolvedCapabilities: Capabilities {
    .resolved(
      configured: capabilities, agentLocal: agentLocalCapabilities, effective: effectiveCapabilities
    )
  }

  /// Decodes tolerantly, as the upstream iOS client does (Protocol/LiveStream.md §7): only `id`,
  /// `name`, `created_at` and `updated_at` are required; every other column may be absent (an
  /// older or newer server) and takes its documented default, and the legacy aliases
  /// `memory_total` and `country` are read (the alias wins when both are present).
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when a required key is missing or a present value has the wrong
  ///   type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let aliases = try decoder.container(keyedBy: AliasKeys.self)
    func value<T: Decodable>(_ key: CodingKeys) throws -> T? {
      try c.decodeIfPresent(T.self, forKey: key)
    }
    self.init(
      id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
      cpuName: try value(.cpuName), cpuCores: try value(.cpuCores), cpuArch: try value(.cpuArch),
      os: try value(.os), kernelVersion: try value(.kernelVersion),
      memTotal: try aliases.decodeIfPresent(Int64.self, forKey: .memoryTotal)
        ?? value(.memTotal),
      swapTotal: try value(.swapTotal), diskTotal: try value(.diskTotal), ipv4: try value(.ipv4),
      ipv6: try value(.ipv6), region: try value(.region),
      countryCode: try aliases.decodeIfPresent(String.self, forKey: .country)
        ?? value(.countryCode),
      geoManual: try value(.geoManual) ?? false, virtualization: try value(.virtualization),
      agentVersion: try value(.agentVersion), groupID: try value(.groupID),
      weight: try value(.weight) ?? 0, hidden: try value(.hidden) ?? false,
      remark: try value(.remark), publicRemark: try value(.publicRemark), price: try value(.price),
      billingCycle: try value(.billingCycle), currency: try value(.currency),
      expiredAt: try value(.expiredAt), trafficLimit: try value(.trafficLimit),
      trafficLimitType: try value(.trafficLimitType), billingStartDay: try value(.billingStartDay),
      capabilities: try value(.capabilities) ?? .defaultMask,
      agentLocalCapabilities: try value(.agentLocalCapabilities),
      effectiveCapabilities: try value(.effectiveCapabilities),
      temporary: try value(.temporary) ?? [], protocolVersion: try value(.protocolVersion) ?? 0,
      features: try value(.features) ?? [],
      agentAuthority: try value(.agentAuthority) ?? AgentAuthority(status: .unclaimed),
      hasToken: try value(.hasToken) ?? false,
      outstandingEnrollment: try value(.outstandingEnrollment),
      createdAt: try c.decode(RFC3339Timestamp.self, forKey: .createdAt),
      updatedAt: try c.decode(RFC3339Timestamp.self, forKey: .updatedAt))
  }

  private enum AliasKeys: String, CodingKey {
    case memoryTotal = "memory_total"
    case country
  }

  private enum CodingKeys: String, CodingKey {
    case id, name
    case cpuName = "cpu_name"
    case cpuCores = "cpu_cores"
    case cpuArch = "cpu_arch"
    case os
    case kernelVersion = "kernel_version"
    case memTotal = "mem_total"
    case swapTotal = "swap_total"
    case diskTotal = "disk_total"
    case ipv4, ipv6, region
    case countryCode = "country_code"
    case geoManual = "geo_manual"
    case virtualization
    case agentVersion = "agent_version"
    case groupID = "group_id"
    case weight, hidden, remark
    case publicRemark = "public_remark"
    case price
    case billingCycle = "billing_cycle"
    case currency
    case expiredAt = "expired_at"
    case trafficLimit = "traffic_limit"
    case trafficLimitType = "traffic_limit_type"
    case billingStartDay = "billing_start_day"
    case capabilities
    case agentLocalCapabilities = "agent_local_capabilities"
    case effectiveCapabilities = "effective_capabilities"
    case temporary
    case protocolVersion = "protocol_version"
    case features
    case agentAuthority = "agent_authority"
    case hasToken = "has_token"
    case outstandingEnrollment = "outstanding_enrollment"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }
}
