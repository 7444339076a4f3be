import Foundation
import ServerBeeModels
import ServerBeeTransport

// Maintenance windows (Protocol/Incidents.md §3), admin only, the list included. While active
// and current they silence alerts (`SimulatorCore+Maintenances.swift`).

extension IncidentsArea {
  /// `GET /api/maintenances`: newest created first.
  func listMaintenances(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM maintenances ORDER BY created_at DESC, rowid DESC")
    return Reply.data(rows.map(Self.maintenance))
  }

  /// `POST /api/maintenances {title, description?, start_at, end_at, server_ids_json?: [str],
  /// is_public?, active?}`: `end_at` must be after `start_at`. A time that is not RFC 3339 is
  /// serde's plain-text 422 (the exact chrono text, with its line and column, is not
  /// reproduced [inferred]).
  func createMaintenance(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let title = try body.string("title")
    let description = try body.optionalString("description")
    let startAt = try Self.time(try body.string("start_at"), key: "start_at")
    let endAt = try Self.time(try body.string("end_at"), key: "end_at")
    let serverIDs = try body.strings("server_ids_json")
    let isPublic = try body.bool("is_public") ?? false
    let active = try body.bool("active") ?? true
    guard endAt > startAt else { throw APIError.validation("end_at must be after start_at") }
    let id = Crypto.uuid(random)
    try db.execute(
      """
      INSERT INTO maintenances (id, title, description, start_at, end_at, server_ids_json,
        is_public, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(id), .text(title), description.sql, .int(startAt), .int(endAt),
        try Self.idListText(serverIDs).sql, isPublic.sql, active.sql, .int(now), .int(now),
      ])
    return Reply.data(try maintenance(id: id))
  }

  /// `PUT /api/maintenances/{id}`: every key optional, and `null` means "unchanged", never
  /// "clear" (Protocol/Incidents.md §1.3): `""` blanks the description, `[]` stores an empty
  /// list (every server). The times are not checked again, so an end before the start is
  /// stored as given.
  func updateMaintenance(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard try !db.query("SELECT id FROM maintenances WHERE id = ?", [.text(id)]).isEmpty else {
      throw APIError.notFound("Maintenance \(id) not found")
    }
    let body = try context.jsonBody()
    let title = try body.optionalString("title")
    let description = try body.optionalString("description")
    let startAt = try body.optionalString("start_at").map { try Self.time($0, key: "start_at") }
    let endAt = try body.optionalString("end_at").map { try Self.time($0, key: "end_at") }
    let serverIDs = try Self.idListText(try body.strings("server_ids_json"))
    let isPublic = try body.bool("is_public")
    let active = try body.bool("active")
    try db.execute(
      """
      UPDATE maintenances SET title = COALESCE(?, title),
        description = COALESCE(?, description), start_at = COALESCE(?, start_at),
        end_at = COALESCE(?, end_at), server_ids_json = COALESCE(?, server_ids_json),
        is_public = COALESCE(?, is_public), active = COALESCE(?, active), updated_at = ?
      WHERE id = ?
      """,
      [
        title.sql, description.sql, startAt.sql, endAt.sql, serverIDs.sql,
        isPublic.map { $0 ? Int64(1) : 0 }.sql, active.map { $0 ? Int64(1) : 0 }.sql,
        .int(now), .text(id),
      ])
    return Reply.data(try maintenance(id: id))
  }

  /// `DELETE /api/maintenances/{id}` → `"ok"`; an unknown id is the update route's 404
  /// [inferred].
  func deleteMaintenance(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard try db.execute("DELETE FROM maintenances WHERE id = ?", [.text(id)]) == 1 else {
      throw APIError.notFound("Maintenance \(id) not found")
    }
    return Reply.data("ok")
  }

  private func maintenance(id: String) throws -> Maintenance {
    guard let row = try db.query("SELECT * FROM maintenances WHERE id = ?", [.text(id)]).first
    else { throw APIError.notFound("Maintenance \(id) not found") }
    return Self.maintenance(row)
  }

  static func maintenance(_ row: Row) -> Maintenance {
    let created = row["created_at"].int ?? 0
    return Maintenance(
      id: row["id"].text ?? "", title: row["title"].text ?? "",
      description: row["description"].text,
      startAt: timestamp(row["start_at"].int ?? 0, .zulu),
      endAt: timestamp(row["end_at"].int ?? 0, .zulu),
      serverIDsJSON: row["server_ids_json"].text, isPublic: row["is_public"].int == 1,
      active: row["active"].int == 1, createdAt: timestamp(created, .zulu),
      updatedAt: timestamp(row["updated_at"].int ?? created, .zulu))
  }

  /// RFC 3339 text as stored nanoseconds, or serde's plain-text 422 naming the key.
  static func time(_ text: String, key: String) throws -> Int64 {
    guard let parsed = try? RFC3339Timestamp(parsing: text) else {
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: \(key): "
          + "input is not an RFC 3339 date-time")
    }
    return parsed.secondsSince1970 * SimulatorCore.second + Int64(parsed.nanoseconds)
  }
}
