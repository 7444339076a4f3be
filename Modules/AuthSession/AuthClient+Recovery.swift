import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

/// A QR-mode recovery grant (`sb_recover_…`), bound to the login it was issued for.
struct RecoveryGrant: Sendable {
  var loginID: String
  var token: String
}

extension AuthClient {
  /// Recovers a login that needs it (Protocol/Auth.md §9): proves the account and asks the server
  /// to delete the original session. It never creates a login.
  ///
  /// ```swift
  /// switch try await client.recoverSession(.pairingQRCode(scannedText)) {
  /// case .completed: showLogin()  // the old session is gone; sign in again
  /// case .selectionRequired(let candidates):
  ///   let chosen = try await askUser(candidates)
  ///   _ = try await client.recoverSession(selecting: chosen.mobileSessionID)
  /// }
  /// ```
  ///
  /// The request names the original session when it is known (the login's
  /// `mobile_session_id`, or a candidate chosen earlier and persisted). QR mode keeps the grant
  /// the server returns, in memory, for ``recoverSession(selecting:with:)``.
  /// - Parameter credential: The account proof.
  /// - Returns: ``RecoveryResult/completed(_:)`` (state becomes ``SessionState/signedOut``) or
  ///   ``RecoveryResult/selectionRequired(_:)``.
  /// - Throws: ``AuthSessionError``: `.recoveryNotRequired`,
  ///   `.pairingPayloadForAnotherServer`,
  ///   `.invalidPairingPayload`, and per status: 400
  ///   `.recoveryCodeRejected`; 401
  ///   `.invalidCredentials` (password mode) or
  ///   `.recoveryCodeRejected` (QR/grant); 403
  ///   `.mustChangePassword`; 404
  ///   `.unsupportedByServer` (state ``SessionState/serverTooOld(_:)``); 409
  ///   `.unresolvedIdentity`; 422 `.twoFactorRequired`
  ///   or `.invalidRequest`; 429 `.rateLimited`;
  ///   `.invalidResponse` when the answer breaks the validation rules.
  public func recoverSession(_ credential: RecoveryCredential) async throws -> RecoveryResult {
    let current = try recoveringRecord()
    return try await submitRecovery(
      current, authentication: try authentication(credential, current))
  }

  /// Chooses one of the offered candidates and asks the server to delete it.
  ///
  /// The choice is persisted before it is sent and can never change afterwards, so a lost answer
  /// or a restart retries exactly the same target. Without `credential`, the grant from the last
  /// QR-mode answer is used (grant mode).
  /// - Parameters:
  ///   - candidateID: The `mobile_session_id` of the chosen candidate.
  ///   - credential: The account proof for password mode; `nil` for grant mode.
  /// - Returns: The recovery result.
  /// - Throws: ``AuthSessionError``: `.invalidRecoveryCandidate` (not
  ///   offered, or another one was chosen before), `.recoveryGrantMissing`,
  ///   `.storageFailed`, and the errors of ``recoverSession(_:)``.
  public func recoverSession(
    selecting candidateID: String, with credential: RecoveryCredential? = nil
  )
    async throws -> RecoveryResult
  {
    var current = try recoveringRecord()
    if let known = current.targetSessionID {
      guard known.lowercased() == candidateID.lowercased() else {
        throw AuthSessionError(
          .invalidRecoveryCandidate, "another session was already chosen for recovery")
      }
    } else {
      guard let offered = offeredCandidates, offered.loginID == current.loginID,
        offered.ids.contains(candidateID.lowercased())
      else {
        throw AuthSessionError(.invalidRecoveryCandidate, "that session was not offered")
      }
      current.recoveryTargetID = candidateID
      try save(current)  // persisted before it is submitted (Protocol/Auth.md §9 iOS rules)
    }
    let authentication: RecoveryAuthentication
    if let credential {
      authentication = try self.authentication(credential, current)
    } else {
      guard let grant = recoveryGrant, grant.loginID == current.loginID else {
        throw AuthSessionError(
          .recoveryGrantMissing, "no recovery grant is held; scan a new QR code")
      }
      authentication = .recoveryGrant(grant.token)
    }
    return try await submitRecovery(current, authentication: authentication)
  }

  // MARK: Steps

  func recoveringRecord() throws -> LoginRecord {
    try ensureRestored()
    guard let record, record.status == .recoveryRequired else {
      throw AuthSessionError(.recoveryNotRequired, "no session needs recovery")
    }
    return record
  }

  func authentication(_ credential: RecoveryCredential, _ current: LoginRecord) throws
    -> RecoveryAuthentication
  {
    switch credential {
    case .password(let username, let password, let totpCode):
      return .password(username: username, password: password, totpCode: totpCode)
    case .pairingQRCode(let scanned):
      let payload = try Self.pairingPayload(scanned)
      guard payload.server == current.server else {
        throw AuthSessionError(
          .pairingPayloadForAnotherServer, "the QR code is for \(payload.server)")
      }
      return .pairingCode(payload.code)
    }
  }

  func submitRecovery(_ current: LoginRecord, authentication: RecoveryAuthentication) async throws
    -> RecoveryResult
  {
    let request = RecoverRequest(
      authentication: authentication, expectedUserID: current.user.id,
      installationID: current.installationID, expectedSessionID: current.targetSessionID,
      accessToken: current.accessToken, refreshToken: current.refreshToken,
      revocationToken: current.revocationToken ?? current.confirmedDeletionProof)
    let response = try await exchange(
      RouteCatalogue.Auth.recover, on: current.server, body: request)
    let isPasswordMode: Bool
    if case .password = authentication { isPasswordMode = true } else { isPasswordMode = false }
    guard response.status == 200 else {
      let failure = recoveryFailure(response, passwordMode: isPasswordMode)
      if failure.code == .unsupportedByServer {
        states.publish(.serverTooOld(current.identity))
      }
      if failure.code == .recoveryCodeRejected { recoveryGrant = nil }
      throw failure
    }
    let answer = try decodePayload(
      RecoveryResponse.self, from: response, path: RouteCatalogue.Auth.recover.template.text)
    try Self.validate(answer, for: current)
    guard let latest = record, latest.loginID == current.loginID else {
      throw AuthSessionError(.recoveryNotRequired, "the session changed during recovery")
    }
    if answer.outcome == .selectionRequired {
      offeredCandidates = (latest.loginID, Set(answer.candidates.map { $0.id.lowercased() }))
      if let token = answer.recoveryToken {
        recoveryGrant = RecoveryGrant(loginID: latest.loginID, token: token)
      }
      return .selectionRequired(answer.candidates)
    }
    try clearLogin()
    return .completed(answer.outcome)
  }

  func recoveryFailure(_ response: HTTPResponse, passwordMode: Bool) -> AuthSessionError {
    let path = RouteCatalogue.Auth.recover.template.text
    switch response.status {
    case 400:
      return AuthSessionError(
        .recoveryCodeRejected, "\(path): invalid recovery code", httpStatus: 400)
    case 401 where !passwordMode:
      return AuthSessionError(
        .recoveryCodeRejected, "\(path): the code or grant is invalid or expired", httpStatus: 401)
    case 404:
      return AuthSessionError(
        .unsupportedByServer, "\(path): the server does not support session recovery",
        httpStatus: 404)
    default:
      return Self.failure(response, path: path)
    }
  }

  /// The response validation rules of Protocol/Auth.md §9 (iOS `SessionRecoveryClient`).
  static func validate(_ answer: RecoveryResponse, for current: LoginRecord) throws {
    func invalid(_ why: String) -> AuthSessionError {
      AuthSessionError(
        .invalidResponse, "\(RouteCatalogue.Auth.recover.template.text): \(why)", httpStatus: 200)
    }
    guard answer.userID == current.user.id, answer.installationID == current.installationID else {
      throw invalid("the answer is for another user or installation")
    }
    let target = current.targetSessionID?.lowercased()
    switch answer.outcome {
    case .selectionRequired:
      guard target == nil else { throw invalid("a selection was offered for a known session") }
      guard answer.mobileSessionID == nil else { throw invalid("a selection named a session") }
      let ids = answer.candidates.map { $0.mobileSessionID.lowercased() }
      guard (1...64).contains(ids.count), Set(ids).count == ids.count, ids.allSatisfy(isUUID)
      else { throw invalid("the candidate list is malformed") }
    case .ok, .alreadyAbsent:
      guard answer.candidates.isEmpty else { throw invalid("candidates without a selection") }
      let returned = answer.mobileSessionID?.lowercased()
      if let target {
        guard returned == target else { throw invalid("the answer names another session") }
      } else if answer.outcome == .ok {
        guard let returned, isUUID(returned) else { throw invalid("ok without a session id") }
      } else {
        guard returned == nil else { throw invalid("already_absent named an unknown session") }
      }
    default:
      throw invalid("unknown outcome")
    }
  }

  func forgetRecoveryState() {
    recoveryGrant = nil
    offeredCandidates = nil
  }
}
