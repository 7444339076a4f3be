import Foundation
import ServerBeeModels

/// What `serverbee insights` shows of the fleet, gathered before drawing. Each section is the
/// answer of one route, or the sentence saying why it could not be read.
struct FleetScreenContent: Sendable {
  /// When the screen was gathered.
  var time: Date
  /// Servers known, and how many are online (from the live stream).
  var serverCount: Int
  /// How many are online.
  var onlineCount: Int
  /// `GET /api/traffic/overview`.
  var traffic: Result<[ServerTrafficOverview], ScreenSectionError>
  /// `GET /api/cost/overview`.
  var cost: Result<CostOverview, ScreenSectionError>
  /// `GET /api/network-probes/overview`.
  var network: Result<[NetworkProbeFleetOverview], ScreenSectionError>
  /// `GET /api/ip-quality/overview`, with the servers' names by id.
  var ipQuality: Result<[ServerIPQuality], ScreenSectionError>
  /// `GET /api/service-monitors`.
  var monitors: Result<[ServiceMonitor], ScreenSectionError>
  /// `GET /api/incidents`.
  var incidents: Result<[Incident], ScreenSectionError>
  /// Server names by id, for the sections that carry only ids.
  var names: [String: String] = [:]
}

/// Draws ``FleetScreenContent``: one block a section, the worst few rows of each first
/// (``rowsPerSection``), each row one line with a bar or a sparkline where it helps.
///
/// ```swift
/// let canvas = FleetScreen.draw(content, width: 100)
/// ```
enum FleetScreen {
  /// The most rows a section shows; the rest is counted ("and 4 more").
  static let rowsPerSection = 5
  /// Where a section's rows start.
  static let indent = 12

  /// The screen for `content`, `width` columns wide (at least 60).
  static func draw(_ content: FleetScreenContent, width requested: Int) -> Canvas {
    var canvas = Canvas(width: max(60, requested))
    var x = canvas.write("The fleet at a glance", x: 0, y: 0, ink: .heading)
    x = canvas.write(
      "  \(content.serverCount) server(s), ", x: x, y: 0, ink: .faint)
    x = canvas.write(
      "\(content.onlineCount) online", x: x, y: 0,
      ink: content.onlineCount == content.serverCount ? .good : .warning)
    canvas.write("  " + Formatting.time(content.time), x: x, y: 0, ink: .faint)
    section("Traffic", content.traffic, into: &canvas, traffic)
    section("Cost", content.cost, into: &canvas, cost)
    section("Network", content.network, into: &canvas, network)
    section("IP quality", content.ipQuality, into: &canvas) {
      ipQuality($0, names: content.names, &$1)
    }
    section("Monitors", content.monitors, into: &canvas, monitors)
    section("Incidents", content.incidents, into: &canvas, incidents)
    return canvas
  }

  private static func section<T>(
    _ title: String, _ result: Result<T, ScreenSectionError>, into canvas: inout Canvas,
    _ body: (T, inout Canvas) -> Void
  ) {
    canvas.skip()
    canvas.write(title, x: 0, y: canvas.height, ink: .heading)
    switch result {
    case .failure(let error):
      canvas.write(error.sentence, x: indent, y: canvas.height - 1, ink: .faint)
    case .success(let value):
      body(value, &canvas)
    }
  }

  /// Writes the section's first line (after the title) or a further line.
  private static func line(
    _ canvas: inout Canvas, _ parts: [(String, Ink)], first: Bool = false
  ) {
    let y = first ? canvas.height - 1 : canvas.height
    var x = indent
    for (text, ink) in parts { x = canvas.write(text, x: x, y: y, ink: ink) }
  }

  private static func more(_ count: Int, _ canvas: inout Canvas) {
    guard count > rowsPerSection else { return }
    line(&canvas, [("and \(count - rowsPerSection) more", .faint)])
  }

  private static func name(_ text: String, _ width: Int = 14) -> String {
    let safe = TerminalText.safe(text)
    let cut = Canvas.columns(of: safe) > width ? String(safe.prefix(width - 1)) + "…" : safe
    return cut + String(repeating: " ", count: max(0, width - Canvas.columns(of: cut)))
  }

  // MARK: - Sections

  private static func traffic(_ servers: [ServerTrafficOverview], _ canvas: inout Canvas) {
    guard !servers.isEmpty else {
      line(&canvas, [("no server has a billing cycle", .faint)], first: true)
      return
    }
    let totalIn = servers.reduce(0) { $0 + $1.cycleIn }
    let totalOut = servers.reduce(0) { $0 + $1.cycleOut }
    line(
      &canvas,
      [
        ("\(servers.count) server(s) with a cycle: ", .faint),
        ("↓ " + Formatting.bytes(totalIn), .netIn), ("  ↑ " + Formatting.bytes(totalOut), .netOut),
        (" this cycle", .faint),
      ], first: true)
    let barWidth = min(30, max(8, canvas.width - indent - 50))
    let ranked = servers.sorted {
      ($0.percentUsed ?? -1, $1.name) > ($1.percentUsed ?? -1, $0.name)
    }
    for server in ranked.prefix(rowsPerSection) {
      guard let limit = server.trafficLimit, limit > 0 else {
        line(
          &canvas,
          [
            (name(server.name), .plain),
            ("↓ " + Formatting.bytes(server.cycleIn), .netIn),
            ("  ↑ " + Formatting.bytes(server.cycleOut), .netOut),
            (", no limit, \(server.daysRemaining) day(s) left", .faint),
          ])
        continue
      }
      let share = server.percentUsed.map { $0 / 100 }
      line(
        &canvas,
        [
          (name(server.name), .plain), ("▕", .faint),
          (Meter.bar(share, width: barWidth), Meter.ink(forShare: share, normal: .netIn)),
          ("▏", .faint),
          (" " + Formatting.percent(server.percentUsed), .plain),
          (" of " + Formatting.bytes(limit) + ", \(server.daysRemaining) day(s) left", .faint),
        ])
    }
    more(ranked.count, &canvas)
  }

  private static func cost(_ overview: CostOverview, _ canvas: inout Canvas) {
    guard !overview.currencies.isEmpty else {
      line(&canvas, [("no server has a price and a billing cycle", .faint)], first: true)
      return
    }
    let totals = overview.currencies.map { total in
      String(format: "%.2f", total.monthlyEquivalentTotal) + " "
        + TerminalText.safe(total.currency) + " a month (\(total.configuredServerCount))"
    }
    line(&canvas, [(totals.joined(separator: " · "), .plain)], first: true)
    let unpriced = overview.servers.filter { !$0.configured }.count
    let warned = overview.servers.filter { $0.configured && !$0.advisories.isEmpty }
    var notes: [String] = []
    if unpriced > 0 { notes.append("\(unpriced) server(s) without a price") }
    for server in warned.prefix(rowsPerSection) {
      notes.append(
        TerminalText.safe(server.name) + ": "
          + server.advisories.map(\.rawValue).joined(separator: ", "))
    }
    for note in notes { line(&canvas, [(note, .warning)]) }
  }

  private static func network(_ servers: [NetworkProbeFleetOverview], _ canvas: inout Canvas) {
    guard !servers.isEmpty else {
      line(&canvas, [("no probe results yet", .faint)], first: true)
      return
    }
    let targets = servers.reduce(0) { $0 + $1.targets.count }
    let anomalies = servers.reduce(0) { $0 + $1.anomalyCount }
    line(
      &canvas,
      [
        ("\(targets) target(s) on \(servers.count) server(s), ", .faint),
        ("\(anomalies) anomal\(anomalies == 1 ? "y" : "ies")", anomalies > 0 ? .warning : .good),
      ], first: true)
    let ranked = servers.sorted {
      ($0.anomalyCount, $1.serverName) > ($1.anomalyCount, $0.serverName)
    }
    for server in ranked.prefix(rowsPerSection) {
      let latencies = server.targets.compactMap(\.avgLatency)
      let average = latencies.isEmpty ? nil : latencies.reduce(0, +) / Double(latencies.count)
      let loss =
        server.targets.isEmpty
        ? nil : server.targets.map(\.packetLoss).reduce(0, +) / Double(server.targets.count)
      let spark = Array(server.latencySparkline.suffix(max(0, canvas.width - indent - 55)))
      line(
        &canvas,
        [
          (name(server.serverName), server.online ? .plain : .bad),
          (pad(average.map { String(format: "%.1f ms", $0) } ?? "-", 9), .plain),
          (pad(loss.map { Formatting.percent($0 * 100) + " loss" } ?? "-", 12), .faint),
          (
            pad("\(server.anomalyCount) anomalies", 15), server.anomalyCount > 0 ? .warning : .faint
          ),
          ("  " + NetworkProbeCommands.sparkline(spark), .netIn),
        ])
    }
    more(ranked.count, &canvas)
  }

  private static func ipQuality(
    _ servers: [ServerIPQuality], names: [String: String], _ canvas: inout Canvas
  ) {
    let checked = servers.compactMap { server in server.ipQuality.map { (server, $0) } }
    guard !checked.isEmpty else {
      line(&canvas, [("no server has been checked yet", .faint)], first: true)
      return
    }
    let unlocked = servers.reduce(0) {
      $0 + $1.unlockResults.filter { $0.status == .unlocked }.count
    }
    let services = servers.reduce(0) { $0 + $1.unlockResults.count }
    line(
      &canvas,
      [
        ("\(checked.count) server(s) checked, ", .faint),
        ("\(unlocked) of \(services) service checks unlocked", .plain),
      ], first: true)
    let ranked = checked.sorted { ($0.1.riskScore ?? -1) > ($1.1.riskScore ?? -1) }
    for (server, report) in ranked.prefix(rowsPerSection) {
      var flags: [String] = []
      if report.isProxy { flags.append("proxy") }
      if report.isVPN { flags.append("VPN") }
      if report.isTor { flags.append("Tor") }
      if report.isHosting { flags.append("hosting") }
      if report.isAbuser { flags.append("abuser") }
      let risk = report.riskScore.map { "risk \($0)" } ?? "risk -"
      let level = TerminalText.safe(report.riskLevel)
      let ink: Ink =
        ["high", "critical"].contains(level.lowercased())
        ? .bad : level.lowercased() == "medium" ? .warning : .good
      line(
        &canvas,
        [
          (name(names[server.serverID] ?? server.serverID), .plain),
          (pad(risk, 9) + " " + level, ink),
          (
            "  " + TerminalText.safe(report.ipType)
              + (flags.isEmpty ? "" : ", " + flags.joined(separator: ", ")), .faint
          ),
        ])
    }
    more(ranked.count, &canvas)
  }

  private static func monitors(_ monitors: [ServiceMonitor], _ canvas: inout Canvas) {
    let enabled = monitors.filter(\.enabled)
    guard !enabled.isEmpty else {
      line(&canvas, [("no service monitors", .faint)], first: true)
      return
    }
    let down = enabled.filter { $0.lastStatus == false }
    let up = enabled.filter { $0.lastStatus == true }.count
    let unchecked = enabled.count - up - down.count
    line(
      &canvas,
      [
        ("\(enabled.count) monitor(s): ", .faint), ("\(up) up", .good),
        (", ", .faint), ("\(down.count) down", down.isEmpty ? .faint : .bad),
        (unchecked > 0 ? ", \(unchecked) not checked yet" : "", .faint),
      ], first: true)
    let ranked = down.sorted {
      ($0.consecutiveFailures, $1.name) > ($1.consecutiveFailures, $0.name)
    }
    for monitor in ranked.prefix(rowsPerSection) {
      line(
        &canvas,
        [
          (name(monitor.name, 22), .plain),
          (TerminalText.safe(monitor.monitorType.rawValue) + " ", .faint),
          (Formatting.excerpt(TerminalText.safe(monitor.target), limit: 30), .plain),
          ("  down, \(monitor.consecutiveFailures) failure(s) in a row", .bad),
        ])
    }
    more(ranked.count, &canvas)
  }

  private static func incidents(_ incidents: [Incident], _ canvas: inout Canvas) {
    let open = incidents.filter { $0.status != .resolved }.sorted { $0.createdAt > $1.createdAt }
    guard !open.isEmpty else {
      line(&canvas, [("none open", .good)], first: true)
      return
    }
    line(&canvas, [("\(open.count) open", .bad)], first: true)
    for incident in open.prefix(rowsPerSection) {
      let ink: Ink = incident.severity == .critical ? .bad : .warning
      line(
        &canvas,
        [
          (TerminalText.safe(incident.severity.rawValue), ink),
          ("  " + TerminalText.safe(incident.title), .plain),
          (
            "  " + TerminalText.safe(incident.status.rawValue) + " since "
              + Formatting.time(incident.createdAt), .faint
          ),
        ])
    }
    more(open.count, &canvas)
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - Canvas.columns(of: text))) + text
  }
}
