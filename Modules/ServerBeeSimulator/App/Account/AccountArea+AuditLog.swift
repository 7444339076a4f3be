import Foundation
import ServerBeeModels
import ServerBeeTransport

// The audit log (Protocol/Administration.md §2): routes that change accounts or settings record
// their action with the shared `SimulatorCore.audit`, and admins read it back here with offset
// paging and filters.

extension AccountArea {
  /// `GET /api/audit-logs?limit&offset&action&user_id` (admin): newest first; `limit` defaults
  /// to 50 and is capped at 200; an empty `action` means no filter.
  func auditLogs(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let limit = min(try context.queryCount("limit", default: 50), 200)
    let offset = try context.queryCount("offset", default: 0)
    var conditions: [String] = []
    var bindings: [SQLValue] = []
    if let action = context.query["action"], !action.isEmpty {
      conditions.append("action = ?")
      bindings.append(.text(action))
    }
    if let user = context.query["user_id"], !user.isEmpty {
      conditions.append("user_id = ?")
      bindings.append(.text(user))
    }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let total = try db.scalar("SELECT COUNT(*) FROM audit_logs" + filter, bindings).int ?? 0
    let rows = try db.query(
      "SELECT * FROM audit_logs" + filter + " ORDER BY id DESC LIMIT ? OFFSET ?",
      bindings + [.int(limit), .int(offset)])
    let entries = rows.map { row in
      AuditLogEntry(
        id: row["id"].int ?? 0, userID: row["user_id"].text ?? "",
        action: row["action"].text ?? "", detail: row["detail"].text, ip: row["ip"].text ?? "",
        createdAt: timestamp(row["created_at"].int ?? 0, .utcOffset))
    }
    return Reply.data(AuditLogPage(entries: entries, total: Int(total)))
  }

  /// `GET /api/audit-logs/options` (admin): distinct actions (sorted) and users, labelled with
  /// their username, or the raw id when no user matches.
  func auditLogOptions(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let actions = try db.query("SELECT DISTINCT action FROM audit_logs ORDER BY action")
      .compactMap { $0["action"].text }
    let users = try db.query(
      """
      SELECT DISTINCT audit_logs.user_id AS id, users.username AS name FROM audit_logs
      LEFT JOIN users ON users.id = audit_logs.user_id ORDER BY audit_logs.user_id
      """
    ).map { row in
      let id = row["id"].text ?? ""
      return AuditLogOptions.User(id: id, label: row["name"].text ?? id)
    }
    return Reply.data(AuditLogOptions(actions: actions, users: users))
  }
}
