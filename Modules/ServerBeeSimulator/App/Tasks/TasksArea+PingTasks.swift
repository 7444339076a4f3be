import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Ping tasks (Protocol/Tasks.md §5): anyone signed in lists them, admins create, change and
// delete them. The simulator has no agents, so a change moves nothing else.

extension TasksArea {
  /// The probe kinds a ping task may have.
  static let pingProbeTypes: Set<String> = ["icmp", "tcp", "http"]

  static func pingTask(_ row: Row) -> PingTask {
    PingTask(
      id: row["id"].text ?? "", name: row["name"].text ?? "",
      probeType: PingProbeType(rawValue: row["probe_type"].text ?? ""),
      target: row["target"].text ?? "", interval: Int(row["interval"].int ?? 60),
      serverIDsJSON: row["server_ids_json"].text ?? "[]", enabled: row["enabled"].bool,
      createdAt: timestamp(row["created_at"].int ?? 0, .zulu))
  }

  /// `GET /api/ping-tasks`: every ping task [inferred order: oldest first].
  func pingTasks(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM ping_tasks ORDER BY created_at, rowid")
    return Reply.data(rows.map(Self.pingTask))
  }

  /// `POST /api/ping-tasks`: `name`, `probe_type` and `target` required; `interval` (60),
  /// `server_ids` (`[]`) and `enabled` (true) optional.
  func createPingTask(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let name = try body.string("name")
    let probeType = try body.string("probe_type")
    let target = try body.string("target")
    let interval = try body.int("interval") ?? 60
    let serverIDs = try body.strings("server_ids") ?? []
    let enabled = try body.bool("enabled") ?? true
    try Self.checkPingTask(probeType: probeType, target: target)
    let id = Crypto.uuid(random)
    return try db.transaction {
      try db.execute(
        "INSERT INTO ping_tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
          .text(id), .text(name), .text(probeType), .text(target), .int(interval),
          .text(try Self.jsonText(serverIDs)), enabled.sql, .int(now),
        ])
      return Reply.data(Self.pingTask(try pingTaskRow(id)))
    }
  }

  /// `PUT /api/ping-tasks/{id}`: the members given change; `null` leaves one as it is.
  func updatePingTask(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    let body = try context.jsonBody()
    let name = try body.optionalString("name")
    let probeType = try body.optionalString("probe_type")
    let target = try body.optionalString("target")
    let interval = try body.int("interval")
    let serverIDs = try body.strings("server_ids")
    let enabled = try body.bool("enabled")
    return try db.transaction {
      let row = try pingTaskRow(id)
      if probeType != nil || target != nil {
        try Self.checkPingTask(
          probeType: probeType ?? row["probe_type"].text ?? "",
          target: target ?? row["target"].text ?? "")
      }
      try db.execute(
        """
        UPDATE ping_tasks SET name = ?, probe_type = ?, target = ?, interval = ?,
          server_ids_json = ?, enabled = ? WHERE id = ?
        """,
        [
          .text(name ?? row["name"].text ?? ""), .text(probeType ?? row["probe_type"].text ?? ""),
          .text(target ?? row["target"].text ?? ""), .int(interval ?? row["interval"].int ?? 60),
          .text(try serverIDs.map(Self.jsonText) ?? row["server_ids_json"].text ?? "[]"),
          (enabled ?? row["enabled"].bool).sql, .text(id),
        ])
      return Reply.data(Self.pingTask(try pingTaskRow(id)))
    }
  }

  /// `DELETE /api/ping-tasks/{id}` → `"ok"` [inferred: an unknown id is the 404 of `PUT`].
  func deletePingTask(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    return try db.transaction {
      _ = try pingTaskRow(id)
      try db.execute("DELETE FROM ping_tasks WHERE id = ?", [.text(id)])
      return Reply.data("ok")
    }
  }

  private func pingTaskRow(_ id: String) throws -> Row {
    guard let row = try db.query("SELECT * FROM ping_tasks WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("Ping task \(id) not found")
    }
    return row
  }

  /// The probe kind, then the SSRF guard on the target's host.
  static func checkPingTask(probeType: String, target: String) throws {
    guard pingProbeTypes.contains(probeType) else {
      throw APIError.validation("probe_type must be icmp, tcp, or http")
    }
    let host = ProbeTargetGuard.host(of: target, probeType: probeType)
    if let kind = ProbeTargetGuard.blockedKind(host) {
      throw APIError.validation(
        "SSRF guard: target '\(target)' points at a blocked address (\(kind))")
    }
  }

  private static func jsonText(_ ids: [String]) throws -> String {
    String(decoding: try WireJSON.encode(ids), as: UTF8.self)
  }
}
