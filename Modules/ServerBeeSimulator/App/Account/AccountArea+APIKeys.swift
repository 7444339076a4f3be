import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// API keys (Protocol/Account.md §3): `serverbee_` + 43 base64url characters, sent as
// `X-API-Key`, permanent, with the creator's role. The plaintext is returned once.

extension AccountArea {
  /// `GET /api/auth/api-keys` (member): the caller's own keys, oldest first, `key` null.
  func listAPIKeys(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let rows = try db.query(
      "SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, rowid",
      [.text(caller.user.id)])
    return Reply.data(rows.map { Self.apiKeyRecord($0, key: nil) })
  }

  /// `POST /api/auth/api-keys {name}` (admin): a new key, its plaintext in the answer only.
  func createAPIKey(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let name = try context.jsonBody().string("name")
    guard !name.isEmpty else { throw APIError.validation("Name is required") }
    let (id, key) = try db.transaction {
      try insertAPIKey(userID: caller.user.id, name: name)
    }
    try core.audit(caller, "api_key.create", detail: name, context)
    guard let row = try db.query("SELECT * FROM api_keys WHERE id = ?", [.text(id)]).first else {
      throw APIError.notFound("API key not found")
    }
    return Reply.data(Self.apiKeyRecord(row, key: key))
  }

  /// `DELETE /api/auth/api-keys/{id}` (member): only the caller's own key.
  func deleteAPIKey(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let id = context.parameter(0)
    let deleted = try db.transaction { () throws -> Bool in
      guard
        let row = try db.query(
          "SELECT token_hash FROM api_keys WHERE id = ? AND user_id = ?",
          [.text(id), .text(caller.user.id)]
        ).first, let hash = row["token_hash"].text
      else { return false }
      try db.execute("DELETE FROM access_sessions WHERE token_hash = ?", [.text(hash)])
      try db.execute("DELETE FROM api_keys WHERE id = ?", [.text(id)])
      return true
    }
    guard deleted else { throw APIError.notFound("API key not found") }
    try core.audit(caller, "api_key.delete", detail: id, context)
    return Reply.data("ok")
  }

  /// Stores a new key for `userID`: its authenticating `access_sessions` row and its named row.
  /// - Returns: The key id and the plaintext.
  func insertAPIKey(userID: String, name: String) throws -> (id: String, key: String) {
    let key = try core.issueAccessToken(userID: userID, mobileSessionID: nil, source: "api_key")
    let id = Crypto.uuid(random)
    try db.execute(
      "INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, ?)",
      [
        .text(id), .text(userID), .text(name),
        .text(String(key.dropFirst("serverbee_".count).prefix(8))), .text(SHA256.hex(key)),
        .int(now),
      ])
    return (id, key)
  }

  static func apiKeyRecord(_ row: Row, key: String?) -> APIKeyRecord {
    APIKeyRecord(
      id: row["id"].text ?? "", name: row["name"].text ?? "",
      keyPrefix: row["key_prefix"].text ?? "",
      createdAt: timestamp(row["created_at"].int ?? 0, .utcOffset), key: key)
  }
}
