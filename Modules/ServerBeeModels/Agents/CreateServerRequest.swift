/// The body of `POST /api/servers` (Protocol/Agents.md §2): a pending server and its first code.
/// Sending the same body with the same ``onboardingRequestID`` again is a replay, not a second
/// server. Absent optionals are left out of the JSON.
///
/// ```swift
/// let body = CreateServerRequest(
///   onboardingRequestID: UUID().uuidString, name: "db-1", groupID: nil, tags: ["prod"])
/// ```
public struct CreateServerRequest: Codable, Hashable, Sendable {
  /// The idempotency key: 1–128 characters, no whitespace.
  public var onboardingRequestID: String
  /// The server's name (trimmed by the server; must not be empty).
  public var name: String
  /// The group to put it in.
  public var groupID: String?
  /// Its tags (the rules of `PUT /api/servers/{id}/tags`).
  public var tags: [String]?
  /// The first code's lifetime, 1–86400 seconds (default 600).
  public var ttlSeconds: Int?

  /// Creates a body.
  /// - Parameters:
  ///   - onboardingRequestID: The idempotency key.
  ///   - name: The name.
  ///   - groupID: The group, if any.
  ///   - tags: The tags, if any.
  ///   - ttlSeconds: The first code's lifetime, if not the default.
  public init(
    onboardingRequestID: String, name: String, groupID: String? = nil, tags: [String]? = nil,
    ttlSeconds: Int? = nil
  ) {
    self.onboardingRequestID = onboardingRequestID
    self.name = name
    self.groupID = groupID
    self.tags = tags
    self.ttlSeconds = ttlSeconds
  }

  private enum CodingKeys: String, CodingKey {
    case onboardingRequestID = "onboarding_request_id"
    case name
    case groupID = "group_id"
    case tags
    case ttlSeconds = "ttl_secs"
  }

  /// Writes the keys that are set, in the documented order.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(onboardingRequestID, forKey: .onboardingRequestID)
    try container.encode(name, forKey: .name)
    if let groupID { try container.encode(groupID, forKey: .groupID) }
    if let tags { try container.encode(tags, forKey: .tags) }
    if let ttlSeconds { try container.encode(ttlSeconds, forKey: .ttlSeconds) }
  }
}

/// The answer of `POST /api/servers` (Protocol/Agents.md §2). A first call has ``enrollment``
/// (the plaintext code, once); a replay has ``replayed`` `true`, no enrollment, and the open
/// offer's prefix if one is left.
///
/// ```swift
/// let created = try await api.createServer(body)
/// if let issue = created.enrollment { print(issue.code) } else { print("replayed") }
/// ```
public struct CreateServerResponse: Codable, Hashable, Sendable {
  /// The new server's id.
  public var serverID: String
  /// Whether this answered a repeated request.
  public var replayed: Bool
  /// The first code, on the first answer only.
  public var enrollment: EnrollmentIssue?
  /// On a replay, the open offer if there is one.
  public var outstandingOffer: OutstandingOffer?

  /// Creates an answer.
  /// - Parameters:
  ///   - serverID: The server.
  ///   - replayed: Whether it was a replay.
  ///   - enrollment: The first code, if shown.
  ///   - outstandingOffer: The open offer on a replay.
  public init(
    serverID: String, replayed: Bool, enrollment: EnrollmentIssue?,
    outstandingOffer: OutstandingOffer?
  ) {
    self.serverID = serverID
    self.replayed = replayed
    self.enrollment = enrollment
    self.outstandingOffer = outstandingOffer
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case replayed, enrollment
    case outstandingOffer = "outstanding_offer"
  }

  /// Writes every key, `null` included, as the server does.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(serverID, forKey: .serverID)
    try container.encode(replayed, forKey: .replayed)
    try container.encode(enrollment, forKey: .enrollment)
    try container.encode(outstandingOffer, forKey: .outstandingOffer)
  }
}
