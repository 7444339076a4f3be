import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// The control API's servers: creating one, its live numbers, its presence, and groups.

extension ServersArea {
  func controlCreateServer(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let name = try body.optionalString("name") ?? "server-\(Int(random(1)[0]))"
    let id = try core.createServer(name: name, body: body)
    guard let row = try core.server(id: id) else { throw APIError.notFound("Server not found") }
    if row.online {
      core.hub.broadcast(
        try WireJSON.encode(LiveStreamMessage.presence(online: true, serverID: id)))
    }
    return Reply.data(row.response)
  }

  func controlMetrics(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    guard let row = try core.server(id: context.parameter(0)) else {
      throw APIError.notFound("Server not found")
    }
    var live = row.live ?? LiveNumbers()
    live.cpu = try body.double("cpu") ?? live.cpu
    live.memUsed = try body.int("mem_used") ?? live.memUsed
    live.swapUsed = try body.int("swap_used") ?? live.swapUsed
    live.diskUsed = try body.int("disk_used") ?? live.diskUsed
    live.netInSpeed = try body.int("net_in_speed") ?? live.netInSpeed
    live.netOutSpeed = try body.int("net_out_speed") ?? live.netOutSpeed
    live.netInTransfer = try body.int("net_in_transfer") ?? live.netInTransfer
    live.netOutTransfer = try body.int("net_out_transfer") ?? live.netOutTransfer
    live.load1 = try body.double("load1") ?? live.load1
    live.load5 = try body.double("load5") ?? live.load5
    live.load15 = try body.double("load15") ?? live.load15
    live.uptime = try body.int("uptime") ?? live.uptime
    live.tcpConn = try body.int("tcp_conn") ?? live.tcpConn
    live.udpConn = try body.int("udp_conn") ?? live.udpConn
    live.processCount = try body.int("process_count") ?? live.processCount
    try core.applyMetrics(serverID: row.id, live)
    return Reply.object([("ok", .bool(true))])
  }

  func controlPresence(_ context: RequestContext, _ online: Bool) throws -> HTTPResponse {
    guard try core.server(id: context.parameter(0)) != nil else {
      throw APIError.notFound("Server not found")
    }
    try core.setPresence(serverID: context.parameter(0), online: online)
    return Reply.object([("online", .bool(online))])
  }

  func controlCreateGroup(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = Crypto.uuid(random)
    try db.execute(
      "INSERT INTO server_groups VALUES (?, ?, ?, ?)",
      [.text(id), .text(try body.string("name")), .int(try body.int("weight") ?? 0), .int(now)])
    return Reply.object([("id", .string(id))])
  }
}
