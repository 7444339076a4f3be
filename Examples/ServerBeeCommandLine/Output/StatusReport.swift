import AuthSession
import Foundation
import ServerBeeModels

/// The `status --json` document.
struct StatusReport: Codable, Sendable {
  var home: String
  var session: String
  var identity: IdentitySummary?
  var pendingCleanups: [PendingCleanupEntry]

  enum CodingKeys: String, CodingKey {
    case home, session, identity
    case pendingCleanups = "pending_cleanups"
  }

  init(home: String, state: SessionState, pending: [PendingCleanup]) {
    self.home = home
    switch state {
    case .restoring, .signedOut: session = "signed_out"
    case .signedIn: session = "signed_in"
    case .recoveryRequired: session = "recovery_required"
    case .serverTooOld: session = "server_too_old"
    }
    identity = state.identity.map(IdentitySummary.init)
    pendingCleanups = pending.map(PendingCleanupEntry.init)
  }
}

/// One queued sign-out in `status --json`.
struct PendingCleanupEntry: Codable, Sendable {
  var server: String
  var userID: String
  var mobileSessionID: String
  var createdAt: String

  enum CodingKeys: String, CodingKey {
    case server
    case userID = "user_id"
    case mobileSessionID = "mobile_session_id"
    case createdAt = "created_at"
  }

  init(_ entry: PendingCleanup) {
    server = entry.server.string
    userID = entry.userID
    mobileSessionID = entry.mobileSessionID
    createdAt = Formatting.isoTime(entry.createdAt)
  }
}
