import Foundation

// A made-up past for `GET /api/servers/{id}/records` (Protocol/Servers.md §2), so charts have
// something to draw before the simulator has run for hours: one row a minute, a daily wave with
// seeded noise, the same for the same server id and minute whatever the run.

extension SimulatorCore {
  /// The longest history ``backfillHistory(days:)`` writes.
  static let maximumHistoryDays = 31

  /// Writes a row a minute for the last `days` days (at most ``maximumHistoryDays``) before each
  /// server's oldest record (or now), so a second call, or a restart, adds nothing twice.
  /// - Returns: How many rows were written.
  func backfillHistory(days: Int) throws -> Int {
    let step = 60 * Self.second
    let end = now - now % step
    let start = end - Int64(min(max(days, 0), Self.maximumHistoryDays)) * 86_400 * Self.second
    var written = 0
    try db.transaction {
      for row in try allServers() {
        let oldest = try db.query(
          "SELECT MIN(time) AS oldest FROM records WHERE server_id = ?", [.text(row.id)]
        ).first?["oldest"].int
        let stop = min(end, oldest ?? end)
        var transfer: (in: Int64, out: Int64) = (0, 0)
        var time = start
        while time < stop {
          let live = Self.pastNumbers(row, minute: Int(time / step), transfer: &transfer)
          try insertRecord(serverID: row.id, time: time, live)
          written += 1
          time += step
        }
      }
    }
    return written
  }

  /// One past minute of a server: CPU and traffic follow the time of day with noise, memory
  /// a slower wave, the disk grows slowly, load follows CPU.
  static func pastNumbers(
    _ row: ServerRow, minute: Int, transfer: inout (in: Int64, out: Int64)
  ) -> LiveNumbers {
    func noise(_ salt: String) -> Double { SeededNoise.unit(row.id, salt, minute) - 0.5 }
    let base = 10 + 25 * SeededNoise.unit(row.id, "history-base", 0)
    let day = sin(Double(minute % 1440) / 1440 * 2 * .pi - .pi / 2)
    let busy = SeededNoise.unit(row.id, "history-burst", minute / 20) > 0.97 ? 30.0 : 0
    var live = row.live ?? LiveNumbers()
    live.cpu = ((base + 16 * day + 6 * noise("cpu") + busy).clamped(0, 100) * 10).rounded() / 10
    let memoryTotal = Double(row.memTotal ?? (4 << 30))
    let memoryShare =
      0.35 + 0.08 * sin(Double(minute % 4320) / 4320 * 2 * .pi) + 0.02 * noise("mem")
    live.memUsed = Int64(memoryTotal * memoryShare.clamped(0.05, 0.98))
    let diskNow = Double(row.live?.diskUsed ?? (24 << 30))
    let minutesAgo = Double(max(0, Int(row.createdAt / Self.second / 60) - minute))
    live.diskUsed = Int64(max(diskNow * 0.5, diskNow - minutesAgo * 20_000))
    let traffic = (0.55 + 0.45 * day + 0.3 * noise("net")).clamped(0.05, 2) * 180_000
    live.netInSpeed = Int64(traffic * (busy > 0 ? 6 : 1))
    live.netOutSpeed = Int64(traffic * (0.3 + 0.1 * noise("out")))
    transfer.in += live.netInSpeed * 60
    transfer.out += live.netOutSpeed * 60
    live.netInTransfer = transfer.in
    live.netOutTransfer = transfer.out
    let cores = Double(row.cpuCores ?? 2)
    live.load1 = ((live.cpu / 100 * cores * 1.1) * 100).rounded() / 100
    live.load5 = ((live.load1 * 0.95) * 100).rounded() / 100
    live.load15 = ((live.load1 * 0.9) * 100).rounded() / 100
    return live
  }
}

extension Double {
  fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
    Swift.min(high, Swift.max(low, self))
  }
}
