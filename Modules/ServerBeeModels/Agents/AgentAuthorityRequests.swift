/// The body of re-enrolment: `{mode, ttl_secs?}` (Protocol/Agents.md §5).
///
/// ```swift
/// let body = ReEnrollmentRequest(mode: .emergency)  // {"mode":"emergency"}
/// ```
public struct ReEnrollmentRequest: Codable, Hashable, Sendable {
  /// How the running agent is treated.
  public var mode: ReEnrollmentMode
  /// The new code's lifetime, 1–86400 seconds (default 600).
  public var ttlSeconds: Int?

  /// Creates a body.
  /// - Parameters:
  ///   - mode: Graceful or emergency.
  ///   - ttlSeconds: The code's lifetime, if not the default.
  public init(mode: ReEnrollmentMode, ttlSeconds: Int? = nil) {
    self.mode = mode
    self.ttlSeconds = ttlSeconds
  }

  private enum CodingKeys: String, CodingKey {
    case mode
    case ttlSeconds = "ttl_secs"
  }

  /// Writes `mode`, then `ttl_secs` only when set.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(mode, forKey: .mode)
    if let ttlSeconds { try container.encode(ttlSeconds, forKey: .ttlSeconds) }
  }
}

/// How re-enrolment treats the running agent (unknown values survive).
public struct ReEnrollmentMode: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a mode.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The agent stays connected and claimed until the new code is used.
  public static let graceful: Self = "graceful"
  /// The agent is cut off at once, its token cleared, the server unclaimed.
  public static let emergency: Self = "emergency"
}

/// The answer of revoking an agent's authority: `{server_id, changed}` (Protocol/Agents.md §7).
///
/// ```swift
/// let answer = try await api.revokeAgentAuthority(serverID: id)
/// print(answer.changed ? "revoked" : "nothing to revoke")
/// ```
public struct RevokeAuthorityResponse: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// `false` when it was already unclaimed with no open offer.
  public var changed: Bool

  /// Creates an answer.
  /// - Parameters:
  ///   - serverID: The server.
  ///   - changed: Whether anything changed.
  public init(serverID: String, changed: Bool) {
    self.serverID = serverID
    self.changed = changed
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case changed
  }
}

/// The newest agent release: `{version, released_at, error}` (Protocol/Agents.md §8). Always a
/// 200; a failed lookup has ``error`` and no version.
///
/// ```swift
/// let latest = try await api.latestAgentVersion()
/// print(latest.version ?? "unknown: \(latest.error ?? "")")
/// ```
public struct LatestAgentVersion: Codable, Hashable, Sendable {
  /// The version without a leading `v`, e.g. `1.4.2`.
  public var version: String?
  /// When it was released (`Z` form).
  public var releasedAt: RFC3339Timestamp?
  /// Why the lookup failed.
  public var error: String?

  /// Creates an answer.
  /// - Parameters:
  ///   - version: The version.
  ///   - releasedAt: Its release time.
  ///   - error: The lookup's failure.
  public init(version: String?, releasedAt: RFC3339Timestamp?, error: String?) {
    self.version = version
    self.releasedAt = releasedAt
    self.error = error
  }

  private enum CodingKeys: String, CodingKey {
    case version
    case releasedAt = "released_at"
    case error
  }

  /// Writes every key, `null` included, as the server does.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(releasedAt, forKey: .releasedAt)
    try container.encode(error, forKey: .error)
  }
}
