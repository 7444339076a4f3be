import Foundation
import ServerBeeModels

/// The tables the commands print.
enum Tables {
  /// The live metrics table of `watch` and `servers`.
  static func servers(_ rows: [ServerRow]) -> String {
    var table = TextTable(columns: [
      .left("NAME"), .left("STATE"), .right("CPU"), .right("MEMORY"), .right("DISK"),
      .right("NET IN"), .right("NET OUT"), .right("LOAD"), .left("OS"), .left("REGION"),
    ])
    for row in rows {
      table.append([
        row.name, row.online ? "online" : "offline",
        row.online ? Formatting.percent(row.cpu) : "-",
        row.online ? Formatting.share(row.memUsed, of: row.memTotal) : "-",
        row.online ? Formatting.share(row.diskUsed, of: row.diskTotal) : "-",
        row.online ? Formatting.rate(row.netInSpeed) : "-",
        row.online ? Formatting.rate(row.netOutSpeed) : "-",
        row.online
          ? row.load1.flatMap { $0.isFinite ? String(format: "%.2f", $0) : nil } ?? "-"
          : "-",
        row.os ?? "", row.region ?? "",
      ])
    }
    return table.render()
  }

  /// The alert events table; the last column is the key for `alerts show KEY`.
  static func alerts(_ events: [AlertEvent]) -> String {
    var table = TextTable(columns: [
      .left("STATUS"), .left("RULE"), .left("SERVER"), .right("COUNT"), .left("SINCE"),
      .left("RESOLVED"), .left("KEY"),
    ])
    for event in events {
      table.append([
        event.status.rawValue, event.ruleName, event.serverName, "\(event.count)",
        Formatting.time(event.eventAt), event.resolvedAt.map(Formatting.time) ?? "",
        event.detailKey,
      ])
    }
    return table.render()
  }

  /// The mobile devices table; `currentInstallation` is marked with `*`.
  static func devices(_ devices: [MobileDevice], currentInstallation: String?) -> String {
    var table = TextTable(columns: [
      .left(""), .left("DEVICE"), .left("SESSION"), .left("SIGNED IN"), .left("LAST USED"),
    ])
    for device in devices {
      let isCurrent =
        device.installationID.lowercased() == currentInstallation?.lowercased()
      table.append([
        isCurrent ? "*" : "", device.deviceName, device.id, Formatting.time(device.createdAt),
        Formatting.time(device.lastUsedAt),
      ])
    }
    return table.render()
  }

  /// The recovery candidates, numbered from 1 for choosing.
  static func candidates(_ candidates: [RecoveryCandidate]) -> String {
    var table = TextTable(columns: [
      .right("#"), .left("DEVICE"), .left("SESSION"), .left("SIGNED IN"), .left("LAST USED"),
    ])
    for (index, candidate) in candidates.enumerated() {
      table.append([
        "\(index + 1)", candidate.deviceName, candidate.mobileSessionID,
        Formatting.time(candidate.createdAt), Formatting.time(candidate.lastUsedAt),
      ])
    }
    return table.render()
  }
}
