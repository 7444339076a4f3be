import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

/// The sign-in journal: sign-ins whose answer may have been lost, and the sweep that revokes the
/// sessions they left on the server.
///
/// A login or pairing request can create a server session whose answer never arrives (the
/// process is killed, the connection drops after the server committed). That session belongs to
/// nobody: it keeps a refresh token alive for 30 days and shows up in the account's device list.
/// So every sign-in is written to the store *before* it is sent and forgotten again once its
/// answer proves no orphan exists. A later sweep, signed in to the same account, lists the
/// account's sessions and revokes those of this installation that are neither the current login
/// nor a queued sign-out.
extension AuthClient {
  /// The most sign-in attempts kept; the oldest are dropped first.
  public static let maximumSignInAttempts = 16

  /// The sign-ins whose answer may have been lost and whose orphaned session, if any, is not yet
  /// revoked, oldest first, for every server and account.
  ///
  /// ```swift
  /// let attempts = try await client.pendingSignInAttempts()
  /// if !attempts.isEmpty { print("\(attempts.count) interrupted sign-ins are not cleaned up") }
  /// ```
  /// - Returns: The attempts, without secrets.
  /// - Throws: ``AuthSessionError`` with `.storageFailed` when the store cannot be read.
  public func pendingSignInAttempts() throws -> [SignInAttempt] {
    try loadSignInJournal().map(\.description)
  }

  /// Revokes the sessions that interrupted sign-ins of the signed-in account left on its
  /// server, then forgets those attempts.
  ///
  /// Call it after ``login(server:username:password:totpCode:)`` or
  /// ``pair(scannedPayload:expectedServer:)`` succeed and after ``restore()`` finds a signed-in
  /// login; sign-in itself never sweeps, so that its answer (and its requests) stay as the protocol
  /// notes describe them. When no attempt of this account is recorded it returns
  /// ``SignInSweepReport/nothingPending`` without a request, so calling it on every launch is
  /// cheap.
  ///
  /// With attempts pending, it lists the account's sessions (`GET /api/mobile/auth/devices`)
  /// and revokes (`DELETE /api/mobile/auth/devices/{id}`) each one of this installation that is
  /// neither the current login nor a queued sign-out (``pendingCleanups()``). Its rules:
  /// - The current session is never revoked. A server that does not send `mobile_session_id`
  ///   (a v1 server) cannot name it; there the attempts are resolved only when the list shows
  ///   at most one session of this installation (the current one, so no orphan exists), and
  ///   otherwise the sweep is ``SignInSweepReport/skipped(_:)`` with
  ///   ``SignInSweepSkipReason/serverDoesNotIdentifySessions``.
  /// - The device list shows the caller's own sessions only, so only attempts with this
  ///   account's user name (and pairing attempts, whose account is unknown) on this server are
  ///   checked; the others stay until a sign-in to their account sweeps them.
  /// - Attempts are forgotten only when every orphan was revoked or found gone (404); any
  ///   failure keeps them for the next sweep.
  ///
  /// ```swift
  /// _ = try await client.login(server: url, username: "ada", password: password)
  /// if case .cleaned(let revoked, _) = await client.sweepInterruptedSignIns(), revoked > 0 {
  ///   print("removed \(revoked) session(s) an interrupted sign-in had left behind")
  /// }
  /// ```
  /// - Returns: What the pass did; it never throws.
  public func sweepInterruptedSignIns() async -> SignInSweepReport {
    do {
      return try await sweep()
    } catch is CancellationError {
      return .cancelled
    } catch let error as AuthSessionError {
      if error.code == .notSignedIn || error.code == .recoveryRequired {
        return .skipped(.notSignedIn)
      }
      return .failed(error)
    } catch {
      return .failed(
        AuthSessionError(.serverError, "the sign-in sweep failed", underlying: error))
    }
  }

  // MARK: Recording

  /// Runs a login or pairing request with its attempt recorded first.
  ///
  /// The attempt is forgotten when the answer was seen and left no session nobody holds: a
  /// success (its session is the login just stored), the TOTP step (no session is created), or
  /// a refusal. It stays when the server may have created a session whose answer was lost (see
  /// ``mayHaveLeftSession(_:)``).
  /// - Throws: `.storageFailed` when the attempt cannot be recorded (nothing is sent), or
  ///   what `signIn` throws.
  func withSignInAttempt<Answer: Sendable>(
    server: ServerURL, username: String?, _ signIn: () async throws -> Answer
  ) async throws -> Answer {
    let entry = SignInJournalEntry(
      id: makeUUID().uuidString.lowercased(), server: server, username: username,
      startedAt: now())
    let journal = try loadSignInJournal() + [entry]
    try saveSignInJournal(Array(journal.suffix(Self.maximumSignInAttempts)))
    do {
      let answer = try await signIn()
      // Failing to forget it only costs one later sweep that finds nothing.
      try? removeSignInJournalEntries([entry.id])
      return answer
    } catch let error as AuthSessionError where !Self.mayHaveLeftSession(error) {
      try? removeSignInJournalEntries([entry.id])
      throw error
    }
  }

  /// Whether a sign-in that failed this way may have left a session on the server: the answer
  /// was lost or unreadable (`.networkFailure`, `.serverError`, `.invalidResponse`, or a
  /// cancellation, which is not an AuthSessionError), or a 200 was received but the login could
  /// not be kept (`.storageFailed`; `.alreadySignedIn`/`.recoveryRequired` from another login
  /// that finished first, see `adopt`).
  static func mayHaveLeftSession(_ error: AuthSessionError) -> Bool {
    [
      .networkFailure, .serverError, .invalidResponse, .storageFailed, .alreadySignedIn,
      .recoveryRequired,
    ]
    .contains(error.code)
  }

  // MARK: Sweeping

  private func sweep() async throws -> SignInSweepReport {
    let current = try activeRecord()
    let checked = try loadSignInJournal().filter { $0.isChecked(by: current.identity) }
    guard !checked.isEmpty else { return .nothingPending }

    let listed = try await sessionsOfThisInstallation(current)
    try requireSameLogin(current)
    let orphans: [String]
    if let ownID = current.mobileSessionID?.lowercased() {
      let queued = Set(try loadJournal().map { $0.mobileSessionID.lowercased() })
      orphans = listed.filter { $0 != ownID && !queued.contains($0) }
    } else if listed.count <= 1 {
      // v1: the signed-in login's own session is in the list (its token just listed it), so
      // when only one session of this installation is listed, no orphan exists.
      orphans = []
    } else {
      return .skipped(.serverDoesNotIdentifySessions)
    }

    for orphan in orphans {
      // A logout or another login may have run during the last request (actor reentrancy).
      try requireSameLogin(current)
      try await revokeOrphan(orphan, on: current.server)
    }
    try removeSignInJournalEntries(Set(checked.map(\.id)))
    return .cleaned(revokedSessionCount: orphans.count, resolvedAttemptCount: checked.count)
  }

  /// The lower-cased ids of the account's sessions bound to this installation.
  private func sessionsOfThisInstallation(_ current: LoginRecord) async throws -> [String] {
    let route = RouteCatalogue.Auth.devices
    let response = try await exchange(
      route, on: current.server, body: NoBody(), authorized: true)
    guard response.status == 200 else {
      throw Self.failure(response, path: route.template.text)
    }
    // Only the two fields the sweep needs are read (not the route's whole `MobileDevice`): a
    // change in the other fields must not block the cleanup.
    let entries = try decodePayload(
      [SessionListEntry].self, from: response, path: route.template.text)
    let installation = current.installationID.lowercased()
    let ids = entries.filter { $0.installationID.lowercased() == installation }
      .map { $0.id.lowercased() }
    // The id goes into a URL path: only the UUIDs the contract promises are accepted.
    guard ids.allSatisfy(isUUID) else {
      throw AuthSessionError(
        .invalidResponse, "\(route.template.text): a session id is not a UUID", httpStatus: 200)
    }
    return ids
  }

  /// `DELETE /api/mobile/auth/devices/{id}`; 200 revoked it and 404 proves it is gone.
  private func revokeOrphan(_ id: String, on server: ServerURL) async throws {
    let route = RouteCatalogue.Auth.revokeDevice
    let response = try await exchange(
      route, PathID(id), on: server, body: NoBody(), authorized: true)
    guard response.status == 200 || response.status == 404 else {
      throw Self.failure(response, path: route.template.text)
    }
  }

  private func requireSameLogin(_ expected: LoginRecord) throws {
    guard let record, record.loginID == expected.loginID, record.status == .active else {
      throw AuthSessionError(.notSignedIn, "the login changed during the sign-in sweep")
    }
  }

  // MARK: Journal storage

  func loadSignInJournal() throws -> [SignInJournalEntry] {
    try storeCall("read the sign-in journal") {
      try store.value([SignInJournalEntry].self, forKey: .signInJournal, in: .appPrivate) ?? []
    }
  }

  func saveSignInJournal(_ entries: [SignInJournalEntry]) throws {
    try storeCall("save the sign-in journal") {
      if entries.isEmpty {
        try store.removeValue(forKey: .signInJournal, in: .appPrivate)
      } else {
        try store.setValue(entries, forKey: .signInJournal, in: .appPrivate)
      }
    }
  }

  /// Re-reads the journal before writing, so entries recorded while a request was in flight
  /// are kept.
  func removeSignInJournalEntries(_ ids: Set<String>) throws {
    try saveSignInJournal(try loadSignInJournal().filter { !ids.contains($0.id) })
  }
}
