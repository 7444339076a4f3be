import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Security events over `/api` (Protocol/Security.md): the list with filters and a cursor, the
// statistics, one event, and deleting one.

extension SecurityArea {
  static func securityEvent(_ row: Row) -> SecurityEventRow {
    SecurityEventRow(
      id: row["id"].text ?? "", serverID: row["server_id"].text ?? "",
      eventType: row["event_type"].text ?? "", severity: row["severity"].text ?? "",
      sourceIP: row["source_ip"].text ?? "", sourcePort: row["source_port"].int,
      username: row["username"].text, startedAt: row["started_at"].int ?? 0,
      endedAt: row["ended_at"].int ?? 0, firstSeen: row["first_seen"].bool,
      detectorSource: row["detector_source"].text ?? "",
      evidence: row["evidence_json"].text.flatMap {
        try? WireJSON.decode(SecurityEventEvidence.self, from: Data($0.utf8))
      }, createdAt: row["created_at"].int ?? 0)
  }

  /// The security filters present in the query (Protocol/Security.md §1): exact matches on
  /// `columns` (query names equal column names) and `since`/`until` on `created_at`.
  static func securityFilters(_ context: RequestContext, columns: [String]) throws
    -> (clauses: [String], bindings: [SQLValue])
  {
    var clauses: [String] = []
    var bindings: [SQLValue] = []
    for column in columns {
      if let value = context.query[column] {
        clauses.append("\(column) = ?")
        bindings.append(.text(value))
      }
    }
    if let since = try context.queryTime("since", required: false) {
      clauses.append("created_at >= ?")
      bindings.append(.int(since))
    }
    if let until = try context.queryTime("until", required: false) {
      clauses.append("created_at <= ?")
      bindings.append(.int(until))
    }
    return (clauses, bindings)
  }

  func securityEvents(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    var (clauses, bindings) = try Self.securityFilters(
      context, columns: ["server_id", "event_type", "source_ip", "severity"])
    if let cursor = context.query["cursor"] {
      guard let bytes = Base64URL.decode(cursor),
        let text = String(bytes: bytes, encoding: .utf8), let bar = text.firstIndex(of: "|")
      else { throw APIError.badRequest("invalid cursor") }
      guard let time = try? RFC3339Timestamp(parsing: String(text[..<bar])) else {
        throw APIError.badRequest("invalid cursor timestamp")
      }
      let nanos = time.secondsSince1970 * Self.second + Int64(time.nanoseconds)
      clauses.append("(created_at < ? OR (created_at = ? AND id < ?))")
      bindings += [.int(nanos), .int(nanos), .text(String(text[text.index(after: bar)...]))]
    }
    var limit = Int64(context.query["limit"] ?? "50") ?? 50
    limit = min(max(limit, 1), 200)
    let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
    let rows = try db.query(
      "SELECT * FROM security_events\(filter) ORDER BY created_at DESC, id DESC LIMIT ?",
      bindings + [.int(limit + 1)]
    ).map(Self.securityEvent)
    let page = Array(rows.prefix(Int(limit)))
    var next: String?
    if rows.count > page.count, let last = page.last {
      let text = timestamp(last.createdAt, .zulu).formatted(.zulu) + "|" + last.id
      next = Base64URL.encode(Array(text.utf8))
    }
    return Reply.data(SecurityEventPage(items: page.map(\.event), nextCursor: next))
  }

  /// `GET /api/security/stats` (Protocol/Security.md §3): `server_id`, `since`, `until` filter as
  /// for the event list; rows by `group_by`, largest count first (ties by key), at most `limit`
  /// (default 50, clamped to 1…500). `day` groups by the UTC date of `created_at`. A missing or
  /// unknown `group_by` is a framework rejection (plain-text 400, Protocol/README.md §5), as for a
  /// serde enum.
  func securityStats(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let text = context.query["group_by"] else {
      throw APIError.plain(400, "Failed to deserialize query string: missing field `group_by`")
    }
    let key: String
    switch SecurityStatsGrouping(rawValue: text) {
    case .eventType: key = "event_type"
    case .sourceIP: key = "source_ip"
    case .day: key = "strftime('%Y-%m-%d', created_at / 1000000000, 'unixepoch')"
    default:
      throw APIError.plain(
        400,
        "Failed to deserialize query string: group_by: unknown variant `\(text)`, expected one of "
          + "`event_type`, `source_ip`, `day`")
    }
    let limit = min(max(try context.queryCount("limit", default: 50), 1), 500)
    let (clauses, bindings) = try Self.securityFilters(context, columns: ["server_id"])
    let filter = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
    let rows = try db.query(
      """
      SELECT \(key) AS key, COUNT(*) AS count FROM security_events\(filter)
      GROUP BY 1 ORDER BY count DESC, key ASC LIMIT ?
      """, bindings + [.int(limit)])
    return Reply.data(
      rows.map { SecurityStatsEntry(key: $0["key"].text ?? "", count: Int($0["count"].int ?? 0)) })
  }

  func securityEventDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let row = try db.query("SELECT * FROM security_events WHERE id = ?", [.text(id)]).first
    else { throw APIError.notFound("security event \(id) not found") }
    return Reply.data(Self.securityEvent(row).event)
  }

  func deleteSecurityEvent(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard try db.execute("DELETE FROM security_events WHERE id = ?", [.text(id)]) == 1 else {
      throw APIError.notFound("security event \(id) not found")
    }
    return Reply.data(true)
  }
}
