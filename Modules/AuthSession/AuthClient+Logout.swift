import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension AuthClient {
  /// Logs out, following Protocol/Auth.md §10 (and Protocol/Auth.md §6 for a v1 server).
  ///
  /// - With a confirmed deletion proof: push is unregistered (best effort), then one atomic
  ///   store write replaces the login with a journal entry, then `POST /revoke` with
  ///   `expected_session_id` runs. If the server cannot be reached the entry stays and
  ///   ``completePendingCleanups()`` finishes it later: logout works offline.
  /// - Without one (a v2 login that never refreshed): push is unregistered, then `/revoke` is
  ///   called with the login's revocation token (or refresh token). Credentials are cleared only
  ///   when the server answers `ok` or `already_absent`; a refusal moves the login to recovery.
  /// - On a v1 server: `POST /api/mobile/auth/logout` with the bearer token; local credentials
  ///   are cleared either way.
  /// - For a login that needs recovery, this is the "retry safe logout" of Protocol/Auth.md §10:
  ///   only the login's own deletion credential is tried.
  ///
  /// ```swift
  /// switch try await client.logout() {
  /// case .completed: break
  /// case .pendingCleanup: showHint("Will finish signing out when online")
  /// case .serverNotReached: showHint("The server was not told")
  /// }
  /// ```
  /// - Returns: What was achieved.
  /// - Throws: ``AuthSessionError``: `.notSignedIn`,
  ///   `.logoutJournalFull` or `.storageFailed`
  ///   (nothing was cleared), `.revocationRejected` (the login now needs
  ///   recovery), or a transient code when a login without a confirmed proof could not reach the
  ///   server (still signed in).
  @discardableResult
  public func logout() async throws -> LogoutOutcome {
    try ensureRestored()
    cancelProactiveRefresh()  // no rotation while logging out; rescheduled if still signed in
    defer { scheduleProactiveRefresh() }
    if let inFlight = refreshTask { _ = try? await inFlight.value }
    guard let current = record else {
      throw AuthSessionError(.notSignedIn, "no session is signed in")
    }
    if current.status == .recoveryRequired {
      return try await revokeWithOwnCredential(current)
    }
    if let proof = current.confirmedDeletionProof, let sessionID = current.mobileSessionID {
      return try await journaledLogout(current, proof: proof, sessionID: sessionID)
    }
    if current.mobileSessionID == nil && current.revocationToken == nil {
      return try await legacyLogout(current)
    }
    await unregisterPush(current)
    return try await revokeWithOwnCredential(current)
  }

  /// Deletes the local login without telling the server. Allowed only in
  /// ``SessionState/serverTooOld(_:)``, where no server-side cleanup is possible.
  /// - Returns: ``LogoutOutcome/serverNotReached``.
  /// - Throws: ``AuthSessionError``: `.recoveryNotRequired` in any other
  ///   state, or `.storageFailed`.
  @discardableResult
  public func forgetSession() throws -> LogoutOutcome {
    try ensureRestored()
    guard case .serverTooOld(let identity) = states.value, record?.loginID == identity.loginID
    else {
      throw AuthSessionError(
        .recoveryNotRequired, "only a session the server is too old to recover can be forgotten")
    }
    try clearLogin()
    return .serverNotReached
  }

  /// Retries every unresolved offline logout, each with its own credentials only.
  ///
  /// Call it on launch, on returning to the foreground, when connectivity returns; login and
  /// pairing call it first on their own. Entries the server settles (`ok`, `already_absent`) are
  /// removed; the others stay. Concurrent calls share one pass.
  /// - Returns: What this pass settled and what stays.
  /// - Throws: ``AuthSessionError`` with `.storageFailed` when the journal
  ///   cannot be read or updated.
  @discardableResult
  public func completePendingCleanups() async throws -> PendingCleanupReport {
    try ensureRestored()
    if let inFlight = cleanupTask { return try await inFlight.value }
    let task = Task { try await self.runPendingCleanups() }
    cleanupTask = task
    return try await task.value
  }

  /// The unresolved offline logouts, without their secrets.
  /// - Returns: The journal entries, oldest first.
  /// - Throws: ``AuthSessionError`` with `.storageFailed`.
  public func pendingCleanups() throws -> [PendingCleanup] {
    try loadJournal().map(\.description)
  }

  /// Drops one unresolved offline logout without telling the server, for an entry that keeps
  /// failing (its server is gone for good, or it answers something that never settles it).
  ///
  /// The server session then stays until it expires or is removed from the web UI's device
  /// list; nothing else changes.
  ///
  /// ```swift
  /// for entry in try await client.pendingCleanups() where entry.server == retiredServer {
  ///   try await client.forgetPendingCleanup(id: entry.id)
  /// }
  /// ```
  /// - Parameter id: The entry's ``PendingCleanup/id``.
  /// - Returns: The entry dropped, or `nil` when none has that id (it may have just settled).
  /// - Throws: ``AuthSessionError`` with `.storageFailed`.
  @discardableResult
  public func forgetPendingCleanup(id: String) throws -> PendingCleanup? {
    try ensureRestored()
    guard let entry = try loadJournal().first(where: { $0.id == id }) else { return nil }
    try removeJournalEntry(id: id)
    return entry.description
  }

  // MARK: Steps

  func runPendingCleanups() async throws -> PendingCleanupReport {
    // Cleared before the task finishes, so a caller resuming afterwards never joins a finished
    // pass and gets a stale report.
    defer { cleanupTask = nil }
    var report = PendingCleanupReport()
    for entry in try loadJournal() {
      do {
        _ = try await revoke(
          on: entry.server, installationID: entry.installationID, credential: entry.proof,
          expectedSessionID: entry.mobileSessionID)
        try removeJournalEntry(id: entry.id)
        report.settled.append(entry.description)
      } catch let error as AuthSessionError {
        report.failed.append((entry.description, error))
      }
    }
    return report
  }

  func journaledLogout(_ current: LoginRecord, proof: String, sessionID: String) async throws
    -> LogoutOutcome
  {
    guard try loadJournal().count < Self.maximumPendingCleanups else {
      throw AuthSessionError(
        .logoutJournalFull, "too many earlier logouts still wait for the server")
    }
    await unregisterPush(current)
    guard record?.loginID == current.loginID else {
      throw AuthSessionError(.notSignedIn, "the session ended during logout")
    }
    let entry = try replaceLoginWithJournalEntry(current, proof: proof, sessionID: sessionID)
    publishState()
    do {
      _ = try await revoke(
        on: entry.server, installationID: entry.installationID, credential: entry.proof,
        expectedSessionID: entry.mobileSessionID)
      try removeJournalEntry(id: entry.id)
      return .completed
    } catch {
      return .pendingCleanup  // the entry stays; completePendingCleanups() retries it
    }
  }

  /// Revokes with the login's own deletion credential (confirmed proof, else revocation token,
  /// else refresh token).
  /// Clears the login only on `ok`/`already_absent`; a refusal moves it to recovery.
  func revokeWithOwnCredential(_ current: LoginRecord) async throws -> LogoutOutcome {
    let credential =
      current.confirmedDeletionProof ?? current.revocationToken ?? current.refreshToken
    do {
      _ = try await revoke(
        on: current.server, installationID: current.installationID, credential: credential,
        expectedSessionID: current.targetSessionID)
    } catch let error as AuthSessionError where error.code == .revocationRejected {
      try? moveToRecovery(current)
      throw error
    } catch let error as AuthSessionError where error.code == .unsupportedByServer {
      if current.status == .recoveryRequired { states.publish(.serverTooOld(current.identity)) }
      throw error
    }
    guard record?.loginID == current.loginID else { return .completed }
    try clearLogin()
    return .completed
  }

  /// Logout of a login made against a v1 server (no session id, no revocation token): bearer
  /// `POST /logout`. Local credentials are cleared whatever happens.
  ///
  /// When the bearer route cannot be used because the login's tokens were rejected (for example
  /// a refresh answer was lost after the server committed it), the refresh token is offered to
  /// `/revoke` without a session id: a v2 server accepts a consumed refresh token as a deletion
  /// credential (Protocol/Auth.md §8); a v1 server answers 404 and the session ends when it
  /// expires.
  func legacyLogout(_ current: LoginRecord) async throws -> LogoutOutcome {
    await unregisterPush(current)
    var outcome = LogoutOutcome.serverNotReached
    do {
      let response = try await exchange(
        RouteCatalogue.Auth.logout, on: current.server, body: NoBody(), authorized: true)
      if response.status == 200 { outcome = .completed }
    } catch let error as AuthSessionError
      where error.code == .sessionRejected || error.code == .recoveryRequired
    {
      if let latest = record, latest.loginID == current.loginID,
        (try? await revoke(
          on: latest.server, installationID: latest.installationID,
          credential: latest.refreshToken, expectedSessionID: nil)) != nil
      {
        outcome = .completed
      }
    } catch {
      outcome = .serverNotReached
    }
    if let latest = record, latest.loginID == current.loginID { try clearLogin() }
    return outcome
  }

  func moveToRecovery(_ current: LoginRecord) throws {
    guard var latest = record, latest.loginID == current.loginID else { return }
    cancelProactiveRefresh()
    let previous = latest
    latest.status = .recoveryRequired
    record = latest
    publishState()
    try save(latest, replacing: previous)
  }

  /// `POST /api/mobile/push/unregister` with the bearer token, best effort: its failure never
  /// blocks a logout.
  func unregisterPush(_ current: LoginRecord) async {
    guard configuration.unregistersPushOnLogout, current.status == .active else { return }
    _ = try? await exchange(
      RouteCatalogue.Push.unregister, on: current.server, body: NoBody(),
      bearer: current.accessToken)
  }

  // MARK: Journal storage

  func loadJournal() throws -> [LogoutJournalEntry] {
    try storeCall("read the logout journal") {
      try store.value([LogoutJournalEntry].self, forKey: .logoutJournal, in: .appPrivate) ?? []
    }
  }

  /// Adds a journal entry and removes the login in one atomic write, so that revocation
  /// material is never lost and a half-logged-out state is never stored.
  @discardableResult
  func replaceLoginWithJournalEntry(_ current: LoginRecord, proof: String, sessionID: String)
    throws -> LogoutJournalEntry
  {
    var journal = try loadJournal()
    let entry = LogoutJournalEntry(
      id: makeUUID().uuidString.lowercased(), server: current.server, userID: current.user.id,
      installationID: current.installationID, mobileSessionID: sessionID, proof: proof,
      createdAt: now())
    journal.append(entry)
    var batch = CredentialBatch()
    try storeCall("save the logout journal") {
      try batch.setValue(journal, forKey: .logoutJournal, in: .appPrivate)
      batch.removeValue(forKey: .login, in: .appPrivate)
      try addLoginScopeChanges(to: &batch, from: current, to: nil)
      try store.commit(batch)
    }
    record = nil
    cancelProactiveRefresh()
    forgetRecoveryState()
    return entry
  }

  func removeJournalEntry(id: String) throws {
    var journal = try loadJournal()
    journal.removeAll { $0.id == id }
    try storeCall("update the logout journal") {
      if journal.isEmpty {
        try store.removeValue(forKey: .logoutJournal, in: .appPrivate)
      } else {
        try store.setValue(journal, forKey: .logoutJournal, in: .appPrivate)
      }
    }
  }

  func clearLogin() throws {
    try storeCall("clear the login") {
      var batch = CredentialBatch()
      batch.removeValue(forKey: .login, in: .appPrivate)
      try addLoginScopeChanges(to: &batch, from: record, to: nil)
      try store.commit(batch)
    }
    record = nil
    cancelProactiveRefresh()
    forgetRecoveryState()
    publishState()
  }
}
