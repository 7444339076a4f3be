import Foundation
import ServerBeeModels

/// Realistic-looking agent numbers: a bounded random walk per server.
enum MetricsModel {
  static func unit(_ random: RandomBytes) -> Double {
    let bytes = random(4)
    let value = bytes.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
    return Double(value) / Double(UInt32.max)
  }

  static func initial(_ random: RandomBytes) -> LiveNumbers {
    var live = LiveNumbers()
    live.uptime = 86_400 + Int64(unit(random) * 1_000_000)
    live.cpu = (unit(random) * 30).rounded(toPlaces: 1)
    live.memUsed = Int64(1 << 30) + Int64(unit(random) * Double(1 << 30))
    live.diskUsed = Int64(20 << 30) + Int64(unit(random) * Double(10 << 30))
    live.load1 = (unit(random) * 2).rounded(toPlaces: 2)
    live.load5 = (live.load1 * 0.9).rounded(toPlaces: 2)
    live.load15 = (live.load1 * 0.8).rounded(toPlaces: 2)
    live.tcpConn = 20 + Int64(unit(random) * 40)
    live.udpConn = 2 + Int64(unit(random) * 6)
    live.processCount = 120 + Int64(unit(random) * 80)
    return live
  }

  static func next(_ row: ServerRow, _ random: RandomBytes) -> LiveNumbers {
    var live = row.live ?? initial(random)
    let memTotal = row.memTotal ?? (4 << 30)
    live.uptime += 3
    live.cpu = min(100, max(0, live.cpu + (unit(random) - 0.5) * 10)).rounded(toPlaces: 1)
    let memStep = Int64((unit(random) - 0.5) * Double(64 << 20))
    live.memUsed = min(memTotal, max(256 << 20, live.memUsed + memStep))
    live.netInSpeed = Int64(unit(random) * 200_000)
    live.netOutSpeed = Int64(unit(random) * 80_000)
    live.netInTransfer += live.netInSpeed * 3
    live.netOutTransfer += live.netOutSpeed * 3
    live.load1 = max(0, live.load1 + (unit(random) - 0.5) * 0.4).rounded(toPlaces: 2)
    live.load5 = ((live.load5 * 4 + live.load1) / 5).rounded(toPlaces: 2)
    live.load15 = ((live.load15 * 14 + live.load1) / 15).rounded(toPlaces: 2)
    live.tcpConn = max(0, live.tcpConn + Int64((unit(random) - 0.5) * 6))
    live.diskReadBytesPerSec = Int64(unit(random) * 50_000)
    live.diskWriteBytesPerSec = Int64(unit(random) * 120_000)
    return live
  }
}

extension Double {
  fileprivate func rounded(toPlaces places: Int) -> Double {
    let factor = pow(10, Double(places))
    return (self * factor).rounded() / factor
  }
}
