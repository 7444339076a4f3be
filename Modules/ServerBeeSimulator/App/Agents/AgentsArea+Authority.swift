import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// A server's agent authority as a small state machine (Protocol/Agents.md §1, §3–§7): claimed
// or not (`servers.agent_claimed`), and at most one open offer (`enrollment_offers` with
// outcome `outstanding`). An offer ends as `consumed`, `revoked`, `replaced` or `expired`.
//
// [inferred], as Protocol/Agents.md §10 records:
// - an offer lapses on the simulator clock and is marked `expired` when the server's offers
//   are next read; a lapsed offer is never "open";
// - the checks run in the order listed (404, the claim, the open offer, then the ttl);
// - with at most one open offer a server cannot have an open offer that is not the current
//   one, so `ENROLLMENT_OFFER_STALE` is never answered here;
// - revoking an offer that ended another way names its outcome as replace does;
// - every change of the claim or the open offer broadcasts `agent_authority_changed`, and
//   touches the server's row so the lists and `full_sync` show it.

extension AgentsArea {
  /// `POST /api/servers/{id}/agent-authority/offers {ttl_secs?}` (admin).
  func issueEnrollment(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let ttl = try Self.ttl(context.jsonBody())
    let id = context.parameter(0)
    let claimed = try claimed(id)
    if claimed {
      throw APIError.domain(
        409, .agentAuthorityAlreadyClaimed,
        "server authority is already claimed; begin re-enrollment instead", details: nil)
    }
    if let open = try openOffer(id) { throw try Self.outstanding(open) }
    let issue = try mint(serverID: id, ttl: ttl)
    try authorityChanged(id)
    return Reply.data(EnrollmentOfferResponse(enrollment: issue))
  }

  /// `POST /api/servers/{id}/agent-authority/offers/{offer_id}/replace` (admin): the body is
  /// not read and the new code lives 600 s.
  func replaceEnrollment(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    _ = try claimed(id)
    let outcome = try offerOutcome(serverID: id, offerID: context.parameter(1))
    guard outcome == "outstanding" else {
      throw APIError.domain(
        409, .enrollmentOfferTerminal, "enrollment offer is already \(outcome)",
        details: try openOffer(id).map(Self.details))
    }
    try db.execute(
      "UPDATE enrollment_offers SET outcome = 'replaced' WHERE id = ?",
      [.text(context.parameter(1))])
    let issue = try mint(serverID: id, ttl: Self.defaultTTL)
    try authorityChanged(id)
    return Reply.data(EnrollmentOfferResponse(enrollment: issue))
  }

  /// `DELETE /api/servers/{id}/agent-authority/offers/{offer_id}` (admin): twice is fine.
  func revokeEnrollment(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    let offerID = context.parameter(1)
    _ = try claimed(id)
    let outcome = try offerOutcome(serverID: id, offerID: offerID)
    switch outcome {
    case "revoked":
      return Reply.data(RevokeOfferResponse(offerID: offerID, alreadyRevoked: true))
    case "outstanding":
      try db.execute(
        "UPDATE enrollment_offers SET outcome = 'revoked' WHERE id = ?", [.text(offerID)])
      try authorityChanged(id)
      return Reply.data(RevokeOfferResponse(offerID: offerID, alreadyRevoked: false))
    default:
      throw APIError.domain(
        409, .enrollmentOfferTerminal, "enrollment offer is already \(outcome)", details: nil)
    }
  }

  /// `POST /api/servers/{id}/agent-authority/re-enrollment {mode, ttl_secs?}` (admin).
  func reEnroll(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let mode = try body.string("mode")
    guard mode == "graceful" || mode == "emergency" else {
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: mode: unknown variant `\(mode)`, expected `graceful` or `emergency`"
      )
    }
    let ttl = try Self.ttl(body)
    let id = context.parameter(0)
    guard try claimed(id) else {
      throw APIError.domain(
        409, .agentAuthorityUnclaimed, "server authority is Unclaimed; issue an offer instead",
        details: nil)
    }
    if let open = try openOffer(id) { throw try Self.outstanding(open) }
    if mode == "emergency" { try cutOff(id) }
    let issue = try mint(serverID: id, ttl: ttl)
    try authorityChanged(id)
    return Reply.data(EnrollmentOfferResponse(enrollment: issue))
  }

  /// `DELETE /api/servers/{id}/agent-authority` (admin): unclaimed, no open offer, agent gone.
  func revokeAgentAuthority(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    let wasClaimed = try claimed(id)
    let open = try openOffer(id)
    if let open {
      try db.execute(
        "UPDATE enrollment_offers SET outcome = 'revoked' WHERE id = ?", [.text(open.id)])
    }
    if wasClaimed { try cutOff(id) }
    let changed = wasClaimed || open != nil
    if changed { try authorityChanged(id) }
    return Reply.data(RevokeAuthorityResponse(serverID: id, changed: changed))
  }

  /// `POST /__simulator/servers/{id}/enroll {code}`: what an agent does with its code. The
  /// open offer is consumed, the server claimed and online.
  func controlEnroll(_ context: RequestContext) throws -> HTTPResponse {
    let id = context.parameter(0)
    let code = try context.controlBody().string("code")
    _ = try claimed(id)
    guard let open = try openOffer(id),
      let row = try db.query(
        "SELECT code_hash FROM enrollment_offers WHERE id = ?", [.text(open.id)]
      ).first,
      row["code_hash"].text == SHA256.hex(code)
    else { throw APIError.badRequest("enrollment code is not the open offer's") }
    try db.execute(
      "UPDATE enrollment_offers SET outcome = 'consumed' WHERE id = ?", [.text(open.id)])
    try db.execute(
      "UPDATE servers SET agent_claimed = 1, updated_at = ? WHERE id = ?", [.int(now), .text(id)])
    try core.setPresence(serverID: id, online: true)
    try authorityChanged(id)
    return Reply.object([("server_id", .string(id)), ("claimed", .bool(true))])
  }

  // MARK: State

  /// The default and only lifetime of a replaced code, in seconds.
  static let defaultTTL: Int64 = 600

  /// `ttl_secs` of a body: 1–86400, 600 when absent.
  /// - Throws: ``APIError/badRequest(_:)`` `offer ttl must be between 1 and 86400 seconds`.
  static func ttl(_ body: JSONBody) throws -> Int64 {
    guard let ttl = try body.int("ttl_secs") else { return defaultTTL }
    guard (1...86_400).contains(ttl) else {
      throw APIError.badRequest("offer ttl must be between 1 and 86400 seconds")
    }
    return ttl
  }

  /// Whether the server's agent holds it.
  /// - Throws: ``APIError/notFound(_:)`` `server not found`.
  func claimed(_ serverID: String) throws -> Bool {
    guard
      let row = try db.query(
        "SELECT agent_claimed FROM servers WHERE id = ?", [.text(serverID)]
      ).first
    else { throw APIError.notFound("server not found") }
    return row["agent_claimed"].int == 1
  }

  /// The server's open offer, after marking its lapsed ones `expired`.
  func openOffer(_ serverID: String) throws -> OutstandingOffer? {
    try expireLapsed(serverID)
    return try db.query(
      """
      SELECT id, code_prefix, expires_at, created_at FROM enrollment_offers
      WHERE server_id = ? AND outcome = 'outstanding' ORDER BY created_at DESC LIMIT 1
      """, [.text(serverID)]
    ).first.map {
      OutstandingOffer(
        id: $0["id"].text ?? "", codePrefix: $0["code_prefix"].text ?? "",
        expiresAt: timestamp($0["expires_at"].int ?? 0, .utcOffset),
        createdAt: timestamp($0["created_at"].int ?? 0, .utcOffset))
    }
  }

  /// The outcome of one of the server's offers, lapsed ones marked first.
  /// - Throws: ``APIError/notFound(_:)`` `enrollment offer not found` (also for another
  ///   server's offer).
  func offerOutcome(serverID: String, offerID: String) throws -> String {
    try expireLapsed(serverID)
    guard
      let row = try db.query(
        "SELECT outcome FROM enrollment_offers WHERE id = ? AND server_id = ?",
        [.text(offerID), .text(serverID)]
      ).first, let outcome = row["outcome"].text
    else { throw APIError.notFound("enrollment offer not found") }
    return outcome
  }

  /// Marks lapsed offers `expired` (every server's: ``SimulatorCore/expireLapsedOffers()``).
  private func expireLapsed(_ serverID: String) throws {
    try core.expireLapsedOffers()
  }

  /// A new open offer: a 43-character code kept only as its SHA-256 and first 8 characters.
  func mint(serverID: String, ttl: Int64) throws -> EnrollmentIssue {
    let id = Crypto.uuid(random)
    let code = Crypto.token(random)
    let prefix = String(code.prefix(8))
    let expires = now + ttl * Self.second
    try db.execute(
      "INSERT INTO enrollment_offers VALUES (?, ?, ?, ?, 'outstanding', ?, ?)",
      [
        .text(id), .text(serverID), .text(SHA256.hex(code)), .text(prefix), .int(expires),
        .int(now),
      ])
    core.offerOpened(expiresAt: expires)
    return EnrollmentIssue(
      id: id, code: code, codePrefix: prefix, expiresAt: timestamp(expires, .utcOffset))
  }

  /// The agent is disconnected and its token cleared: unclaimed and offline.
  private func cutOff(_ serverID: String) throws {
    try db.execute(
      "UPDATE servers SET agent_claimed = 0, updated_at = ? WHERE id = ?",
      [.int(now), .text(serverID)])
    try core.setPresence(serverID: serverID, online: false)
  }

  /// Touches the server's row, so the lists show the change, and broadcasts its authority as
  /// it now is.
  func authorityChanged(_ serverID: String) throws {
    try core.announceAuthority(serverID)
  }

  /// `{"current_offer": offer}`.
  static func details(_ offer: OutstandingOffer) throws -> JSONValue {
    let value = try WireJSON.decode(JSONValue.self, from: try WireJSON.encode(offer))
    return .object([(key: "current_offer", value: value)])
  }

  /// 409 `ENROLLMENT_OFFER_OUTSTANDING` naming the open offer.
  static func outstanding(_ offer: OutstandingOffer) throws -> APIError {
    .domain(
      409, .enrollmentOfferOutstanding, "an Outstanding enrollment offer already exists",
      details: try details(offer))
  }
}
