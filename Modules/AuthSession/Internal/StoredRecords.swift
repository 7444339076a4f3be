import Foundation
import SecureStore
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// The stored login: one atomic value in the app-private group (Protocol/Auth.md §10 "login
/// record").
///
/// Everything that must change together (tokens, proofs, the recovery target) lives in this one
/// value, so a crash can never leave a rotated refresh token next to a stale proof.
struct LoginRecord: Codable, Hashable, Sendable {
  enum Status: String, Codable, Sendable {
    /// Usable for requests.
    case active
    /// Permanently rejected without a confirmed proof: only recovery or a retried safe logout.
    case recoveryRequired
  }

  var loginID: String
  var server: ServerURL
  var installationID: String
  var user: SessionUser
  var accessToken: String
  var accessExpiresAt: Date
  var refreshToken: String
  var refreshExpiresAt: Date
  var revocationToken: String?
  var mobileSessionID: String?
  var confirmedDeletionProof: String?
  var proposedDeletionProof: String?
  /// The recovery candidate the user picked; persisted before it is submitted and never changed.
  var recoveryTargetID: String?
  var status: Status

  var identity: SessionIdentity {
    SessionIdentity(
      loginID: loginID, server: server, user: user, installationID: installationID,
      mobileSessionID: mobileSessionID)
  }

  /// The session id to name in revoke and recover requests, if one is known.
  var targetSessionID: String? { mobileSessionID ?? recoveryTargetID }
}

/// One unresolved offline logout (Protocol/Auth.md §10): everything needed to replay the revoke,
/// and nothing of any other login.
struct LogoutJournalEntry: Codable, Hashable, Sendable {
  var id: String
  var server: ServerURL
  var userID: String
  var installationID: String
  var mobileSessionID: String
  var proof: String
  var createdAt: Date

  var description: PendingCleanup {
    PendingCleanup(
      id: id, server: server, userID: userID, mobileSessionID: mobileSessionID,
      createdAt: createdAt)
  }
}

/// One sign-in that was sent but whose answer may never have been seen (the sign-in journal).
///
/// Written before `login`/`pair` sends, so that a session the server created for a lost answer
/// can be found and revoked later. It holds no secret: no password, code or token.
struct SignInJournalEntry: Codable, Hashable, Sendable {
  /// A local identifier, so two attempts with the same server, name and time stay distinct.
  var id: String
  var server: ServerURL
  /// The user name typed for a password sign-in; `nil` for pairing (the account is only known
  /// from the answer).
  var username: String?
  var startedAt: Date

  var description: SignInAttempt {
    SignInAttempt(id: id, server: server, username: username, startedAt: startedAt)
  }

  /// Whether a sweep signed in as `identity` can see this attempt's orphan: the device list
  /// only shows the caller's own sessions. A pairing attempt names no account, so the next
  /// sign-in to its server checks it. Names compare exactly: treating "Ada" and "ada" as one
  /// account on a server where they differ would forget a live orphan, which is worse than
  /// keeping an entry too long.
  func isChecked(by identity: SessionIdentity) -> Bool {
    guard server == identity.server else { return false }
    guard let username else { return true }
    return username == identity.user.username
  }
}

extension CredentialKey {
  /// This installation's identifier (an upper-case UUID, like iOS).
  static let installationID: CredentialKey = "auth.installation-id"
  /// The ``LoginRecord``.
  static let login: CredentialKey = "auth.login"
  /// The `[LogoutJournalEntry]` of unresolved offline logouts.
  static let logoutJournal: CredentialKey = "auth.logout-journal"
  /// The `[SignInJournalEntry]` of sign-ins whose answer may have been lost.
  static let signInJournal: CredentialKey = "auth.sign-in-journal"
}

/// Deletion-proof proposals (Protocol/Auth.md §1.2): `sb-revoke-v1.` + base64url-no-pad of 32
/// random bytes.
enum RevocationProof {
  static let prefix = "sb-revoke-v1."
  static let byteCount = 32

  static func make(from bytes: [UInt8]) -> String {
    prefix + Base64URL.encode(bytes)
  }
}

/// Whether a text is a UUID (any case), as the contract requires of session ids.
func isUUID(_ text: String) -> Bool {
  text.utf8.count == 36 && UUID(uuidString: text) != nil
}
