import Foundation
import ServerBeeModels
import ServerBeeTransport

// Incidents and their updates (Protocol/Incidents.md §2), admin only, the list included.

extension IncidentsArea {
  /// `GET /api/incidents[?status=]`: newest first. An unknown `status` matches nothing
  /// [inferred: upstream filters by equality].
  func listIncidents(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows: [Row]
    if let status = context.query["status"] {
      rows = try db.query(
        "SELECT * FROM incidents WHERE status = ? ORDER BY created_at DESC, rowid DESC",
        [.text(status)])
    } else {
      rows = try db.query("SELECT * FROM incidents ORDER BY created_at DESC, rowid DESC")
    }
    return Reply.data(rows.map(Self.incident))
  }

  /// `POST /api/incidents {title, status?, severity?, server_ids_json?: [str]|null,
  /// is_public?}`. The status is checked before the severity [inferred]; created `resolved`, it
  /// is stamped resolved at once. An array (empty too) is stored as its JSON text; null or
  /// absent stores NULL (every server).
  func createIncident(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let title = try body.string("title")
    let status = try body.optionalString("status") ?? IncidentStatus.investigating.rawValue
    let severity = try body.optionalString("severity") ?? IncidentSeverity.minor.rawValue
    let serverIDs = try body.strings("server_ids_json")
    let isPublic = try body.bool("is_public") ?? false
    try Self.checkStatus(status)
    try Self.checkSeverity(severity)
    let id = Crypto.uuid(random)
    let resolvedAt: SQLValue = status == IncidentStatus.resolved.rawValue ? .int(now) : .null
    try db.execute(
      """
      INSERT INTO incidents (id, title, status, severity, server_ids_json, is_public,
        created_at, updated_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(id), .text(title), .text(status), .text(severity),
        try Self.idListText(serverIDs).sql, isPublic.sql, .int(now), .int(now), resolvedAt,
      ])
    return Reply.data(try incident(id: id))
  }

  /// `POST /api/incidents/{id}/updates {status, message}`: records the update and sets the
  /// incident's status and `updated_at`; `resolved` stamps `resolved_at` again each time, and a
  /// later status leaves it as it was [inferred: upstream only writes it for `resolved`]. The
  /// status is checked before the incident is looked up [inferred].
  func postIncidentUpdate(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let incidentID = context.parameter(0)
    let body = try context.jsonBody()
    let status = try body.string("status")
    let message = try body.string("message")
    try Self.checkStatus(status)
    guard try !db.query("SELECT id FROM incidents WHERE id = ?", [.text(incidentID)]).isEmpty
    else { throw APIError.notFound("Incident \(incidentID) not found") }
    let id = Crypto.uuid(random)
    try db.transaction {
      try db.execute(
        "INSERT INTO incident_updates VALUES (?, ?, ?, ?, ?)",
        [.text(id), .text(incidentID), .text(status), .text(message), .int(now)])
      try db.execute(
        """
        UPDATE incidents SET status = ?, updated_at = ?,
          resolved_at = CASE WHEN ? = 'resolved' THEN ? ELSE resolved_at END
        WHERE id = ?
        """, [.text(status), .int(now), .text(status), .int(now), .text(incidentID)])
    }
    return Reply.data(
      IncidentUpdate(
        id: id, incidentID: incidentID, status: IncidentStatus(rawValue: status),
        message: message, createdAt: timestamp(now, .zulu)))
  }

  /// `DELETE /api/incidents/{id}` → `"ok"`, with the incident's updates. An unknown id is the
  /// same 404 as the update route's [inferred].
  func deleteIncident(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    let deleted = try db.transaction { () throws -> Int in
      try db.execute("DELETE FROM incident_updates WHERE incident_id = ?", [.text(id)])
      return try db.execute("DELETE FROM incidents WHERE id = ?", [.text(id)])
    }
    guard deleted == 1 else { throw APIError.notFound("Incident \(id) not found") }
    return Reply.data("ok")
  }

  private func incident(id: String) throws -> Incident {
    guard let row = try db.query("SELECT * FROM incidents WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("Incident \(id) not found")
    }
    return Self.incident(row)
  }

  static func incident(_ row: Row) -> Incident {
    let created = row["created_at"].int ?? 0
    return Incident(
      id: row["id"].text ?? "", title: row["title"].text ?? "",
      status: IncidentStatus(rawValue: row["status"].text ?? ""),
      severity: IncidentSeverity(rawValue: row["severity"].text ?? ""),
      serverIDsJSON: row["server_ids_json"].text, isPublic: row["is_public"].int == 1,
      createdAt: timestamp(created, .zulu),
      updatedAt: timestamp(row["updated_at"].int ?? created, .zulu),
      resolvedAt: timestamp(row["resolved_at"].int, .zulu))
  }

  static func checkStatus(_ status: String) throws {
    guard IncidentStatus.all.map(\.rawValue).contains(status) else {
      throw APIError.validation(
        "status must be one of: investigating, identified, monitoring, resolved")
    }
  }

  static func checkSeverity(_ severity: String) throws {
    guard IncidentSeverity.all.map(\.rawValue).contains(severity) else {
      throw APIError.validation("severity must be one of: minor, major, critical")
    }
  }

  /// A list of server ids as the JSON text stored and answered, or `nil` for no list.
  static func idListText(_ ids: [String]?) throws -> String? {
    try ids.map { String(decoding: try WireJSON.encode($0), as: UTF8.self) }
  }
}
