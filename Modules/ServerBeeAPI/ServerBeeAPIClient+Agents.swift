import Foundation
public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `POST /api/servers`: adds a pending server and mints its first enrollment code
  /// (Protocol/Agents.md §2). Sending the same body with the same request id again is a replay:
  /// `replayed` is `true` and the code is not shown again.
  ///
  /// ```swift
  /// let created = try await api.createServer(
  ///   CreateServerRequest(onboardingRequestID: UUID().uuidString, name: "db-1"))
  /// print(created.enrollment?.code ?? "replayed: the code was shown before")
  /// ```
  /// - Parameter request: The server to add.
  /// - Returns: Its id, and the code on a first answer.
  /// - Throws: ``ServerBeeAPIError`` (a 409 `ONBOARDING_IDEMPOTENCY_CONFLICT` when the request
  ///   id was used with another body), or `CancellationError`.
  public func createServer(_ request: CreateServerRequest) async throws -> CreateServerResponse {
    try Self.requireNonEmpty(request.onboardingRequestID, "the onboarding request id")
    return try await send(RouteCatalogue.Agents.createServer, body: request)
  }

  /// `POST /api/servers/{id}/agent-authority/offers`: a code for an unclaimed server with no
  /// open code (Protocol/Agents.md §3).
  ///
  /// ```swift
  /// let issue = try await api.issueEnrollmentCode(serverID: id)
  /// print(issue.code)  // shown this once
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - ttlSeconds: The code's lifetime (1–86400), or `nil` for the server's 600.
  /// - Returns: The new code.
  /// - Throws: ``ServerBeeAPIError`` (409 `ENROLLMENT_OFFER_OUTSTANDING` or
  ///   `AGENT_AUTHORITY_ALREADY_CLAIMED`), or `CancellationError`.
  public func issueEnrollmentCode(serverID: String, ttlSeconds: Int? = nil) async throws
    -> EnrollmentIssue
  {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(
      RouteCatalogue.Agents.issueEnrollment, PathID(serverID),
      body: EnrollmentOfferRequest(ttlSeconds: ttlSeconds)
    ).enrollment
  }

  /// `POST /api/servers/{id}/agent-authority/offers/{offer_id}/replace`: a fresh code in place
  /// of the open one, always for 600 s (Protocol/Agents.md §4).
  ///
  /// ```swift
  /// let fresh = try await api.replaceEnrollmentCode(serverID: id, offerID: offer.id)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - offerID: The open offer.
  /// - Returns: The new code.
  /// - Throws: ``ServerBeeAPIError`` (409 `ENROLLMENT_OFFER_TERMINAL` or
  ///   `ENROLLMENT_OFFER_STALE`), or `CancellationError`.
  public func replaceEnrollmentCode(serverID: String, offerID: String) async throws
    -> EnrollmentIssue
  {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireNonEmpty(offerID, "the offer id")
    return try await send(
      RouteCatalogue.Agents.replaceEnrollment, PathIDPair(serverID, offerID),
      body: EnrollmentOfferRequest()
    ).enrollment
  }

  /// `DELETE /api/servers/{id}/agent-authority/offers/{offer_id}`: revokes a code; revoking
  /// twice is fine (Protocol/Agents.md §6).
  ///
  /// ```swift
  /// _ = try await api.revokeEnrollmentCode(serverID: id, offerID: offer.id)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - offerID: The offer.
  /// - Returns: The offer and whether it was revoked already.
  /// - Throws: ``ServerBeeAPIError`` (409 `ENROLLMENT_OFFER_TERMINAL` when it ended some other
  ///   way), or `CancellationError`.
  public func revokeEnrollmentCode(serverID: String, offerID: String) async throws
    -> RevokeOfferResponse
  {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireNonEmpty(offerID, "the offer id")
    return try await send(
      RouteCatalogue.Agents.revokeEnrollment, PathIDPair(serverID, offerID))
  }

  /// `POST /api/servers/{id}/agent-authority/re-enrollment`: a new code for a claimed server
  /// (Protocol/Agents.md §5).
  ///
  /// ```swift
  /// let issue = try await api.reEnroll(serverID: id, mode: .graceful)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - mode: `graceful` keeps the agent until the code is used; `emergency` cuts it off.
  ///   - ttlSeconds: The code's lifetime, or `nil` for 600.
  /// - Returns: The new code.
  /// - Throws: ``ServerBeeAPIError`` (409 `AGENT_AUTHORITY_UNCLAIMED` or
  ///   `ENROLLMENT_OFFER_OUTSTANDING`), or `CancellationError`.
  public func reEnroll(serverID: String, mode: ReEnrollmentMode, ttlSeconds: Int? = nil)
    async throws -> EnrollmentIssue
  {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(
      RouteCatalogue.Agents.reEnroll, PathID(serverID),
      body: ReEnrollmentRequest(mode: mode, ttlSeconds: ttlSeconds)
    ).enrollment
  }

  /// `DELETE /api/servers/{id}/agent-authority`: cuts the agent off, ends any open code and
  /// leaves the server unclaimed (Protocol/Agents.md §7).
  ///
  /// ```swift
  /// let answer = try await api.revokeAgentAuthority(serverID: id)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: Whether anything changed.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func revokeAgentAuthority(serverID: String) async throws -> RevokeAuthorityResponse {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.Agents.revokeAgentAuthority, PathID(serverID))
  }

  /// `GET /api/agent/latest-version`: the newest agent release (Protocol/Agents.md §8).
  ///
  /// ```swift
  /// let latest = try await api.latestAgentVersion()
  /// ```
  /// - Returns: The version, or the lookup's error.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func latestAgentVersion() async throws -> LatestAgentVersion {
    try await send(RouteCatalogue.Agents.latestAgentVersion)
  }

  /// `DELETE /api/servers/{id}`: deletes a server and everything recorded for it
  /// (Protocol/Agents.md §9).
  ///
  /// ```swift
  /// try await api.deleteServer(id: id)
  /// ```
  /// - Parameter id: The server.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound` for an unknown id), or `CancellationError`.
  public func deleteServer(id: String) async throws {
    try Self.requireNonEmpty(id, "the server id")
    _ = try await send(RouteCatalogue.Agents.deleteServer, PathID(id))
  }

  /// `POST /api/servers/{id}/upgrade`: starts upgrading the server's agent
  /// (Protocol/Agents.md §11). The answer only says it started: each stage comes as an
  /// `upgrade_progress` frame of the live stream and the outcome as `upgrade_result`, so
  /// subscribe before calling this to miss none.
  ///
  /// ```swift
  /// let latest = try await api.latestAgentVersion()
  /// if let version = latest.version { try await api.upgradeAgent(serverID: id, version: version) }
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - version: SemVer, with or without a leading `v` (`latest` is refused).
  /// - Throws: ``ServerBeeAPIError`` (its failure's `APIFailure.upgradeRefusal` names the
  ///   documented refusals: unknown server, capability off, bad version, agent offline, an
  ///   upgrade already running), or `CancellationError`.
  public func upgradeAgent(serverID: String, version: String) async throws {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireNonEmpty(version, "the version")
    _ = try await send(
      RouteCatalogue.Agents.upgradeAgent, PathID(serverID),
      body: UpgradeAgentRequest(version: version))
  }
}
