import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// The server list, one server and the groups (Protocol/Servers.md §1, §3).

extension ServersArea {
  /// `GET /api/servers`: the cached body while `servers` is unchanged, else the servers'
  /// kept list entries joined after the lock is released (``ServerFragments``: under it only
  /// the rows written since the last list or frame are read). Inside a transaction, whose
  /// writes may be rolled back, the body is written from the rows, under the lock.
  func listServers(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    // A lapsed offer is gone from the list (Protocol/Agents.md §10).
    try core.expireLapsedOffers()
    let version = db.serversVersion
    if let version, let body = core.serverCache.listBody(at: version) {
      return .response(Reply.json(body: body))
    }
    guard let version,
      let fragments = try core.serverCache.fragments.current(db, needing: .listEntry)
    else {
      return .response(Reply.json(body: try WireWriter.serverList(rowsOf: db)))
    }
    return .finish { [serverCache = core.serverCache] in
      guard let body = WireWriter.serverList(fragments) else {
        throw ServerBeeSimulatorError(.storageFailed, "the kept server list is incomplete")
      }
      serverCache.store(listBody: body, at: version)
      return Reply.json(body: body)
    }
  }

  func serverDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    try core.expireLapsedOffers()
    guard let row = try core.server(id: context.parameter(0)) else {
      throw APIError.notFound("Server not found")
    }
    return Reply.data(row.response)
  }

  /// `GET /api/server-groups`: `weight` descending, then `name` ascending (byte order, as
  /// SQLite compares text); Protocol/Servers.md §3.
  func serverGroups(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM server_groups ORDER BY weight DESC, name, rowid")
    return Reply.data(rows.map(Self.group))
  }
}
