import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// The server list, one server and the groups (Protocol/Servers.md §1, §3).

extension ServersArea {
  /// `GET /api/servers`: the cached body while `servers` is unchanged, else written from the
  /// rows as SQLite steps through them, under the lock (reading ``ServerRow``s under
  /// it and writing after cost five times as much in all).
  func listServers(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    let version = db.serversVersion
    if let version, let body = core.serverCache.listBody(at: version) {
      return .response(Reply.json(body: body))
    }
    let body = try WireWriter.serverList(rowsOf: db)
    if let version { core.serverCache.store(listBody: body, at: version) }
    return .response(Reply.json(body: body))
  }

  func serverDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
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
