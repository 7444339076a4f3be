public import ServerBeeModels

/// The error domain of the AuthSession module.
public enum AuthSessionDomain: ServerBeeErrorDomain {
  /// `"AuthSession"`.
  public static let name = "AuthSession"
}

/// The one public error type of AuthSession: a `ServerBeeError` (ServerBeeModels) with this
/// module's codes.
///
/// Match on the code; `isTransient` says whether trying again later can help:
///
/// ```swift
/// do {
///   _ = try await client.login(server: url, username: name, password: secret)
/// } catch let error as AuthSessionError where error.code == .logoutJournalFull {
///   // Ask the user to reconnect so pending logouts can finish.
/// }
/// ```
///
/// Messages never contain a token, proof, password or code.
public typealias AuthSessionError = ServerBeeError<AuthSessionDomain>

extension ServerBeeError.Code where Domain == AuthSessionDomain {
  /// The server URL is not a valid `http`/`https` base URL (Protocol/Auth.md §9 normalisation).
  public static let invalidServerURL = Self("invalid_server_url")
  /// A scanned text is not a ServerBee pairing payload (not JSON, wrong `type`, missing fields).
  public static let invalidPairingPayload = Self("invalid_pairing_payload")
  /// A scanned pairing payload names another server than the expected one.
  public static let pairingPayloadForAnotherServer = Self("pairing_payload_for_another_server")
  /// The server refused the pairing code: unknown, used, invalidated or expired (HTTP 400).
  public static let pairingCodeRejected = Self("pairing_code_rejected")
  /// Wrong user name, password or TOTP code (HTTP 401).
  public static let invalidCredentials = Self("invalid_credentials")
  /// The account has two-factor authentication; ask for a TOTP code and try again (HTTP 422).
  public static let twoFactorRequired = Self("two_factor_required")
  /// The account must change its password in the web UI before using mobile (HTTP 403).
  public static let mustChangePassword = Self("must_change_password")
  /// The server refused the caller (HTTP 403 without a password-change flag).
  public static let notPermitted = Self("not_permitted")
  /// Too many attempts from this address; try again later (HTTP 429).
  public static let rateLimited = Self("rate_limited")
  /// The server rejected the request as malformed (HTTP 400/415/422). A client bug, not transient.
  public static let invalidRequest = Self("invalid_request")
  /// The server could not be reached, or the exchange failed on the way (transient).
  public static let networkFailure = Self("network_failure")
  /// The server answered with a 5xx or another status this operation does not expect,
  /// including a redirect (transient).
  public static let serverError = Self("server_error")
  /// The server answered 200 with a body that could not be decoded or failed validation
  /// (transient).
  public static let invalidResponse = Self("invalid_response")
  /// A refresh answer named another user or another mobile session; it was refused.
  public static let identityMismatch = Self("identity_mismatch")
  /// The server permanently rejected the session's credentials (refresh 401/403).
  public static let sessionRejected = Self("session_rejected")
  /// The server refused the deletion credential of a logout (revoke 401/403); the session now
  /// needs recovery.
  public static let revocationRejected = Self("revocation_rejected")
  /// The credential store failed; nothing destructive was done.
  public static let storageFailed = Self("storage_failed")
  /// No session is signed in.
  public static let notSignedIn = Self("not_signed_in")
  /// A session is already signed in; log out before signing in again.
  public static let alreadySignedIn = Self("already_signed_in")
  /// The session needs recovery (Protocol/Auth.md §9) before anything else can be done with it.
  public static let recoveryRequired = Self("recovery_required")
  /// The operation is only for a session that needs recovery, and this one does not.
  public static let recoveryNotRequired = Self("recovery_not_required")
  /// The offline-logout journal holds 16 unresolved entries; a new login is refused until
  /// pending cleanups complete.
  public static let logoutJournalFull = Self("logout_journal_full")
  /// The server does not support this operation (a v1 server: no `mobile_session_id`, or an
  /// empty-body 404 from a v2 route).
  public static let unsupportedByServer = Self("unsupported_by_server")
  /// A recovery pairing code or grant is unknown, used or expired (HTTP 400, or 401 in QR and
  /// grant modes). Scan a new QR code.
  public static let recoveryCodeRejected = Self("recovery_code_rejected")
  /// The server cannot safely identify the original session or confirm it is gone (HTTP 409).
  public static let unresolvedIdentity = Self("unresolved_identity")
  /// The chosen recovery candidate was not offered, or differs from the one already chosen.
  public static let invalidRecoveryCandidate = Self("invalid_recovery_candidate")
  /// No recovery grant is held (the QR step was not done in this process, or it was spent);
  /// scan a new QR code or use password mode.
  public static let recoveryGrantMissing = Self("recovery_grant_missing")
  /// A request would send the session's bearer token to a host other than its server.
  public static let foreignHost = Self("foreign_host")
}

extension ServerBeeError where Domain == AuthSessionDomain {
  /// Whether the failure is temporary and the same operation may succeed later with the same
  /// credentials: `.networkFailure`, `.serverError` and
  /// `.invalidResponse`.
  public var isTransient: Bool {
    code == .networkFailure || code == .serverError || code == .invalidResponse
  }
}
