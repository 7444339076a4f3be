import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// `GET /api/servers/{id}/records` (Protocol/Servers.md §2): raw rows, or hourly aggregates.

extension ServersArea {
  func serverRecords(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let from = try context.queryTime("from", required: true),
      let to = try context.queryTime("to", required: true)
    else { throw APIError.plain(400, "Failed to deserialize query string") }
    let interval = context.query["interval"] ?? "auto"
    let hourly = interval == "hourly" || (interval != "raw" && to - from > 24 * 3600 * Self.second)
    let rows = try db.query(
      "SELECT * FROM records WHERE server_id = ? AND time >= ? AND time <= ? ORDER BY time, id",
      [.text(context.parameter(0)), .int(from), .int(to)]
    ).map(Self.record)
    guard hourly else { return Reply.data(rows.map(\.record)) }
    let hour = 3600 * Self.second
    var buckets: [(Int64, [Stored])] = []
    for row in rows {
      let start = row.time - row.time % hour
      if buckets.last?.0 == start {
        buckets[buckets.count - 1].1.append(row)
      } else {
        buckets.append((start, [row]))
      }
    }
    return Reply.data(buckets.map { Self.aggregate(hourStart: $0.0, $0.1).record })
  }

  /// A stored record row; written as the shared `ServerRecord`.
  private struct Stored {
    let id: Int64
    let serverID: String
    let time: Int64
    let live: LiveNumbers
    let diskIOJSON: String?

    var record: ServerRecord {
      live.record(id: id, serverID: serverID, time: time, diskIOJSON: diskIOJSON)
    }
  }

  private static func record(_ row: Row) -> Stored {
    var live = LiveNumbers()
    live.cpu = row["cpu"].real ?? 0
    live.memUsed = row["mem_used"].int ?? 0
    live.swapUsed = row["swap_used"].int ?? 0
    live.diskUsed = row["disk_used"].int ?? 0
    live.netInSpeed = row["net_in_speed"].int ?? 0
    live.netOutSpeed = row["net_out_speed"].int ?? 0
    live.netInTransfer = row["net_in_transfer"].int ?? 0
    live.netOutTransfer = row["net_out_transfer"].int ?? 0
    live.load1 = row["load1"].real ?? 0
    live.load5 = row["load5"].real ?? 0
    live.load15 = row["load15"].real ?? 0
    live.tcpConn = row["tcp_conn"].int ?? 0
    live.udpConn = row["udp_conn"].int ?? 0
    live.processCount = row["process_count"].int ?? 0
    return Stored(
      id: row["id"].int ?? 0, serverID: row["server_id"].text ?? "", time: row["time"].int ?? 0,
      live: live, diskIOJSON: row["disk_io_json"].text)
  }

  /// Hourly rows: gauges averaged, cumulative counters at their maximum (Protocol/Servers.md §2).
  private static func aggregate(hourStart: Int64, _ rows: [Stored]) -> Stored {
    let n = Double(rows.count)
    func average(_ value: (LiveNumbers) -> Double) -> Double {
      rows.map { value($0.live) }.reduce(0, +) / n
    }
    func averageInt(_ value: (LiveNumbers) -> Int64) -> Int64 {
      Int64((Double(rows.map { value($0.live) }.reduce(0, +)) / n).rounded())
    }
    var live = LiveNumbers()
    live.cpu = average(\.cpu)
    live.memUsed = averageInt(\.memUsed)
    live.swapUsed = averageInt(\.swapUsed)
    live.diskUsed = averageInt(\.diskUsed)
    live.netInSpeed = averageInt(\.netInSpeed)
    live.netOutSpeed = averageInt(\.netOutSpeed)
    live.netInTransfer = rows.map(\.live.netInTransfer).max() ?? 0
    live.netOutTransfer = rows.map(\.live.netOutTransfer).max() ?? 0
    live.load1 = average(\.load1)
    live.load5 = average(\.load5)
    live.load15 = average(\.load15)
    live.tcpConn = averageInt(\.tcpConn)
    live.udpConn = averageInt(\.udpConn)
    live.processCount = averageInt(\.processCount)
    return Stored(
      id: rows.first?.id ?? 0, serverID: rows.first?.serverID ?? "", time: hourStart, live: live,
      diskIOJSON: rows.last?.diskIOJSON)
  }
}
