import AuthSession
import Foundation
import ServerBeeModels

/// The `status --json` document.
struct StatusReport: Codable, Sendable {
  var home: String
  var session: String
  var identity: IdentitySummary?
  var pendingCleanups: [PendingCleanupEntry]
  var interruptedSignIns: [InterruptedSignIn]

  enum CodingKeys: String, CodingKey {
    case home, session, identity
    case pendingCleanups = "pending_cleanups"
    case interruptedSignIns = "interrupted_sign_ins"
  }

  /// The report; `lastErrors` are this run's failures by entry id, already in words.
  init(
    home: String, state: SessionState, pending: [PendingCleanup],
    lastErrors: [String: String] = [:], attempts: [SignInAttempt] = []
  ) {
    self.home = home
    switch state {
    case .restoring, .signedOut: session = "signed_out"
    case .signedIn: session = "signed_in"
    case .recoveryRequired: session = "recovery_required"
    case .serverTooOld: session = "server_too_old"
    }
    identity = state.identity.map(IdentitySummary.init)
    pendingCleanups = pending.map { PendingCleanupEntry($0, lastError: lastErrors[$0.id]) }
    interruptedSignIns = attempts.map(InterruptedSignIn.init)
  }
}

/// A sign-in whose answer was never seen, in `status --json`.
struct InterruptedSignIn: Codable, Sendable {
  var server: String
  var username: String?
  var startedAt: String

  enum CodingKeys: String, CodingKey {
    case server, username
    case startedAt = "started_at"
  }

  init(_ attempt: SignInAttempt) {
    server = attempt.server.string
    username = attempt.username
    startedAt = Formatting.isoTime(attempt.startedAt)
  }
}

/// One queued sign-out in `status --json`.
struct PendingCleanupEntry: Codable, Sendable {
  var id: String
  var server: String
  var userID: String
  var mobileSessionID: String
  var createdAt: String
  /// Why the last attempt to finish it failed (this run's), if it did.
  var lastError: String?

  enum CodingKeys: String, CodingKey {
    case id, server
    case userID = "user_id"
    case mobileSessionID = "mobile_session_id"
    case createdAt = "created_at"
    case lastError = "last_error"
  }

  init(_ entry: PendingCleanup, lastError: String? = nil) {
    id = entry.id
    self.lastError = lastError
    server = entry.server.string
    userID = entry.userID
    mobileSessionID = entry.mobileSessionID
    createdAt = Formatting.isoTime(entry.createdAt)
  }
}
