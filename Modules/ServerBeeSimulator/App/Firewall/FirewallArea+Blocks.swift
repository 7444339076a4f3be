import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// The blocklist over `/api` (Protocol/Firewall.md): the list and its lossy cursor, adding with
// the canonical target and the three refusals, removing, and the counts.

extension FirewallArea {
  static func block(_ row: Row) -> FirewallBlock {
    FirewallBlock(
      id: row["id"].text ?? "", target: row["target"].text ?? "",
      family: Int(row["family"].int ?? 4),
      coverType: FirewallCoverType(rawValue: row["cover_type"].text ?? "all"),
      serverIDs: row["server_ids_json"].text.flatMap {
        try? WireJSON.decode([String].self, from: Data($0.utf8))
      },
      comment: row["comment"].text, origin: FirewallBlockOrigin(rawValue: row["origin"].text ?? ""),
      originEventID: row["origin_event_id"].text, originRuleID: row["origin_rule_id"].text,
      createdBy: row["created_by"].text,
      createdAt: timestamp(row["created_at"].int ?? 0, .utcOffset))
  }

  /// `GET /api/firewall/blocks` (Protocol/Firewall.md §2): `limit` (50, at most 200),
  /// `origin`, `target_q`, `cursor`. The server reads one row more than the page; when it gets
  /// it, that row's time is the cursor and the row itself is on no page (§2.1).
  func firewallBlocks(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let limit = min(try context.queryCount("limit", default: 50), 200)
    var clauses: [String] = []
    var bindings: [SQLValue] = []
    if let origin = context.query["origin"] {
      clauses.append("origin = ?")
      bindings.append(.text(origin))
    }
    if let part = context.query["target_q"] {
      // A literal substring, as `LIKE '%…%'` without wildcards in the text would be.
      clauses.append("instr(target, ?) > 0")
      bindings.append(.text(part))
    }
    // Read as the server reads a query string: `+` is a space (Protocol/Firewall.md §2.1).
    if let cursor = Self.formValue("cursor", context.request) {
      guard let time = try? RFC3339Timestamp(parsing: cursor) else {
        throw APIError.badRequest("invalid cursor")
      }
      clauses.append("created_at < ?")
      bindings.append(.int(time.secondsSince1970 * SimulatorCore.second + Int64(time.nanoseconds)))
    }
    let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
    // [inferred] Entries of one instant: the later-made first.
    var rows = try db.query(
      "SELECT * FROM block_list\(filter) ORDER BY created_at DESC, rowid DESC LIMIT ?",
      bindings + [.int(limit + 1)]
    ).map(Self.block)
    var next: String?
    if rows.count > Int(limit) {
      next = rows.removeLast().createdAt.formatted(.utcOffset)
    }
    return Reply.data(FirewallBlockPage(items: rows, nextCursor: next))
  }

  /// `POST /api/firewall/blocks` (Protocol/Firewall.md §4, admin): the canonical target, then
  /// the guard rails, the allow list and the duplicate check.
  func createFirewallBlock(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let body = try context.jsonBody()
    let input = try body.string("target")
    let coverType = try body.optionalString("cover_type") ?? "all"
    let serverIDs = try body.strings("server_ids")
    let comment = try body.optionalString("comment")
    guard let network = FirewallNetwork(input) else {
      throw APIError.badRequest("invalid IP or CIDR: \(input)")
    }
    if let reason = try protectionReason(network) {
      // The refusal is audited, so it is answered rather than thrown out of the transaction.
      try core.audit(
        caller, "firewall_block_rejected_server",
        detail: try Self.detail([("reason", reason), ("target", network.text)]), context)
      return APIError.conflict(reason).response
    }
    let block = try insert(
      network, coverType: coverType, serverIDs: serverIDs, comment: comment, origin: "manual",
      originEventID: nil, originRuleID: nil, createdBy: caller.user.id, createdAt: now)
    try core.audit(
      caller, "firewall_block_created",
      detail: try Self.detail([("id", block.id), ("origin", "manual"), ("target", block.target)]),
      context)
    try broadcast(.created, block)
    return Reply.data(block)
  }

  /// `DELETE /api/firewall/blocks/{id}` (Protocol/Firewall.md §5, admin) → `true`.
  func deleteFirewallBlock(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let id = context.parameter(0)
    guard let row = try db.query("SELECT * FROM block_list WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("block \(id) not found")
    }
    let block = Self.block(row)
    try db.execute("DELETE FROM block_list WHERE id = ?", [.text(id)])
    try core.audit(
      caller, "firewall_block_deleted",
      detail: try Self.detail([("id", id), ("target", block.target)]), context)
    try broadcast(.deleted, block)
    return Reply.data(true)
  }

  /// `GET /api/firewall/stats` (Protocol/Firewall.md §6): counted from the rows.
  func firewallStats(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let row = try db.query(
      """
      SELECT COUNT(*) AS total, COALESCE(SUM(origin = 'auto'), 0) AS auto,
        COALESCE(SUM(family = 6), 0) AS v6 FROM block_list
      """
    ).first
    let total = Int(row?["total"].int ?? 0)
    let auto = Int(row?["auto"].int ?? 0)
    let v6 = Int(row?["v6"].int ?? 0)
    return Reply.data(
      FirewallStats(total: total, auto: auto, manual: total - auto, v4: total - v6, v6: v6))
  }

  /// Why `network` may not be blocked (the refusal's text after `Conflict: `), or `nil`:
  /// the guard rails in order, then the allow list.
  func protectionReason(_ network: FirewallNetwork) throws -> String? {
    for range in FirewallNetwork.guardrails {
      if let protected = FirewallNetwork(range), network.overlaps(protected) {
        return "hits hard-coded guardrail: \(range)"
      }
    }
    for entry in try allowList() {
      if let allowed = FirewallNetwork(entry), network.overlaps(allowed) {
        return "hits allow_list: \(entry)"
      }
    }
    return nil
  }

  /// [inferred] The simulator's allow list: the addresses its servers' agents report, IPv4
  /// then IPv6, oldest server first.
  func allowList() throws -> [String] {
    try db.query("SELECT ipv4, ipv6 FROM servers ORDER BY created_at, id").flatMap { row in
      [row["ipv4"].text, row["ipv6"].text].compactMap { $0 }.filter { !$0.isEmpty }
    }
  }

  /// Stores an entry; a target that is an entry already is the duplicate 409.
  func insert(
    _ network: FirewallNetwork, coverType: String, serverIDs: [String]?, comment: String?,
    origin: String, originEventID: String?, originRuleID: String?, createdBy: String?,
    createdAt: Int64
  ) throws -> FirewallBlock {
    let target = network.text
    guard try db.query("SELECT 1 FROM block_list WHERE target = ?", [.text(target)]).isEmpty else {
      throw APIError.conflict("target \(target) already blocked")
    }
    let id = Crypto.uuid(random)
    let serverIDsJSON = try serverIDs.map {
      String(decoding: try WireJSON.encode($0), as: UTF8.self)
    }
    try db.execute(
      "INSERT INTO block_list VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        .text(id), .text(target), .int(Int64(network.family)), .text(coverType),
        serverIDsJSON.sql, comment.sql, .text(origin), originEventID.sql, originRuleID.sql,
        createdBy.sql, .int(createdAt),
      ])
    guard let row = try db.query("SELECT * FROM block_list WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("block \(id) not found")
    }
    return Self.block(row)
  }

  func broadcast(_ kind: BlocklistChangeKind, _ block: FirewallBlock) throws {
    core.hub.broadcast(
      try WireJSON.encode(
        LiveStreamMessage.blocklistChanged(
          BlocklistChange(kind: kind, blockID: block.id, target: block.target))))
  }

  /// An audit detail as upstream writes it: a JSON object with sorted keys (Protocol/Firewall.md
  /// §4).
  static func detail(_ members: [(String, String)]) throws -> String {
    let object = JSONValue.object(members.map { (key: $0.0, value: JSONValue.string($0.1)) })
    return String(decoding: try WireJSON.encode(object), as: UTF8.self)
  }

  /// One query value decoded as a form (`application/x-www-form-urlencoded`), as the server's
  /// query extractor decodes it: `+` is a space, then percent escapes are undone. The shared
  /// query reader keeps `+`, which would hide the pitfall of Protocol/Firewall.md §2.1.
  static func formValue(_ name: String, _ request: HTTPRequest) -> String? {
    let query =
      URLComponents(url: request.url, resolvingAgainstBaseURL: false)?
      .percentEncodedQuery ?? ""
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (text: Substring) in
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
      }
      if decode(parts[0]) == name {
        return parts.count > 1 ? decode(parts[1]) ?? "" : ""
      }
    }
    return nil
  }
}
