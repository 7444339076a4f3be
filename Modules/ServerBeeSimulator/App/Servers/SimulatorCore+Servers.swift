import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// The servers, shared with the live stream (`Network/LiveSession.swift`), the metrics ticker,
/// seeding (``Simulator/createServers(count:)``) and the clock area's tick: reading them (with
/// ``serverCache``), the `full_sync` frame, creating one, and storing live numbers and presence
/// with their broadcasts.
extension SimulatorCore {
  /// Every server in list order; from ``serverCache`` while the database is unchanged.
  func allServers() throws -> [ServerRow] {
    let version = db.serversVersion
    if let version, let rows = serverCache.rows(at: version) { return rows }
    let rows = try db.read(
      "SELECT \(ServerRow.columns) FROM servers ORDER BY weight DESC, created_at DESC"
    ) { ServerRow($0) }
    if let version { serverCache.store(rows, at: version) }
    return rows
  }

  func server(id: String) throws -> ServerRow? {
    try db.read("SELECT \(ServerRow.columns) FROM servers WHERE id = ?", [.text(id)]) {
      ServerRow($0)
    }.first
  }

  /// Brings the servers' kept objects up to date (under the lock); the returned function joins
  /// them into a `full_sync` (after). The frame is kept for the rest of the second while
  /// nothing changes: sessions that connect together (a reconnecting fleet of apps) share one.
  ///
  /// The objects are ``ServerCache/fragments``: only rows written since the last
  /// frame are read, so the lock is held for the changes alone. Inside a transaction the frame
  /// is written from the rows, under the lock, as before. The rows cache is neither used nor
  /// filled here.
  func fullSyncSource() throws -> () throws -> String {
    // A lapsed offer is gone from the frame (Protocol/Agents.md §10), and the upgrades in
    // flight are where the clock says (Protocol/Agents.md §11).
    try expireLapsedOffers()
    try advanceUpgrades()
    let upgrades = try Self.upgradesArray(upgradeJobsInFlight())
    let seconds = now / Self.second
    let version = db.serversVersion
    if let version, let frame = serverCache.fullSync(at: version, seconds: seconds) {
      return { try Self.withUpgrades(frame, upgrades) }
    }
    guard let version, let fragments = try serverCache.fragments.current(db, needing: .frame)
    else {
      let frame = try WireWriter.fullSync(rowsOf: db, nowSeconds: seconds)
      return { try Self.withUpgrades(frame, upgrades) }
    }
    return { [serverCache] in
      guard let frame = WireWriter.fullSync(fragments, nowSeconds: seconds) else {
        throw ServerBeeSimulatorError(.storageFailed, "the kept server objects are incomplete")
      }
      // Kept without the upgrades: they move on their own clock, not the rows'.
      serverCache.store(fullSync: frame, seconds: seconds, at: version)
      return try Self.withUpgrades(frame, upgrades)
    }
  }

  /// `jobs` as the text of `full_sync.upgrades`; `nil` when there are none.
  private static func upgradesArray(_ jobs: [UpgradeJob]) throws -> String? {
    guard !jobs.isEmpty else { return nil }
    return String(decoding: try WireJSON.encode(jobs), as: UTF8.self)
  }

  /// A `full_sync` frame written with an empty `upgrades` (``WireWriter/fullSyncClosing``),
  /// with `upgrades` in its place instead.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) when the frame does not end as
  ///   written (a broken writer, never the data).
  private static func withUpgrades(_ frame: String, _ upgrades: String?) throws -> String {
    guard let upgrades else { return frame }
    let closing = "\(WireWriter.fullSyncClosing)"
    guard frame.hasSuffix(closing) else {
      throw ServerBeeSimulatorError(.storageFailed, "a full_sync frame ends unexpectedly")
    }
    return String(frame.dropLast(closing.count)) + "],\"upgrades\":" + upgrades + "}"
  }

  /// A `full_sync` frame, read and written in one go.
  func fullSync() throws -> String { try db.serial { try fullSyncSource() }() }

  func createServer(name: String, body: JSONBody? = nil) throws -> String {
    let id = Crypto.uuid(random)
    let online = try body?.bool("online") ?? true
    let defaults = Self.serverDefaults(index: Int(random(1)[0]))
    let features = try body?.strings("features") ?? []
    let tags = try body?.strings("tags") ?? []
    var live: (numbers: LiveNumbers, json: String)?
    if online {
      let numbers = MetricsModel.initial(random)
      live = (numbers, try liveJSON(numbers))
    }
    try db.execute(
      """
      INSERT INTO servers (id, name, cpu_name, cpu_cores, cpu_arch, os, kernel_version,
        mem_total, swap_total, disk_total, ipv4, region, country_code, group_id, weight,
        features_json, tags_json, online, live_json, live_numbers, created_at, updated_at,
        agent_version)
      VALUES (?, ?, ?, ?, 'x86_64', ?, '6.1.0', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
        '1.4.0')
      """,
      [
        .text(id), .text(name), .text(try body?.optionalString("cpu_name") ?? defaults.cpu),
        .int(try body?.int("cpu_cores") ?? defaults.cores),
        .text(try body?.optionalString("os") ?? "Debian GNU/Linux 12"),
        .int(try body?.int("mem_total") ?? defaults.memory),
        .int(try body?.int("swap_total") ?? 2 << 30),
        .int(try body?.int("disk_total") ?? defaults.disk),
        (try body?.optionalString("ipv4")).sql, (try body?.optionalString("region")).sql,
        (try body?.optionalString("country_code")).sql, (try body?.optionalString("group_id")).sql,
        .int(try body?.int("weight") ?? 0),
        .text(String(decoding: try WireJSON.encode(features), as: UTF8.self)),
        .text(String(decoding: try WireJSON.encode(tags.sorted()), as: UTF8.self)),
        online.sql, live.map { .text($0.json) } ?? .null,
        live.map { .blob($0.numbers.packed) } ?? .null,
        .int(now), .int(now),
      ])
    return id
  }

  static func serverDefaults(index: Int) -> (cpu: String, cores: Int64, memory: Int64, disk: Int64)
  {
    let options: [(String, Int64, Int64, Int64)] = [
      ("AMD EPYC 7763 64-Core Processor", 2, 4 << 30, 80 << 30),
      ("Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz", 4, 8 << 30, 160 << 30),
      ("Ampere Altra Q80-30", 8, 16 << 30, 320 << 30),
    ]
    let option = options[index % options.count]
    return (option.0, option.1, option.2, option.3)
  }

  func liveJSON(_ live: LiveNumbers) throws -> String {
    String(decoding: try JSONEncoder().encode(live), as: UTF8.self)
  }

  /// Stores new live numbers, appends a record and broadcasts one `update` frame.
  func applyMetrics(serverID: String, _ live: LiveNumbers) throws {
    guard let row = try server(id: serverID) else { throw APIError.notFound("Server not found") }
    let wasOnline = row.online
    try db.execute(
      "UPDATE servers SET live_json = ?, live_numbers = ?, online = 1 WHERE id = ?",
      [.text(try liveJSON(live)), .blob(live.packed), .text(serverID)])
    try insertRecord(serverID: serverID, time: now, live)
    if !wasOnline {
      hub.broadcast(
        try WireJSON.encode(LiveStreamMessage.presence(online: true, serverID: serverID)))
    }
    let metrics = live.metrics(id: row.id, name: row.name, nowSeconds: now / Self.second)
    hub.broadcast(try WireJSON.encode(LiveStreamMessage.update(metrics)))
  }

  /// Appends one row to a server's history (`GET /api/servers/{id}/records`).
  func insertRecord(serverID: String, time: Int64, _ live: LiveNumbers) throws {
    try db.execute(
      """
      INSERT INTO records (server_id, time, cpu, mem_used, swap_used, disk_used, net_in_speed,
        net_out_speed, net_in_transfer, net_out_transfer, load1, load5, load15, tcp_conn,
        udp_conn, process_count, disk_io_json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(serverID), .int(time), .real(live.cpu), .int(live.memUsed), .int(live.swapUsed),
        .int(live.diskUsed), .int(live.netInSpeed), .int(live.netOutSpeed),
        .int(live.netInTransfer), .int(live.netOutTransfer), .real(live.load1),
        .real(live.load5), .real(live.load15), .int(live.tcpConn), .int(live.udpConn),
        .int(live.processCount),
        .text(
          "[{\"name\":\"sda\",\"read_bytes_per_sec\":\(live.diskReadBytesPerSec),"
            + "\"write_bytes_per_sec\":\(live.diskWriteBytesPerSec)}]"),
      ])
  }

  func setPresence(serverID: String, online: Bool) throws {
    let changed = try db.execute(
      "UPDATE servers SET online = ?, updated_at = ? WHERE id = ? AND online != ?",
      [online.sql, .int(now), .text(serverID), online.sql])
    if changed == 1 {
      hub.broadcast(
        try WireJSON.encode(LiveStreamMessage.presence(online: online, serverID: serverID)))
    }
  }

  /// One simulated agent report for every online server.
  func tick() throws {
    for row in try allServers() where row.online {
      try applyMetrics(serverID: row.id, MetricsModel.next(row, random))
    }
    // The next session then finds every `full_sync` object rewritten.
    try serverCache.fragments.refreshIfKept(db)
  }
}
