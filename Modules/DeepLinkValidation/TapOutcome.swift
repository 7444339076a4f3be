public import PushEnvelopeCrypto
public import ServerBeeModels

/// Why a tap opens nothing, or only a safe fallback screen.
public enum TapUnavailableReason: Hashable, Sendable {
  /// The callback had no `serverbee_envelope` (and no legacy keys).
  case noEnvelope
  /// The `serverbee_envelope` was not a valid envelope object.
  case malformedEnvelope
  /// The callback had only legacy keys (`server_id`, `serverbee_target`).
  case legacyOnly
  /// No login is stored.
  case signedOut
  /// No content key is stored (or it could not be read).
  case noKey
  /// The key belongs to another login: another account, or a replacement login of this one.
  case otherScope
  /// The key was registered with another server URL.
  case otherServer
  /// The key belongs to another user.
  case otherUser
  /// The key belongs to another installation.
  case otherInstallation
  /// Re-decrypting the envelope with the tap purpose failed; the code names the rule.
  case decryptFailed(PushEnvelopeCryptoError.Code)
  /// The alert is gone: deleted, re-armed (a new cycle), or any non-200 answer.
  case alertNotFound
  /// The task run's results are unavailable: deleted task, unknown run, lost permission, or an
  /// answer holding rows of another run.
  case taskRunUnavailable
  /// The security event is unavailable: a failed request, a mismatched server or event.
  case securityEventUnavailable
  /// The current user is not an admin (or no longer one), or `GET /api/auth/me` answered
  /// another user.
  case notAdmin
  /// The login changed while loading; the answers were discarded.
  case accountChanged
  /// The task handling the tap was cancelled while loading.
  case cancelled

  /// What the app shows for this reason.
  public var fallback: TapFallback {
    switch self {
    case .noEnvelope, .malformedEnvelope, .legacyOnly, .signedOut, .noKey, .otherScope,
      .otherServer, .otherUser, .otherInstallation, .decryptFailed, .accountChanged, .cancelled:
      return .noNavigation
    case .alertNotFound:
      return .alertNotFound
    case .taskRunUnavailable, .securityEventUnavailable, .notAdmin:
      return .unavailable
    }
  }
}

/// The safe screen for a tap that cannot open its item; it never opens a different item.
public enum TapFallback: Hashable, Sendable {
  /// Stay where the app is: the tap is not for this login, or its envelope did not validate.
  case noNavigation
  /// "Alert not found" with a "Back to alerts" action.
  case alertNotFound
  /// A dismissible "unavailable" screen.
  case unavailable

  /// The screen's title, or `nil` for ``noNavigation``.
  public var title: String? {
    switch self {
    case .noNavigation: nil
    case .alertNotFound: "Alert not found"
    case .unavailable: "Unavailable"
    }
  }

  /// The title of the screen's one action, or `nil` for ``noNavigation``.
  public var actionTitle: String? {
    switch self {
    case .noNavigation: nil
    case .alertNotFound: "Back to alerts"
    case .unavailable: "Dismiss"
    }
  }
}

/// Where a validated and loaded tap opens.
public enum TapDestination: Hashable, Sendable {
  /// The alert detail, loaded by its `v1.` key.
  case alertDetail(AlertEventDetail)
  /// One task run's result rows (every row has the target's run id).
  case taskRunResults(taskID: String, runID: String, results: [TaskResult])
  /// One security event (its server is the target's).
  case securityEvent(SecurityEvent)
  /// The current account's home screen.
  case home
}

/// The end of handling one tap.
public enum TapOutcome: Hashable, Sendable {
  /// Open this destination.
  case open(TapDestination)
  /// Show ``TapUnavailableReason/fallback`` for this reason.
  case unavailable(TapUnavailableReason)
}
