import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Creating, renaming, re-weighting and deleting server groups (Protocol/Servers.md §4.3).
//
// [inferred], as Protocol/Servers.md §4.3 records: names are compared exactly (no trimming, case
// matters) for the duplicate check of a create; `name: ""` on an update is refused before the
// group is looked up; `null` for `name` or `weight` leaves it unchanged.

extension ServersArea {
  /// `POST /api/server-groups {name}` (admin): weight 0; a taken name is a 409.
  func createServerGroup(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let name = try context.jsonBody().string("name")
    guard !name.isEmpty else { throw APIError.validation("Name is required") }
    guard try db.query("SELECT id FROM server_groups WHERE name = ?", [.text(name)]).isEmpty else {
      throw APIError.conflict("Group '\(name)' already exists")
    }
    let id = Crypto.uuid(random)
    try db.execute(
      "INSERT INTO server_groups VALUES (?, ?, 0, ?)", [.text(id), .text(name), .int(now)])
    return Reply.data(try group(id))
  }

  /// `PUT /api/server-groups/{id} {name?, weight?}` (admin): a rename may repeat a name.
  func updateServerGroup(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let name = try body.optionalString("name")
    let weight = try body.int("weight")
    if name?.isEmpty == true { throw APIError.validation("Name cannot be empty") }
    let id = context.parameter(0)
    _ = try group(id)
    if let name {
      try db.execute("UPDATE server_groups SET name = ? WHERE id = ?", [.text(name), .text(id)])
    }
    if let weight {
      try db.execute(
        "UPDATE server_groups SET weight = ? WHERE id = ?", [.int(weight), .text(id)])
    }
    return Reply.data(try group(id))
  }

  /// `DELETE /api/server-groups/{id}` (admin): its servers keep going with `group_id` null, as
  /// the real server's `ON DELETE SET NULL` leaves them.
  func deleteServerGroup(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    _ = try group(id)
    try db.transaction {
      try db.execute("UPDATE servers SET group_id = NULL WHERE group_id = ?", [.text(id)])
      try db.execute("DELETE FROM server_groups WHERE id = ?", [.text(id)])
    }
    return Reply.data("ok")
  }

  /// The group with this id.
  /// - Throws: ``APIError/notFound(_:)`` `Server group not found`.
  private func group(_ id: String) throws -> ServerGroup {
    guard let row = try db.query("SELECT * FROM server_groups WHERE id = ?", [.text(id)]).first
    else { throw APIError.notFound("Server group not found") }
    return Self.group(row)
  }

  /// A `server_groups` row as the wire's ``ServerGroup``.
  static func group(_ row: Row) -> ServerGroup {
    ServerGroup(
      id: row["id"].text ?? "", name: row["name"].text ?? "", weight: Int(row["weight"].int ?? 0),
      createdAt: timestamp(row["created_at"].int ?? 0, .zulu))
  }
}
