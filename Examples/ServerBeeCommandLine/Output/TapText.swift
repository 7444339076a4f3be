import DeepLinkValidation
import ServerBeeModels

/// The sentences for tap reasons.
enum TapText {
  /// The wire-style name of a reason, for `--json`.
  static func key(_ reason: TapUnavailableReason) -> String {
    switch reason {
    case .noEnvelope: "no_envelope"
    case .malformedEnvelope: "malformed_envelope"
    case .legacyOnly: "legacy_only"
    case .signedOut: "signed_out"
    case .noKey: "no_key"
    case .otherScope: "other_scope"
    case .otherServer: "other_server"
    case .otherUser: "other_user"
    case .otherInstallation: "other_installation"
    case .decryptFailed: "decrypt_failed"
    case .alertNotFound: "alert_not_found"
    case .taskRunUnavailable: "task_run_unavailable"
    case .securityEventUnavailable: "security_event_unavailable"
    case .notAdmin: "not_admin"
    case .accountChanged: "account_changed"
    case .cancelled: "cancelled"
    }
  }

  /// Why a fallback screen is shown.
  static func explanation(_ reason: TapUnavailableReason) -> String {
    switch reason {
    case .alertNotFound:
      "The alert is gone: it re-armed into a new cycle, or its rule or state was deleted. A "
        + "notification never opens a later cycle."
    case .taskRunUnavailable:
      "The task run's results are unavailable: the task was deleted, the run is unknown, or "
        + "this account may no longer read it."
    case .securityEventUnavailable:
      "The security event is unavailable: it or its server was deleted, or it could not be "
        + "loaded."
    case .notAdmin:
      "This account is not an admin (any more): only admins open task runs and security events."
    default:
      refusal(reason)
    }
  }

  /// Why a tap opens nothing (the one line on stderr).
  static func refusal(_ reason: TapUnavailableReason) -> String {
    let nothing = ": nothing to open"
    switch reason {
    case .noEnvelope: return "the payload has no serverbee_envelope" + nothing
    case .malformedEnvelope:
      return "the payload is not JSON with a valid serverbee_envelope" + nothing
    case .legacyOnly:
      return "the payload has only legacy keys (server_id, serverbee_target), which never "
        + "open anything"
    case .signedOut: return "not signed in: run 'serverbee login' or 'serverbee pair' first"
    case .noKey:
      return "no push content key is stored for this login (run 'serverbee notifications "
        + "enable')" + nothing
    case .otherScope:
      return "the stored content key belongs to another login (another account, or an "
        + "earlier login of this one)" + nothing
    case .otherServer: return "the stored content key belongs to another server" + nothing
    case .otherUser: return "the stored content key belongs to another user" + nothing
    case .otherInstallation:
      return "the stored content key belongs to another installation" + nothing
    case .decryptFailed(let code):
      return "the notification did not validate for this login (\(code.rawValue))" + nothing
    case .accountChanged: return "the login changed while loading" + nothing
    case .cancelled: return "cancelled"
    case .alertNotFound, .taskRunUnavailable, .securityEventUnavailable, .notAdmin:
      return explanation(reason)
    }
  }
}
