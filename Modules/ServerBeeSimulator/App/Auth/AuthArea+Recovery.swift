import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// `POST /api/mobile/auth/recover` (Protocol/Auth.md §9): delete the original session of a lost
// login, by password, by QR (a pair code) or with the grant a QR recovery handed out.

// The texts of recovery's refusals, on the core where the recovery tests compare them.
extension SimulatorCore {
  static let recoverShape =
    "Exactly one authentication mode and original mobile identity are required"
  static let cannotIdentify =
    "The original mobile session cannot be safely identified or confirmed absent"
  static let tooManySessions = "Too many mobile sessions share this installation to recover safely"
  static let freshQR = "New state requires a fresh recovery QR code"
}

extension AuthArea {
  private enum Mode {
    case password(String, String, String?)
    case qr(String)
    case grant(String)
  }

  private struct Original {
    var userID: String
    var installationID: String
    var accessToken: String
    var refreshToken: String
    var revocationToken: String?
    var expectedSessionID: String?

    /// What a grant is bound to: the account, installation and exact original credentials.
    var binding: String {
      SHA256.hex(
        [userID, installationID, accessToken, refreshToken, revocationToken ?? "\u{0}"]
          .joined(separator: "\u{1}"))
    }
  }

  func recover(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let original = Original(
      userID: try body.string("expected_user_id"),
      installationID: try body.string("installation_id"),
      accessToken: try body.string("access_token"), refreshToken: try body.string("refresh_token"),
      revocationToken: try body.optionalString("revocation_token"),
      expectedSessionID: try body.optionalString("expected_session_id"))
    let username = try body.optionalString("username")
    let password = try body.optionalString("password")
    let totp = try body.optionalString("totp_code")
    let pairing = try body.optionalString("pairing_code")
    let grant = try body.optionalString("recovery_token")
    let passwordMode = username != nil || password != nil
    let modeCount = [passwordMode, pairing != nil, grant != nil].filter { $0 }.count
    let required =
      [original.userID, original.installationID, original.accessToken]
      + [original.refreshToken]
    var mode: Mode?
    if modeCount == 1, !required.contains(where: \.isEmpty) {
      if passwordMode, let username, let password, !username.isEmpty, !password.isEmpty {
        mode = .password(username, password, totp)
      } else if let pairing, !pairing.isEmpty, totp == nil {
        mode = .qr(pairing)
      } else if let grant, !grant.isEmpty, totp == nil {
        mode = .grant(grant)
      }
    }
    guard let mode else { throw APIError.validation(SimulatorCore.recoverShape) }
    if let expected = original.expectedSessionID, !UUIDText.isCanonical(expected) {
      throw APIError.validation("Invalid expected_session_id")
    }
    guard core.consumeLoginAttempt(context.remoteAddress) else {
      throw APIError.tooManyRequests("Too many login attempts. Please try again later.")
    }
    switch mode {
    case .password(let username, let password, let totp):
      let user = try verifyCredentials(username: username, password: password, totpCode: totp)
      try checkAccount(user, original)
      let (outcome, id, candidates) = try resolve(user: user, original)
      return Reply.data(
        RecoveryResponse(
          outcome: outcome, userID: original.userID, installationID: original.installationID,
          mobileSessionID: id, candidates: candidates, recoveryToken: nil))
    case .qr(let code):
      return try recoverWithPairingCode(code, original)
    case .grant(let token):
      return try recoverWithGrant(token, original)
    }
  }

  private func checkAccount(_ user: UserRow, _ original: Original) throws {
    guard user.id == original.userID else { throw APIError.unauthorized }
    guard !user.mustChangePassword else { throw APIError.forbidden(Self.mustChangeMobile) }
  }

  private func recoverWithPairingCode(_ code: String, _ original: Original) throws -> HTTPResponse {
    guard let (entry, expired) = takePairCode(code), !expired,
      entry.userID == original.userID, let user = try core.user(id: entry.userID)
    else { throw APIError.unauthorized }
    // The account snapshot taken at generation must still hold (Protocol/Auth.md §9).
    var snapshot = entry.snapshot
    snapshot.mustChangePassword = user.mustChangePassword
    guard snapshot == user else { throw APIError.unauthorized }
    try checkAccount(user, original)
    let live =
      try db.scalar(
        "SELECT COUNT(*) FROM recovery_grants WHERE expires_at > ?", [.int(now)]
      ).int ?? 0
    guard live < 128 else {
      throw APIError.tooManyRequests("Too many recovery attempts. Please try again later.")
    }
    return try db.transaction {
      let (outcome, id, candidates) = try resolve(user: user, original)
      let token = "sb_recover_" + Crypto.token(random)
      let final: String? =
        switch outcome {
        case .ok: "done"
        case .alreadyAbsent: id == nil ? "absent_none" : "done"
        default: nil
        }
      let frozen = String(decoding: try WireJSON.encode(candidates), as: UTF8.self)
      try db.execute(
        "INSERT INTO recovery_grants VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)",
        [
          .text(SHA256.hex(token)), .text(user.id), .text(original.installationID),
          .text(original.binding), .text(frozen), final.sql, id.sql, .int(now),
          .int(now + settings.recoveryGrantTTL * Self.second),
        ])
      return Reply.data(
        RecoveryResponse(
          outcome: outcome, userID: original.userID, installationID: original.installationID,
          mobileSessionID: id, candidates: candidates, recoveryToken: token))
    }
  }

  private func recoverWithGrant(_ token: String, _ original: Original) throws -> HTTPResponse {
    let hash = SHA256.hex(token)
    guard
      let grant = try db.query(
        "SELECT * FROM recovery_grants WHERE token_hash = ? AND expires_at > ?",
        [.text(hash), .int(now)]
      ).first,
      grant["binding"].text == original.binding, grant["user_id"].text == original.userID,
      let user = try core.user(id: original.userID)
    else { throw APIError.unauthorized }
    try checkAccount(user, original)
    func answer(_ outcome: RecoveryOutcome, _ id: String?, _ candidates: [RecoveryCandidate] = [])
      -> HTTPResponse
    {
      Reply.data(
        RecoveryResponse(
          outcome: outcome, userID: original.userID, installationID: original.installationID,
          mobileSessionID: id, candidates: candidates, recoveryToken: token))
    }
    let expected = original.expectedSessionID
    switch grant["final_state"].text {
    case "done":
      let finalID = grant["final_session_id"].text
      if let expected, expected != finalID { throw APIError.unauthorized }
      return answer(.alreadyAbsent, finalID)
    case "absent_none":
      guard expected == nil else { throw APIError.unauthorized }
      let ids = try identities(user: user, original)
      let candidates = try candidateList(user: user, installationID: original.installationID)
      guard ids.isEmpty, candidates.isEmpty else { throw APIError.conflict(SimulatorCore.freshQR) }
      return answer(.alreadyAbsent, nil)
    default:
      let frozen =
        (try? WireJSON.decode(
          [RecoveryCandidate].self, from: Data((grant["candidates_json"].text ?? "[]").utf8)))
        ?? []
      guard let expected else { return answer(.selectionRequired, nil, frozen) }
      if let pinned = grant["pinned_session_id"].text, pinned != expected {
        throw APIError.unauthorized
      }
      guard frozen.contains(where: { $0.mobileSessionID == expected }) else {
        throw APIError.unauthorized
      }
      try db.execute(
        "UPDATE recovery_grants SET pinned_session_id = ? WHERE token_hash = ?",
        [.text(expected), .text(hash)])
      let ids = try identities(user: user, original)
      let outcome = try resolveExpected(expected, user: user, original, ids)
      try db.execute(
        "UPDATE recovery_grants SET final_state = 'done', final_session_id = ? WHERE token_hash = ?",
        [.text(expected), .text(hash)])
      return answer(outcome, expected)
    }
  }

  /// The outcome, session id and candidates for a verified account (Protocol/Auth.md §9
  /// "Identifying").
  private func resolve(user: UserRow, _ original: Original) throws -> (
    RecoveryOutcome, String?, [RecoveryCandidate]
  ) {
    let ids = try identities(user: user, original)
    if let expected = original.expectedSessionID {
      return (try resolveExpected(expected, user: user, original, ids), expected, [])
    }
    guard ids.count <= 1 else { throw APIError.conflict(SimulatorCore.cannotIdentify) }
    if let id = ids.first {
      guard try core.mobileSession(id: id) != nil else {
        throw APIError.conflict(SimulatorCore.cannotIdentify)
      }
      try core.deleteMobileSession(id)
      return (.ok, id, [])
    }
    let candidates = try candidateList(user: user, installationID: original.installationID)
    return candidates.isEmpty ? (.alreadyAbsent, nil, []) : (.selectionRequired, nil, candidates)
  }

  private func resolveExpected(
    _ expected: String, user: UserRow, _ original: Original, _ ids: Set<String>
  ) throws -> RecoveryOutcome {
    guard ids.allSatisfy({ $0 == expected }) else { throw APIError.unauthorized }
    if let session = try core.mobileSession(id: expected) {
      guard session.userID == user.id, session.installationID == original.installationID else {
        throw APIError.unauthorized
      }
      try core.deleteMobileSession(expected)
      return .ok
    }
    guard try !hasDanglingState(expected) else {
      throw APIError.conflict(SimulatorCore.cannotIdentify)
    }
    return .alreadyAbsent
  }

  /// Every session id the original credentials point at; 401 when one points elsewhere.
  private func identities(user: UserRow, _ original: Original) throws -> Set<String> {
    var ids = Set<String>()
    if let access = try db.query(
      "SELECT * FROM access_sessions WHERE token_hash = ?",
      [.text(SHA256.hex(original.accessToken))]
    ).first {
      guard access["source"].text == "mobile", access["user_id"].text == user.id,
        let id = access["mobile_session_id"].text
      else { throw APIError.unauthorized }
      ids.insert(id)
    }
    for token in [original.refreshToken, original.revocationToken].compactMap({ $0 }) {
      guard let owner = try proofOwner(SHA256.hex(token)) else { continue }
      if let session = try core.mobileSession(id: owner) {
        guard session.userID == user.id, session.installationID == original.installationID else {
          throw APIError.unauthorized
        }
      }
      ids.insert(owner)
    }
    let onInstallation = try db.query(
      "SELECT * FROM mobile_sessions WHERE installation_id = ?", [.text(original.installationID)]
    ).map(MobileSessionRow.init)
    guard onInstallation.count <= 64 else { throw APIError.conflict(SimulatorCore.tooManySessions) }
    let refreshHash = SHA256.hex(original.refreshToken)
    for session in onInstallation where session.refreshHash == refreshHash {
      guard session.userID == user.id else { throw APIError.unauthorized }
      ids.insert(session.id)
    }
    return ids
  }

  private func candidateList(user: UserRow, installationID: String) throws -> [RecoveryCandidate] {
    let sessions = try db.query(
      """
      SELECT * FROM mobile_sessions WHERE user_id = ? AND installation_id = ?
      ORDER BY created_at DESC
      """, [.text(user.id), .text(installationID)]
    ).map(MobileSessionRow.init)
    guard sessions.count <= 64 else { throw APIError.conflict(SimulatorCore.tooManySessions) }
    let orphans =
      try db.scalar(
        """
        SELECT COUNT(*) FROM access_sessions a WHERE a.user_id = ? AND a.source = 'mobile'
          AND NOT EXISTS (SELECT 1 FROM mobile_sessions m WHERE m.id = a.mobile_session_id)
        """, [.text(user.id)]
      ).int ?? 0
    guard orphans == 0 else { throw APIError.conflict(SimulatorCore.cannotIdentify) }
    return sessions.map {
      RecoveryCandidate(
        mobileSessionID: $0.id, deviceName: $0.deviceName,
        createdAt: timestamp($0.createdAt, .utcOffset),
        lastUsedAt: timestamp($0.lastUsedAt, .utcOffset))
    }
  }
}
