import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Pair codes (Protocol/Auth.md §5.1): one live code per user, kept in
// memory, redeemed once for a new mobile session or spent by QR recovery.

/// A pair code kept in memory (Protocol/Auth.md §5.1: lost on restart), with the account snapshot
/// taken at generation for QR recovery (Protocol/Auth.md §5.1).
struct PairCode: Sendable {
  var userID: String
  var createdAt: Int64
  var snapshot: UserRow
}

extension AuthArea {
  func generatePairCode(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    return Reply.data(makePairCode(for: caller.user))
  }

  /// One live code per user; expired codes are purged (Protocol/Auth.md §5.1).
  func makePairCode(for user: UserRow) -> PairCodeResponse {
    let code = "sb_pair_" + Crypto.token(random)
    let now = self.now
    let ttl = settings.pairCodeTTL * Self.second
    core.pairCodes.withLock { codes in
      codes = codes.filter { $0.value.userID != user.id && now - $0.value.createdAt < ttl }
      codes[code] = PairCode(userID: user.id, createdAt: now, snapshot: user)
    }
    return PairCodeResponse(code: code, expiresInSeconds: settings.pairCodeTTL)
  }

  /// Removes a code before its age is checked (it is used up either way).
  func takePairCode(_ code: String) -> (PairCode, expired: Bool)? {
    let now = self.now
    let ttl = settings.pairCodeTTL * Self.second
    guard let entry = core.pairCodes.withLock({ $0.removeValue(forKey: code) }) else { return nil }
    return (entry, now - entry.createdAt >= ttl)
  }

  func redeemPairCode(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let code = try body.string("code")
    let installationID = try body.string("installation_id")
    let deviceName = try body.string("device_name")
    guard !code.isEmpty, !installationID.isEmpty, !deviceName.isEmpty else {
      throw APIError.validation("code, installation_id, and device_name are required")
    }
    guard let (entry, expired) = takePairCode(code) else {
      throw APIError.badRequest("Invalid pairing code")
    }
    guard !expired else { throw APIError.badRequest("Pairing code has expired") }
    guard let user = try core.user(id: entry.userID) else {
      throw APIError.badRequest("User not found")
    }
    return Reply.data(
      try createMobileSession(user: user, installationID: installationID, deviceName: deviceName))
  }

  func controlPairCode(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    guard let user = try core.user(id: context.parameter(0)) else {
      throw APIError.notFound("User not found")
    }
    let code = makePairCode(for: user)
    let base = try body.optionalString("server_url") ?? core.serverURL.withLock { $0 }
    let server = try ServerURL(base)
    return Reply.object([
      ("code", .string(code.code)), ("expires_in_secs", .number(Double(code.expiresInSeconds))),
      ("qr_text", .string(PairingPayload(server: server, code: code.code).qrText)),
    ])
  }
}
