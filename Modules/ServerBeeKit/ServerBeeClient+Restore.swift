public import AuthSession

extension ServerBeeClient {
  /// What ``ServerBeeClient/restoreWithReport()`` found and finished.
  ///
  /// ```swift
  /// let restored = try await client.restoreWithReport()
  /// if case .cleaned(let revoked, _)? = restored.signInSweep, revoked > 0 {
  ///   print("removed \(revoked) session(s) an interrupted sign-in had left on the server")
  /// }
  /// for entry in restored.pendingCleanups?.settled ?? [] {
  ///   print("finished the queued sign-out from \(entry.server)")
  /// }
  /// ```
  public struct RestoreReport: Sendable {
    /// The session state after restoring.
    public var state: SessionState
    /// What the sweep of interrupted sign-ins did; `nil` when no login is signed in (the sweep
    /// needs one).
    public var signInSweep: SignInSweepReport?
    /// What the pass over queued sign-outs achieved; `nil` when none was queued (or the queue
    /// could not be read).
    public var pendingCleanups: PendingCleanupReport?

    /// Creates a report.
    /// - Parameters:
    ///   - state: The state after restoring.
    ///   - signInSweep: The sweep's report, if it ran.
    ///   - pendingCleanups: The queued sign-outs' report, if any were queued.
    public init(
      state: SessionState, signInSweep: SignInSweepReport? = nil,
      pendingCleanups: PendingCleanupReport? = nil
    ) {
      self.state = state
      self.signInSweep = signInSweep
      self.pendingCleanups = pendingCleanups
    }
  }

  /// Reads the stored login, revokes the sessions interrupted sign-ins left on the server, and
  /// finishes queued sign-outs while their servers are reachable; call it once at launch.
  ///
  /// A sign-in whose answer was lost (the process was killed, the connection dropped after the
  /// server committed) may have created a session nobody holds. `AuthClient` records every
  /// sign-in before sending it, and here, signed in to the same account again, the orphans are
  /// revoked (`AuthClient.sweepInterruptedSignIns()`); with nothing recorded no request is
  /// sent. Both passes are best effort: what fails stays recorded for the next launch, and the
  /// report says so.
  ///
  /// ```swift
  /// let restored = try await client.restoreWithReport()
  /// if case .signedIn(let identity) = restored.state { print("signed in as \(identity.user.username)") }
  /// ```
  /// - Returns: The state and what the two passes did.
  /// - Throws: `AuthSessionError` when the store cannot be read.
  public func restoreWithReport() async throws -> RestoreReport {
    var report = RestoreReport(state: try await auth.restore())
    if case .signedIn = auth.currentState {
      report.signInSweep = await auth.sweepInterruptedSignIns()
    }
    if let pending = try? await auth.pendingCleanups(), !pending.isEmpty {
      report.pendingCleanups = try? await auth.completePendingCleanups()
    }
    report.state = auth.currentState
    return report
  }
}
