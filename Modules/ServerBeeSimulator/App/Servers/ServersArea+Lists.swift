import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// The server list, one server and the groups (wire contract v1 §5.1, §5.3).

extension ServersArea {
  /// `GET /api/servers`: the cached body while nothing changed, else rows read under the lock
  /// and written after it.
  func listServers(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    let version = db.version
    if let version, let body = core.serverCache.listBody(at: version) {
      return .response(Reply.json(body: body))
    }
    let rows = try core.allServers()
    return .finish { [serverCache = core.serverCache] in
      let body = try WireWriter.serverList(rows.map(\.response))
      if let version { serverCache.store(listBody: body, at: version) }
      return Reply.json(body: body)
    }
  }

  func serverDetail(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let row = try core.server(id: context.parameter(0)) else {
      throw APIError.notFound("Server not found")
    }
    return Reply.data(row.response)
  }

  func serverGroups(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM server_groups ORDER BY weight DESC, created_at")
    return Reply.data(
      rows.map {
        ServerGroup(
          id: $0["id"].text ?? "", name: $0["name"].text ?? "", weight: Int($0["weight"].int ?? 0),
          createdAt: timestamp($0["created_at"].int ?? 0, .zulu))
      })
  }
}
