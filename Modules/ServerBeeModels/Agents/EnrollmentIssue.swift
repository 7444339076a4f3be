/// A freshly minted enrollment code (Protocol/Agents.md §1): the plaintext `code` is in this
/// answer only, and every later view of the offer shows ``codePrefix`` alone (an
/// ``OutstandingOffer``).
///
/// ```swift
/// let issue = try await api.issueEnrollmentCode(serverID: id)
/// print("give the agent this code once: \(issue.code)")
/// ```
public struct EnrollmentIssue: Codable, Hashable, Sendable {
  /// The offer id (UUID), named by replace and revoke.
  public var id: String
  /// The plaintext enrollment code (43 base64url characters): shown once, never recoverable.
  public var code: String
  /// The code's first 8 characters, what every later view shows.
  public var codePrefix: String
  /// When the code lapses (`+00:00` form).
  public var expiresAt: RFC3339Timestamp

  /// Creates an issue.
  /// - Parameters:
  ///   - id: The offer id.
  ///   - code: The plaintext code.
  ///   - codePrefix: Its first 8 characters.
  ///   - expiresAt: When it lapses.
  public init(id: String, code: String, codePrefix: String, expiresAt: RFC3339Timestamp) {
    self.id = id
    self.code = code
    self.codePrefix = codePrefix
    self.expiresAt = expiresAt
  }

  private enum CodingKeys: String, CodingKey {
    case id, code
    case codePrefix = "code_prefix"
    case expiresAt = "expires_at"
  }
}

/// The answer of issuing, replacing or re-enrolling a code: `{enrollment}` (Protocol/Agents.md
/// §3–§5).
///
/// ```swift
/// let answer = try await api.send(RouteCatalogue.Agents.issueEnrollment, PathID(id), .init())
/// print(answer.enrollment.codePrefix)
/// ```
public struct EnrollmentOfferResponse: Codable, Hashable, Sendable {
  /// The new code, shown once.
  public var enrollment: EnrollmentIssue

  /// Wraps an issue.
  /// - Parameter enrollment: The new code.
  public init(enrollment: EnrollmentIssue) { self.enrollment = enrollment }
}

/// The body of issuing a code: `ttl_secs` when set, else `{}` (the server needs a JSON object;
/// Protocol/Agents.md §3).
///
/// ```swift
/// let body = EnrollmentOfferRequest(ttlSeconds: 3600)  // {"ttl_secs":3600}
/// ```
public struct EnrollmentOfferRequest: Codable, Hashable, Sendable {
  /// How long the code lives, 1–86400 seconds; `nil` for the server's 600.
  public var ttlSeconds: Int?

  /// Creates a body.
  /// - Parameter ttlSeconds: The code's lifetime, or `nil` for the default.
  public init(ttlSeconds: Int? = nil) { self.ttlSeconds = ttlSeconds }

  private enum CodingKeys: String, CodingKey { case ttlSeconds = "ttl_secs" }

  /// Writes `ttl_secs` only when set: `{}` otherwise.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if let ttlSeconds { try container.encode(ttlSeconds, forKey: .ttlSeconds) }
  }
}

/// The answer of revoking a code: `{offer_id, already_revoked}` (Protocol/Agents.md §6).
///
/// ```swift
/// let answer = try await api.revokeEnrollmentCode(serverID: id, offerID: offer.id)
/// if answer.alreadyRevoked { print("it was revoked before") }
/// ```
public struct RevokeOfferResponse: Codable, Hashable, Sendable {
  /// The offer revoked.
  public var offerID: String
  /// Whether it had been revoked already (revoking twice is fine).
  public var alreadyRevoked: Bool

  /// Creates an answer.
  /// - Parameters:
  ///   - offerID: The offer.
  ///   - alreadyRevoked: Whether it was revoked already.
  public init(offerID: String, alreadyRevoked: Bool) {
    self.offerID = offerID
    self.alreadyRevoked = alreadyRevoked
  }

  private enum CodingKeys: String, CodingKey {
    case offerID = "offer_id"
    case alreadyRevoked = "already_revoked"
  }
}
