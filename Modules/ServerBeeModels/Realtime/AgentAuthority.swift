/// Whether a server's agent is enrolled, and the pending enrollment offer if there is one
/// (`agent_authority` in Protocol/LiveStream.md §4, §5, Protocol/Servers.md §1).
public struct AgentAuthority: Codable, Hashable, Sendable {
  /// `claimed` or `unclaimed`.
  public var status: AgentAuthorityStatus
  /// The pending enrollment offer, `null` when there is none.
  public var outstandingOffer: OutstandingOffer?

  /// Creates an authority object.
  /// - Parameters:
  ///   - status: The enrollment status.
  ///   - outstandingOffer: The pending offer, if any.
  public init(status: AgentAuthorityStatus, outstandingOffer: OutstandingOffer? = nil) {
    self.status = status
    self.outstandingOffer = outstandingOffer
  }

  private enum CodingKeys: String, CodingKey {
    case status
    case outstandingOffer = "outstanding_offer"
  }
}

/// The enrollment status of an agent (unknown values survive).
public struct AgentAuthorityStatus: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a status.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The agent holds a token (`has_token` is `true`).
  public static let claimed: Self = "claimed"
  /// No agent token yet.
  public static let unclaimed: Self = "unclaimed"
}

/// A pending enrollment offer (`outstanding_offer` / `outstanding_enrollment`): only a code
/// prefix, never the code itself. Its times come in the `+00:00` form (Protocol/README.md §7).
public struct OutstandingOffer: Codable, Hashable, Sendable {
  /// The offer id (UUID).
  public var id: String
  /// The first characters of the enrollment code, for example `sb_enr_6c3u`.
  public var codePrefix: String
  /// When the offer lapses.
  public var expiresAt: RFC3339Timestamp
  /// When the offer was made.
  public var createdAt: RFC3339Timestamp

  /// Creates an offer.
  /// - Parameters:
  ///   - id: The offer id.
  ///   - codePrefix: The code prefix.
  ///   - expiresAt: Expiry.
  ///   - createdAt: Creation time.
  public init(
    id: String, codePrefix: String, expiresAt: RFC3339Timestamp, createdAt: RFC3339Timestamp
  ) {
    self.id = id
    self.codePrefix = codePrefix
    self.expiresAt = expiresAt
    self.createdAt = createdAt
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case codePrefix = "code_prefix"
    case expiresAt = "expires_at"
    case createdAt = "created_at"
  }
}
