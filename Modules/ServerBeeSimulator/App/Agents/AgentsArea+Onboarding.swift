import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// `POST /api/servers`: a pending server and its first code, idempotent per (caller, request id)
// (Protocol/Agents.md §2).
//
// [inferred], as Protocol/Agents.md §10 records:
// - the checks run in the order of the error list: request id, ttl, name, price, billing
//   cycle, traffic limit type, billing start day, then the tags (422);
// - "the same normalized input" is the trimmed name, the canonical tags, the ttl with its
//   default, and every other key as sent (absent and `null` alike);
// - a replay names the server's open offer even after the server was claimed;
// - a request id whose server was deleted starts over with a new server;
// - a `group_id` naming no group is the 500 of a broken foreign key;
// - the server limit is not simulated.

extension AgentsArea {
  /// `POST /api/servers` (admin).
  func createServer(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let requestID = try body.string("onboarding_request_id")
    let rawName = try body.string("name")
    guard (1...128).contains(requestID.count),
      !requestID.unicodeScalars.contains(where: { $0.properties.isWhitespace })
    else {
      throw APIError.badRequest(
        "onboarding request id must be 1-128 non-whitespace characters")
    }
    let ttl = try Self.ttl(body)
    let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw APIError.badRequest("name is required") }
    let price = try body.double("price")
    if let price, !price.isFinite || price < 0 {
      throw APIError.badRequest("price must be finite and greater than or equal to 0")
    }
    let cycle = try body.optionalString("billing_cycle")
    if let cycle, !["monthly", "quarterly", "yearly"].contains(cycle) {
      throw APIError.badRequest("billing_cycle must be monthly, quarterly, or yearly")
    }
    let limitType = try body.optionalString("traffic_limit_type")
    if let limitType, !["sum", "up", "down"].contains(limitType) {
      throw APIError.badRequest("traffic_limit_type must be sum, up, or down")
    }
    let startDay = try body.int("billing_start_day")
    if let startDay, !(1...28).contains(startDay) {
      throw APIError.badRequest("billing_start_day must be between 1 and 28")
    }
    let tags = try ServersArea.canonicalTags(try body.strings("tags") ?? [])
    let groupID = try body.optionalString("group_id")
    let input = try Self.normalizedInput(body, name: name, tags: tags, ttl: ttl)
    let userID = caller?.user.id ?? ""

    if let earlier = try db.query(
      "SELECT input, server_id FROM onboarding_requests WHERE user_id = ? AND request_id = ?",
      [.text(userID), .text(requestID)]
    ).first, let serverID = earlier["server_id"].text {
      guard earlier["input"].text == input else {
        throw APIError.domain(
          409, .onboardingIdempotencyConflict,
          "onboarding_request_id was already used with different input", details: nil)
      }
      return Reply.data(
        CreateServerResponse(
          serverID: serverID, replayed: true, enrollment: nil,
          outstandingOffer: try openOffer(serverID)))
    }
    if let groupID,
      try db.query("SELECT id FROM server_groups WHERE id = ?", [.text(groupID)]).isEmpty
    {
      throw ForeignKeyViolation()
    }
    let id = Crypto.uuid(random)
    try db.execute(
      """
      INSERT INTO servers (id, name, group_id, weight, hidden, remark, public_remark, tags_json,
        online, created_at, updated_at, price, currency, billing_cycle, billing_start_day,
        traffic_limit, traffic_limit_type, agent_claimed)
      VALUES (?, ?, ?, 0, 0, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, 0)
      """,
      [
        .text(id), .text(name), groupID.sql, (try body.optionalString("remark")).sql,
        (try body.optionalString("public_remark")).sql,
        .text(String(decoding: try WireJSON.encode(tags), as: UTF8.self)), .int(now), .int(now),
        price.sql, (try body.optionalString("currency")).sql, cycle.sql, startDay.sql,
        (try body.int("traffic_limit")).sql, limitType.sql,
      ])
    try db.execute(
      "INSERT INTO onboarding_requests VALUES (?, ?, ?, ?)",
      [.text(userID), .text(requestID), .text(input), .text(id)])
    let issue = try mint(serverID: id, ttl: ttl)
    try authorityChanged(id)
    return Reply.data(
      CreateServerResponse(serverID: id, replayed: false, enrollment: issue, outstandingOffer: nil))
  }

  /// The input a replay must repeat, as one JSON text: the keys in a fixed order, `null` for
  /// an absent one.
  static func normalizedInput(_ body: JSONBody, name: String, tags: [String], ttl: Int64) throws
    -> String
  {
    var members: [(key: String, value: JSONValue)] = [
      (key: "name", value: .string(name)),
      (key: "tags", value: .array(tags.map(JSONValue.string))),
      (key: "ttl_secs", value: .number(Double(ttl))),
    ]
    for key in [
      "group_id", "remark", "public_remark", "price", "currency", "billing_cycle",
      "billing_start_day", "expired_at", "traffic_limit", "traffic_limit_type", "caps",
    ] {
      members.append((key: key, value: body.value[key] ?? .null))
    }
    return String(decoding: try WireJSON.encode(JSONValue.object(members)), as: UTF8.self)
  }
}
