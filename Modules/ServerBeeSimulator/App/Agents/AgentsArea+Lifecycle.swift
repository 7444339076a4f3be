import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Deleting a server and the latest agent version (Protocol/Agents.md §8, §9).
//
// [inferred], as Protocol/Agents.md §10 records:
// - a deleted server that was online is announced offline on the live stream (its agent is
//   disconnected); the next `full_sync` no longer has it;
// - the simulator has no release source: the latest version is a fixed release.

extension AgentsArea {
  /// What `GET /api/agent/latest-version` answers.
  static let latestRelease = LatestAgentVersion(
    version: "1.5.0",
    releasedAt: RFC3339Timestamp(secondsSince1970: 1_764_000_000, style: .zulu),
    error: nil)

  /// `GET /api/agent/latest-version` (member): always 200.
  func latestAgentVersion(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    Reply.data(Self.latestRelease)
  }

  /// The tables whose rows belong to one server (`server_id`), deleted with it; its tags are
  /// in its row.
  static let scopedTables = [
    "records", "alert_states", "task_results", "security_events", "enrollment_offers",
    "onboarding_requests",
  ]

  /// `DELETE /api/servers/{id}` (admin): the server and everything scoped to it.
  func deleteServer(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let row = try core.server(id: id) else {
      throw APIError.notFound("server not found")
    }
    if row.online { try core.setPresence(serverID: id, online: false) }
    try db.transaction {
      for table in Self.scopedTables {
        try db.execute("DELETE FROM \(table) WHERE server_id = ?", [.text(id)])
      }
      try db.execute("DELETE FROM servers WHERE id = ?", [.text(id)])
    }
    return Reply.data("ok")
  }
}
