import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
public import ServerBeeTransport

extension AuthClient {
  /// A valid access token, refreshing first when it expires within
  /// ``Configuration/refreshLeadTime``.
  ///
  /// Concurrent callers share one refresh request.
  /// - Returns: The access token.
  /// - Throws: ``AuthSessionError``: `.notSignedIn`,
  ///   `.recoveryRequired`, or the errors of ``refresh()``.
  public func validAccessToken() async throws -> String {
    let current = try activeRecord()
    let deadline = current.accessExpiresAt.addingTimeInterval(
      -Self.seconds(configuration.refreshLeadTime))
    if now() < deadline { return current.accessToken }
    return try await refreshedRecord().accessToken
  }

  /// The access token to retry with after the server answered 401 to `token`.
  ///
  /// When another caller already refreshed since `token` was handed out, the newer token is
  /// returned without a request; otherwise this joins (or starts) the single refresh. This is how
  /// any number of concurrent 401s cause exactly one refresh.
  /// - Parameter token: The access token the server rejected.
  /// - Returns: A newer access token.
  /// - Throws: The errors of ``refresh()``.
  public func accessToken(afterRejectionOf token: String) async throws -> String {
    let current = try activeRecord()
    if current.accessToken != token { return current.accessToken }
    return try await refreshedRecord().accessToken
  }

  /// Rotates the tokens now (`POST /api/mobile/auth/refresh`), or joins the refresh already in
  /// flight.
  ///
  /// The rotated tokens are stored before this returns. Until the server confirms a deletion
  /// proof, the request carries a persisted proposal (Protocol/Auth.md §4, §10).
  /// - Returns: The identity after the refresh.
  /// - Throws: ``AuthSessionError``: `.sessionRejected` (401/403: the
  ///   session moved to recovery, or was queued for cleanup and signed out),
  ///   `.identityMismatch`, `.storageFailed`,
  ///   `.notSignedIn`, `.recoveryRequired`, or a
  ///   transient code (credentials kept).
  @discardableResult
  public func refresh() async throws -> SessionIdentity {
    _ = try activeRecord()
    return try await refreshedRecord().identity
  }

  /// Makes sure the login holds a deletion proof the server confirmed, refreshing once if it
  /// does not yet.
  ///
  /// Call it before anything that should only happen while an offline logout is possible, for
  /// example before changing notification settings (the iOS app does the same).
  /// - Returns: The identity.
  /// - Throws: ``AuthSessionError``: `.unsupportedByServer` when the server does not
  ///   confirm proofs (a v1 server: no `mobile_session_id`), or the errors of ``refresh()``.
  @discardableResult
  public func confirmDeletionProof() async throws -> SessionIdentity {
    var current = try activeRecord()
    if current.confirmedDeletionProof == nil {
      current = try await refreshedRecord()
    }
    guard current.confirmedDeletionProof != nil else {
      throw AuthSessionError(
        .unsupportedByServer, "the server does not confirm deletion proofs (v1 server)")
    }
    return current.identity
  }

  /// Single flight: join the refresh in flight or start one. A caller that joined a refresh
  /// which failed transiently makes one attempt of its own (shared again with whoever joins it).
  func refreshedRecord() async throws -> LoginRecord {
    var hadOwnAttempt = false
    while true {
      if let inFlight = refreshTask {
        refreshJoinObserver?()
        do {
          return try await inFlight.value
        } catch let error as AuthSessionError where error.isTransient && !hadOwnAttempt {
          hadOwnAttempt = true
          continue
        }
      }
      hadOwnAttempt = true
      refreshGeneration += 1
      let generation = refreshGeneration
      // The task is owned by the actor (`refreshTask`) and ends on its own; it clears the slot
      // itself before finishing, so callers that resume afterwards never see a finished task.
      let task = Task { try await self.performRefresh(generation: generation) }
      refreshTask = task
      return try await task.value
    }
  }

  func performRefresh(generation: Int) async throws -> LoginRecord {
    defer { if refreshGeneration == generation { refreshTask = nil } }
    var current = try activeRecord()
    var proposal: String?
    if current.confirmedDeletionProof == nil {
      if let pending = current.proposedDeletionProof {
        proposal = pending
      } else {
        let proof = RevocationProof.make(from: randomBytes(RevocationProof.byteCount))
        current.proposedDeletionProof = proof
        try save(current)  // persisted before it is sent (Protocol/Auth.md §10)
        proposal = proof
      }
    }
    let request = RefreshRequest(
      refreshToken: current.refreshToken, installationID: current.installationID,
      revocationProof: proposal)
    let response = try await exchange(
      RouteCatalogue.Auth.refresh, on: current.server, body: request)

    // Reentrancy: a logout or recovery may have run during the request.
    guard let latest = record, latest.loginID == current.loginID, latest.status == .active else {
      throw AuthSessionError(.notSignedIn, "the session ended while it was being refreshed")
    }
    switch response.status {
    case 200:
      let tokens = try decodePayload(
        MobileTokenResponse.self, from: response, path: RouteCatalogue.Auth.refresh.template.text)
      let rotated = try rotated(latest, with: tokens, proposal: proposal)
      try save(rotated)  // stored before anyone gets the new access token
      publishState()
      scheduleProactiveRefresh()
      return rotated
    case 401, 403:
      try handleRejection(of: latest)
      throw AuthSessionError(
        .sessionRejected, "the server rejected the session", httpStatus: response.status)
    case 422:
      throw Self.failure(response, path: RouteCatalogue.Auth.refresh.template.text)
    default:
      var failure = Self.failure(response, path: RouteCatalogue.Auth.refresh.template.text)
      failure.code = .serverError  // every other answer is temporary (Protocol/Auth.md §4 iOS rule)
      throw failure
    }
  }

  /// The record after a successful rotation, or an error when the answer is for another login.
  func rotated(_ latest: LoginRecord, with tokens: MobileTokenResponse, proposal: String?) throws
    -> LoginRecord
  {
    try Self.validate(tokens, path: RouteCatalogue.Auth.refresh.template.text)
    guard tokens.user.id == latest.user.id else {
      throw AuthSessionError(.identityMismatch, "the refresh answer is for another user")
    }
    if let known = latest.mobileSessionID, let returned = tokens.mobileSessionID,
      known.lowercased() != returned.lowercased()
    {
      throw AuthSessionError(.identityMismatch, "the refresh answer is for another session")
    }
    var next = latest
    let issuedAt = now()
    next.user = tokens.user
    next.accessToken = tokens.accessToken
    next.accessExpiresAt = issuedAt.addingTimeInterval(TimeInterval(tokens.accessExpiresInSeconds))
    next.refreshToken = tokens.refreshToken
    next.refreshExpiresAt = issuedAt.addingTimeInterval(
      TimeInterval(tokens.refreshExpiresInSeconds))
    next.mobileSessionID = latest.mobileSessionID ?? tokens.mobileSessionID
    if let proposal, tokens.mobileSessionID != nil, tokens.revocationToken == proposal {
      next.confirmedDeletionProof = proposal
      next.proposedDeletionProof = nil
    }
    return next
  }

  /// A refresh was answered 401/403. With a confirmed proof (and room in the journal) the login
  /// is queued for cleanup and signed out; otherwise it moves to recovery (Protocol/Auth.md §10),
  /// where a retried logout can still use the proof.
  func handleRejection(of rejected: LoginRecord) throws {
    cancelProactiveRefresh()
    if let proof = rejected.confirmedDeletionProof, let sessionID = rejected.mobileSessionID,
      try loadJournal().count < Self.maximumPendingCleanups
    {
      try replaceLoginWithJournalEntry(rejected, proof: proof, sessionID: sessionID)
      publishState()
      return
    }
    var next = rejected
    next.status = .recoveryRequired
    do {
      try save(next)
    } catch {
      record = next  // keep requests blocked in this process even if the flag is not stored
    }
    publishState()
  }

  // MARK: Proactive refresh

  /// Schedules a refresh ``Configuration/refreshLeadTime`` before the access token expires.
  func scheduleProactiveRefresh(after delay: Duration? = nil) {
    cancelProactiveRefresh()
    guard configuration.refreshesProactively, let record, record.status == .active else { return }
    let wait: Duration
    if let delay {
      wait = delay
    } else {
      let seconds =
        record.accessExpiresAt.timeIntervalSince(now())
        - Self.seconds(configuration.refreshLeadTime)
      wait = .seconds(max(0, seconds))
    }
    let loginID = record.loginID
    proactiveTask = Task { [weak self, clock] in
      do {
        try await clock.sleep(for: wait)
      } catch {
        return
      }
      await self?.proactiveRefreshFired(loginID: loginID)
    }
  }

  func cancelProactiveRefresh() {
    proactiveTask?.cancel()
    proactiveTask = nil
  }

  func proactiveRefreshFired(loginID: String) async {
    guard let record, record.loginID == loginID, record.status == .active else { return }
    do {
      _ = try await refreshedRecord()
    } catch let error as AuthSessionError where error.isTransient {
      guard self.record?.loginID == loginID else { return }
      scheduleProactiveRefresh(after: configuration.proactiveRetryDelay)
    } catch {
      // Rejection, storage failure or a refused answer: the state or the next caller reports it.
    }
  }
}
