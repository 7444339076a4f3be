// `serverbee-bench realtime [PAYLOAD_DIR]`: the live-stream budgets of Documentation/Performance.md
// §1 on the reference payloads (default Benchmarks/payloads): full_sync decode ≤ 5 ms, one update ≤
// 4 µs, decode + merge into a 1,000-server fleet ≤ 10 µs and flat in fleet size, memory per cached
// server < 2 KB — next to the straightforward path (JSONDecoder + .convertFromSnakeCase + linear
// search).
import Foundation
import RealtimeStream
import ServerBeeModels

func runRealtimeBenchmark() throws {
  let directory = CommandLine.arguments.dropFirst(2).first ?? "Benchmarks/payloads"
  let fullSyncURL = URL(fileURLWithPath: directory).appendingPathComponent("full_sync_1000.json")
  let updatesURL = URL(fileURLWithPath: directory).appendingPathComponent("updates_1000.jsonl")
  guard let fullSync = try? Data(contentsOf: fullSyncURL),
    let updateLines = try? String(contentsOf: updatesURL, encoding: .utf8)
  else {
    print("realtime: cannot read the payloads in \(directory) (pass the bench directory)")
    exit(2)
  }
  let updates = updateLines.split(separator: "\n").map { Data($0.utf8) }
  print("realtime: full_sync \(fullSync.count) bytes, \(updates.count) update frames")

  // Decoding the full_sync.
  let fast = try Bench.measure(
    "full_sync decode — LiveFrameDecoder", iterations: 60, unit: .milliseconds
  ) {
    if case .fullSync(let sync) = try LiveFrameDecoder.decode(fullSync) {
      Bench.sink &+= sync.servers.count
    }
  }
  let plainDecoder = JSONDecoder()
  plainDecoder.keyDecodingStrategy = .convertFromSnakeCase
  let slow = try Bench.measure(
    "full_sync decode — JSONDecoder (straightforward)", iterations: 15, unit: .milliseconds
  ) {
    Bench.sink &+= try plainDecoder.decode(PlainFullSync.self, from: fullSync).servers.count
  }
  print(ratio(slow, fast))

  // Decoding one update.
  let fastUpdate = try Bench.measure(
    "update decode — LiveFrameDecoder", iterations: 40, batch: updates.count
  ) {
    for frame in updates {
      if case .update(let update) = try LiveFrameDecoder.decode(frame) {
        Bench.sink &+= update.servers.count
      }
    }
  }
  let slowUpdate = try Bench.measure(
    "update decode — JSONDecoder (straightforward)", iterations: 10, batch: updates.count
  ) {
    for frame in updates {
      Bench.sink &+= try plainDecoder.decode(PlainUpdate.self, from: frame).servers.count
    }
  }
  print(ratio(slowUpdate, fastUpdate))

  // Decode + merge into the 1,000-server fleet: first like the baseline (no copy held), then
  // with a snapshot held after every frame, as MetricsStreamClient's subscribers do.
  guard case .fullSync(let sync) = try LiveFrameDecoder.decode(fullSync) else { return }
  var fleet = FleetState()
  fleet.replace(with: sync)
  let fastMerge = try Bench.measure(
    "update decode + merge — FleetState", iterations: 40, batch: updates.count
  ) {
    for frame in updates { fleet.apply(try LiveFrameDecoder.decode(frame)) }
  }
  var heldSnapshot = fleet
  try Bench.measure(
    "update decode + merge + snapshot held — FleetState", iterations: 40, batch: updates.count
  ) {
    for frame in updates {
      fleet.apply(try LiveFrameDecoder.decode(frame))
      heldSnapshot = fleet
    }
  }
  Bench.sink &+= heldSnapshot.servers.count
  var plainFleet = try plainDecoder.decode(PlainFullSync.self, from: fullSync).servers
  let slowMerge = try Bench.measure(
    "update decode + merge — linear search", iterations: 10, batch: updates.count
  ) {
    for frame in updates {
      for metrics in try plainDecoder.decode(PlainUpdate.self, from: frame).servers {
        if let index = plainFleet.firstIndex(where: { $0.id == metrics.id }) {
          plainFleet[index].merge(metrics)
        }
      }
    }
  }
  print(ratio(slowMerge, fastMerge))

  // Merge cost against fleet size: the lookup is a dictionary, so it must stay flat.
  let frame = updates[updates.count / 2]
  for size in [100, 1_000, 10_000] {
    var servers: [ServerStatus] = []
    servers.reserveCapacity(size)
    while servers.count < size {
      for var server in sync.servers where servers.count < size {
        if servers.count >= sync.servers.count { server.id = "\(server.id)-\(servers.count)" }
        servers.append(server)
      }
    }
    var sized = FleetState()
    sized.replace(with: FullSync(servers: servers))
    let message = try LiveFrameDecoder.decode(frame)
    var held = sized
    Bench.measure(
      "merge one update, snapshot held — fleet of \(size)", iterations: 20_000, unit: .nanoseconds
    ) {
      sized.apply(message)
      held = sized
    }
    Bench.sink &+= held.servers.count
  }

  // Memory.
  let copies = 20
  let before = Bench.residentMemory().current
  var kept: [FleetState] = []
  for _ in 0..<copies {
    var copy = FleetState()
    if case .fullSync(let fresh) = try LiveFrameDecoder.decode(fullSync) {
      copy.replace(with: fresh)
    }
    kept.append(copy)
  }
  let perServer =
    Double((Bench.residentMemory().current - before) * 1024) / Double(copies * sync.servers.count)
  print(
    String(
      format:
        "memory per cached server (RSS growth, %d fleets of %d)    %8.0f bytes (budget < 2048)",
      copies, sync.servers.count, perServer))
  Bench.sink &+= kept.count
  let start = Bench.residentMemory()
  for _ in 0..<50 { _ = try LiveFrameDecoder.decode(fullSync) }
  let end = Bench.residentMemory()
  print(
    "peak RSS while decoding the full_sync 50× (start \(start.current) KiB)            \(end.peak) KiB"
  )
  print(
    "budgets: full_sync ≤ 5 ms, update ≤ 4 µs, decode + merge ≤ 10 µs (checksum \(Bench.sink % 7))")
}

private func ratio(_ slow: Bench.Stats, _ fast: Bench.Stats) -> String {
  String(
    format: "  → %.1f× faster than the straightforward path (medians)", slow.median / fast.median)
}

// The straightforward models, as the iOS app writes them.
private struct PlainFullSync: Decodable {
  var type: String
  var servers: [PlainServer]
  var upgrades: [PlainUpgrade]
}

private struct PlainUpgrade: Decodable {
  var serverId: String
  var jobId: String
  var targetVersion: String
  var stage: String
  var status: String
  var error: String?
  var backupPath: String?
  var startedAt: String
  var finishedAt: String?
}

private struct PlainOffer: Decodable {
  var id: String
  var codePrefix: String
  var expiresAt: String
  var createdAt: String
}

private struct PlainAuthority: Decodable {
  var status: String
  var outstandingOffer: PlainOffer?
}

private struct PlainServer: Decodable {
  var id: String
  var name: String
  var online: Bool
  var lastActive: Int64
  var uptime: Int64
  var cpu: Double?
  var memUsed: Int64
  var memTotal: Int64
  var swapUsed: Int64
  var swapTotal: Int64
  var diskUsed: Int64
  var diskTotal: Int64
  var netInSpeed: Int64
  var netOutSpeed: Int64
  var netInTransfer: Int64
  var netOutTransfer: Int64
  var load1: Double?
  var load5: Double?
  var load15: Double?
  var tcpConn: Int
  var udpConn: Int
  var processCount: Int
  var cpuName: String?
  var os: String?
  var region: String?
  var countryCode: String?
  var groupId: String?
  var features: [String]
  var diskReadBytesPerSec: Int64
  var diskWriteBytesPerSec: Int64
  var tags: [String]
  var cpuCores: Int?
  var agentAuthority: PlainAuthority
  var hasToken: Bool
  var outstandingEnrollment: PlainOffer?

  mutating func merge(_ m: PlainMetrics) {
    if let v = m.online { online = v }
    if let v = m.lastActive { lastActive = v }
    if let v = m.uptime { uptime = v }
    if let v = m.cpu { cpu = v }
    if let v = m.memUsed { memUsed = v }
    if let v = m.swapUsed { swapUsed = v }
    if let v = m.diskUsed { diskUsed = v }
    if let v = m.netInSpeed { netInSpeed = v }
    if let v = m.netOutSpeed { netOutSpeed = v }
    if let v = m.netInTransfer { netInTransfer = v }
    if let v = m.netOutTransfer { netOutTransfer = v }
    if let v = m.load1 { load1 = v }
    if let v = m.load5 { load5 = v }
    if let v = m.load15 { load15 = v }
    if let v = m.tcpConn { tcpConn = v }
    if let v = m.udpConn { udpConn = v }
    if let v = m.processCount { processCount = v }
    if let v = m.diskReadBytesPerSec { diskReadBytesPerSec = v }
    if let v = m.diskWriteBytesPerSec { diskWriteBytesPerSec = v }
  }
}

private struct PlainUpdate: Decodable {
  var type: String
  var servers: [PlainMetrics]
}

private struct PlainMetrics: Decodable {
  var id: String
  var name: String?
  var online: Bool?
  var lastActive: Int64?
  var uptime: Int64?
  var cpu: Double?
  var memUsed: Int64?
  var swapUsed: Int64?
  var diskUsed: Int64?
  var netInSpeed: Int64?
  var netOutSpeed: Int64?
  var netInTransfer: Int64?
  var netOutTransfer: Int64?
  var load1: Double?
  var load5: Double?
  var load15: Double?
  var tcpConn: Int?
  var udpConn: Int?
  var processCount: Int?
  var diskReadBytesPerSec: Int64?
  var diskWriteBytesPerSec: Int64?
}
