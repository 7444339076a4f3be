/// Whether a streaming or AI service can be reached from a server's IP (Protocol/AppRoutes.md
/// §9); values a newer server adds still decode.
public struct UnlockStatus: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a status from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Fully available.
  public static let unlocked: Self = "unlocked"
  /// Available with limits (another region's catalogue).
  public static let restricted: Self = "restricted"
  /// Refused.
  public static let blocked: Self = "blocked"
  /// The probe failed.
  public static let failed: Self = "failed"
  /// Not offered where the IP is.
  public static let unsupported: Self = "unsupported"
}

/// One service's result on one server (Protocol/AppRoutes.md §9).
///
/// ```swift
/// for result in data.unlockResults { print(result.serviceID, result.status) }
/// ```
public struct UnlockResult: Codable, Hashable, Sendable, Identifiable {
  /// Result id.
  public var id: String
  /// The server.
  public var serverID: String
  /// The service (``UnlockService/id``).
  public var serviceID: String
  /// The outcome.
  public var status: UnlockStatus
  /// The region the service saw, if it said.
  public var region: String?
  /// Round trip in milliseconds, if measured.
  public var latencyMs: Int?
  /// A note from the probe.
  public var detail: String?
  /// When it was checked (`+00:00` form).
  public var checkedAt: RFC3339Timestamp

  private enum CodingKeys: String, CodingKey {
    case id
    case serverID = "server_id"
    case serviceID = "service_id"
    case status, region
    case latencyMs = "latency_ms"
    case detail
    case checkedAt = "checked_at"
  }
}

/// What the reputation sources say about a server's public IP (Protocol/AppRoutes.md §9).
public struct IPQualityReport: Codable, Hashable, Sendable {
  /// The address.
  public var ip: String
  /// Autonomous system number.
  public var asn: String?
  /// Its organisation.
  public var asOrg: String?
  /// Country code.
  public var country: String?
  /// Region.
  public var region: String?
  /// City.
  public var city: String?
  /// `datacenter`, `residential`, …
  public var ipType: String
  /// Flagged as a proxy.
  public var isProxy: Bool
  /// Flagged as a VPN.
  public var isVPN: Bool
  /// A hosting provider's address.
  public var isHosting: Bool
  /// A Tor exit.
  public var isTor: Bool
  /// Reported for abuse.
  public var isAbuser: Bool
  /// A mobile network's address.
  public var isMobile: Bool
  /// Risk score, if known.
  public var riskScore: Int?
  /// `low`, `medium`, `high`, …
  public var riskLevel: String
  /// The AS's abuse score, if known.
  public var asnAbuserScore: Int?
  /// Where to report abuse.
  public var abuseEmail: String?
  /// When it was checked (`Z` form).
  public var checkedAt: RFC3339Timestamp

  private enum CodingKeys: String, CodingKey {
    case ip, asn
    case asOrg = "as_org"
    case country, region, city
    case ipType = "ip_type"
    case isProxy = "is_proxy"
    case isVPN = "is_vpn"
    case isHosting = "is_hosting"
    case isTor = "is_tor"
    case isAbuser = "is_abuser"
    case isMobile = "is_mobile"
    case riskScore = "risk_score"
    case riskLevel = "risk_level"
    case asnAbuserScore = "asn_abuser_score"
    case abuseEmail = "abuse_email"
    case checkedAt = "checked_at"
  }
}

/// One server's IP quality (Protocol/AppRoutes.md §9): the service results and the report, `nil`
/// until the first check.
///
/// ```swift
/// let data = try await api.ipQuality(serverID: server.id)
/// print(data.ipQuality?.riskLevel ?? "not checked yet")
/// ```
public struct ServerIPQuality: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// One result per checked service.
  public var unlockResults: [UnlockResult]
  /// The reputation report.
  public var ipQuality: IPQualityReport?

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case unlockResults = "unlock_results"
    case ipQuality = "ip_quality"
  }
}

/// A service the agents probe (Protocol/AppRoutes.md §9): built in, or added by an admin.
public struct UnlockService: Codable, Hashable, Sendable, Identifiable {
  /// Service id.
  public var id: String
  /// Stable key (`netflix`).
  public var key: String
  /// Display name.
  public var name: String
  /// Category (`streaming`, `ai`, …).
  public var category: String
  /// Sort weight within the category, higher first.
  public var popularity: Int
  /// Shipped with the server (cannot be deleted).
  public var isBuiltin: Bool
  /// Whether agents probe it.
  public var enabled: Bool
  /// JSON text of the detector, if any.
  public var detector: String?
  /// JSON text of a custom request, if any.
  public var request: String?
  /// JSON text of a custom service's rules, if any.
  public var rules: String?
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp
  /// Last change (`Z` form).
  public var updatedAt: RFC3339Timestamp

  private enum CodingKeys: String, CodingKey {
    case id, key, name, category, popularity
    case isBuiltin = "is_builtin"
    case enabled, detector, request, rules
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }
}

/// `GET`/`PUT /api/ip-quality/settings` (Protocol/AppRoutes.md §9).
public struct IPQualitySettings: Codable, Hashable, Sendable {
  /// Hours between automatic checks, 1–168 (12 by default).
  public var checkIntervalHours: Int

  /// Creates settings.
  /// - Parameter checkIntervalHours: Hours between checks.
  public init(checkIntervalHours: Int) { self.checkIntervalHours = checkIntervalHours }

  private enum CodingKeys: String, CodingKey {
    case checkIntervalHours = "check_interval_hours"
  }
}

/// The body of `PUT /api/ip-quality/services/{id}` as this SDK sends it: only `enabled`, the one
/// key a built-in service takes (Protocol/AppRoutes.md §9).
public struct UnlockServiceUpdate: Codable, Hashable, Sendable {
  /// Whether agents probe it.
  public var enabled: Bool

  /// Creates a change.
  /// - Parameter enabled: Probe it or not.
  public init(enabled: Bool) { self.enabled = enabled }
}
