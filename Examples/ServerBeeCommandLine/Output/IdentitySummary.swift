import AuthSession
import ServerBeeModels
import ServerBeeTransport

/// Who is signed in, for `login`, `pair` and `status` output (never a secret).
struct IdentitySummary: Codable, Sendable, Hashable {
  var server: String
  var userID: String
  var username: String
  var role: String
  var installationID: String
  var mobileSessionID: String?

  enum CodingKeys: String, CodingKey {
    case server
    case userID = "user_id"
    case username, role
    case installationID = "installation_id"
    case mobileSessionID = "mobile_session_id"
  }

  /// The summary of an identity.
  init(_ identity: SessionIdentity) {
    server = identity.server.string
    userID = identity.user.id
    username = identity.user.username
    role = identity.user.role.rawValue
    installationID = identity.installationID
    mobileSessionID = identity.mobileSessionID
  }

  /// One line for people: `ada (admin) on https://…`.
  var sentence: String { TerminalText.safe("\(username) (\(role)) on \(server)") }
}
