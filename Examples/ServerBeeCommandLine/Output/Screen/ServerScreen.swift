import Foundation
import ServerBeeModels

/// What `serverbee server` shows of one server, gathered before drawing.
struct ServerScreenContent: Sendable {
  /// The server's configuration (`GET /api/servers`).
  var server: ServerResponse
  /// Its live state from the stream, `nil` when the stream has none for it.
  var status: ServerStatus?
  /// Its history over `start…end` (`GET /api/servers/{id}/records`).
  var records: [ServerRecord]
  /// The start of the charts' time axis.
  var start: Date
  /// The end of the charts' time axis.
  var end: Date
  /// Its traffic this billing cycle, or why it could not be read.
  var traffic: Result<ServerTraffic, ScreenSectionError>?
  /// Its uptime by day, oldest first, or why it could not be read.
  var uptime: Result<[UptimeDay], ScreenSectionError>?
  /// The service monitors that watch it (their `server_ids` name it), or why they could not
  /// be read.
  var monitors: Result<[ServiceMonitor], ScreenSectionError>? = nil
  /// Its Docker containers with their stats, or why they could not be read; `nil` (no section)
  /// when the server has no Docker (Protocol/AppRoutes.md §8.1).
  var containers: Result<[ScreenContainer], ScreenSectionError>? = nil
}

/// One container on the server screen: its name and state, and its CPU and memory when it runs.
struct ScreenContainer: Sendable, Encodable {
  var container: DockerContainer
  var stats: DockerContainerStats?

  /// Pairs each container with its stats (by id).
  static func join(_ containers: [DockerContainer], _ stats: [DockerContainerStats])
    -> [ScreenContainer]
  {
    let byID = Dictionary(stats.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return containers.map { ScreenContainer(container: $0, stats: byID[$0.id]) }
  }
}

/// A section of a screen that could not be loaded: the screen shows the sentence in its place
/// and draws the rest.
struct ScreenSectionError: Error, Sendable, Equatable {
  /// What went wrong, as a sentence.
  var sentence: String
}

/// Draws ``ServerScreenContent`` on a ``Canvas``: a heading with the static facts, the live
/// state with bars, charts of CPU, memory, disk and network over the range, the traffic of the
/// billing cycle against its limit and the uptime by day. From 140 columns on, the charts stand
/// two by two.
///
/// ```swift
/// let canvas = ServerScreen.draw(content, width: console.terminalColumns ?? 100)
/// console.line(CanvasText.lines(canvas, colors: console.colors).joined(separator: "\n"))
/// ```
enum ServerScreen {
  /// The rows of dots of each chart.
  static let chartHeight = 5

  /// The screen for `content`, `width` columns wide (at least 40).
  static func draw(_ content: ServerScreenContent, width requested: Int) -> Canvas {
    let width = max(40, requested)
    var canvas = Canvas(width: width)
    heading(content, into: &canvas)
    canvas.skip()
    live(content, into: &canvas)
    canvas.skip()
    charts(content, into: &canvas)
    canvas.skip()
    traffic(content, into: &canvas)
    canvas.skip()
    uptime(content, into: &canvas)
    canvas.skip()
    monitors(content, into: &canvas)
    if content.containers != nil {
      canvas.skip()
      containers(content, into: &canvas)
    }
    return canvas
  }

  // MARK: - Heading

  private static func heading(_ content: ServerScreenContent, into canvas: inout Canvas) {
    let server = content.server
    let online = content.status?.online ?? false
    var x = canvas.write(online ? "●" : "○", x: 0, y: 0, ink: online ? .good : .bad)
    x = canvas.write(" " + TerminalText.safe(server.name), x: x, y: 0, ink: .heading)
    x = canvas.write(online ? "  online" : "  offline", x: x, y: 0, ink: online ? .good : .bad)
    var facts: [String] = []
    if online, let uptime = content.status?.uptime { facts.append("up " + duration(uptime)) }
    if !online, let last = content.status?.lastActive, last > 0 {
      facts.append("last seen " + Formatting.time(Date(timeIntervalSince1970: Double(last))))
    }
    canvas.write(facts.map { " · " + $0 }.joined(), x: x, y: 0, ink: .faint)
    var system: [String] = []
    if let os = server.os ?? content.status?.os { system.append(os) }
    if let arch = server.cpuArch { system.append(arch) }
    if let cores = server.cpuCores ?? content.status?.cpuCores { system.append("\(cores) cores") }
    if let cpu = server.cpuName ?? content.status?.cpuName { system.append(cpu) }
    if let virtualization = server.virtualization { system.append(virtualization) }
    var place: [String] = []
    if let country = server.countryCode { place.append(country.uppercased()) }
    if let region = server.region { place.append(region) }
    if let ip = server.ipv4 ?? server.ipv6 { place.append(ip) }
    if let agent = server.agentVersion { place.append("agent " + agent) }
    if let tags = content.status?.tags, !tags.isEmpty {
      place.append("tags " + tags.joined(separator: ", "))
    }
    canvas.write(TerminalText.safe(system.joined(separator: " · ")), x: 2, y: 1, ink: .faint)
    if !place.isEmpty {
      canvas.write(TerminalText.safe(place.joined(separator: " · ")), x: 2, y: 2, ink: .faint)
    }
  }

  // MARK: - Live state

  private static func live(_ content: ServerScreenContent, into canvas: inout Canvas) {
    let y = canvas.height
    guard let status = content.status, status.online ?? false else {
      canvas.write("No live state: the server's agent is not connected.", x: 0, y: y, ink: .faint)
      return
    }
    let server = content.server
    let memoryTotal = status.memTotal ?? server.memTotal
    let diskTotal = status.diskTotal ?? server.diskTotal
    let rows: [(String, Double?, Ink, String)] = [
      (
        "CPU", status.cpu.map { $0 / 100 }, .cpu,
        load(status).map { "load " + $0 } ?? ""
      ),
      (
        "Memory", fraction(status.memUsed, memoryTotal), .memory,
        amount(status.memUsed, of: memoryTotal)
      ),
      ("Disk", fraction(status.diskUsed, diskTotal), .disk, amount(status.diskUsed, of: diskTotal)),
    ]
    for (index, row) in rows.enumerated() {
      canvas.write(row.0, x: 0, y: y + index, ink: .heading)
      share(row.1, note: "  " + row.3, ink: row.2, y: y + index, into: &canvas)
    }
    let line = y + rows.count
    canvas.write("Network", x: 0, y: line, ink: .heading)
    var x = canvas.write("↓ " + Formatting.rate(status.netInSpeed), x: 9, y: line, ink: .netIn)
    x = canvas.write("  ↑ " + Formatting.rate(status.netOutSpeed), x: x, y: line, ink: .netOut)
    var counts: [String] = []
    if let tcp = status.tcpConn { counts.append("TCP \(tcp)") }
    if let udp = status.udpConn { counts.append("UDP \(udp)") }
    if let processes = status.processCount { counts.append("\(processes) processes") }
    canvas.write("  " + counts.joined(separator: " · "), x: x, y: line, ink: .faint)
  }

  private static func load(_ status: ServerStatus) -> String? {
    let values = [status.load1, status.load5, status.load15].compactMap { $0 }
    guard !values.isEmpty else { return nil }
    return values.map { String(format: "%.2f", $0) }.joined(separator: " ")
  }

  private static func fraction(_ used: Int64?, _ total: Int64?) -> Double? {
    guard let used, let total, total > 0 else { return nil }
    return Double(used) / Double(total)
  }

  private static func amount(_ used: Int64?, of total: Int64?) -> String {
    guard let used else { return "" }
    return Formatting.bytes(used) + (total.map { " of " + Formatting.bytes($0) } ?? "")
  }

  // MARK: - Charts

  private static func charts(_ content: ServerScreenContent, into canvas: inout Canvas) {
    let records = content.records
    let memoryTotal = content.server.memTotal ?? content.status?.memTotal
    let diskTotal = content.server.diskTotal ?? content.status?.diskTotal
    func points(_ value: (ServerRecord) -> Double?) -> [TimeChart.Point] {
      records.map { TimeChart.Point(time: $0.time.date, value: value($0)) }
    }
    func share(_ used: Int64?, _ total: Int64?) -> Double? {
      fraction(used, total).map { $0 * 100 }
    }
    let cpu = points(\.cpu)
    let memory = points { share($0.memUsed, memoryTotal) }
    let disk = points { share($0.diskUsed, diskTotal) }
    let netIn = points { $0.netInSpeed.map(Double.init) }
    let netOut = points { $0.netOutSpeed.map(Double.init) }
    func peak(_ points: [TimeChart.Point]) -> Double? { points.compactMap(\.value).max() }
    let charts = [
      TimeChart(
        title: "CPU", legend: percentLegend(cpu), scale: .percent, start: content.start,
        end: content.end, series: [.init(ink: .cpu, points: cpu)]),
      TimeChart(
        title: "Memory",
        legend: percentLegend(memory)
          + (memoryTotal.map { [("of " + Formatting.bytes($0), .faint)] } ?? []),
        scale: .percent, start: content.start, end: content.end,
        series: [.init(ink: .memory, points: memory)]),
      TimeChart(
        title: "Disk",
        legend: percentLegend(disk)
          + (diskTotal.map { [("of " + Formatting.bytes($0), .faint)] } ?? []),
        scale: .percent, start: content.start, end: content.end,
        series: [.init(ink: .disk, points: disk)]),
      TimeChart(
        title: "Network",
        legend: [
          ("↓ in, peak " + Formatting.rate(peak(netIn).map { Int64($0) }), .netIn),
          ("↑ out, peak " + Formatting.rate(peak(netOut).map { Int64($0) }), .netOut),
        ],
        scale: .bytesPerSecond, start: content.start, end: content.end,
        series: [.init(ink: .netIn, points: netIn), .init(ink: .netOut, points: netOut)]),
    ]
    if records.isEmpty {
      canvas.write(
        "No history from \(Formatting.time(content.start)) to \(Formatting.time(content.end)).",
        x: 0, y: canvas.height, ink: .faint)
      return
    }
    let twoColumns = canvas.width >= 140
    let columnWidth = twoColumns ? (canvas.width - 3) / 2 : canvas.width
    var y = canvas.height
    for (index, chart) in charts.enumerated() {
      let drawn = chart.draw(width: columnWidth, height: chartHeight)
      let left = !twoColumns || index % 2 == 0
      canvas.place(drawn, x: left ? 0 : columnWidth + 3, y: y)
      if !twoColumns || !left { y = canvas.height + (index == charts.count - 1 ? 0 : 1) }
    }
  }

  private static func percentLegend(_ points: [TimeChart.Point]) -> [(text: String, ink: Ink)] {
    let values = points.compactMap(\.value)
    guard let last = values.last, let peak = values.max() else { return [("no data", .faint)] }
    return [
      ("last " + Formatting.percent(last), .plain),
      ("peak " + Formatting.percent(peak), .faint),
    ]
  }

  // MARK: - Traffic and uptime

  private static func traffic(_ content: ServerScreenContent, into canvas: inout Canvas) {
    let y = canvas.height
    let x = canvas.write("Traffic", x: 0, y: y, ink: .heading)
    switch content.traffic {
    case nil:
      canvas.write("  not loaded", x: x, y: y, ink: .faint)
    case .failure(let error)?:
      canvas.write("  " + error.sentence, x: x, y: y, ink: .faint)
    case .success(let traffic)?:
      let cycle = "\(traffic.cycleStart) → \(traffic.cycleEnd)"
      canvas.write(
        "  cycle \(cycle)" + (content.server.billingCycle.map { " (\($0))" } ?? ""), x: x, y: y,
        ink: .faint)
      var line = canvas.write(
        "↓ " + Formatting.bytes(traffic.bytesIn), x: 9, y: y + 1, ink: .netIn)
      line = canvas.write(
        "  ↑ " + Formatting.bytes(traffic.bytesOut), x: line, y: y + 1, ink: .netOut)
      guard let limit = traffic.trafficLimit, limit > 0 else {
        canvas.write(
          "  total " + Formatting.bytes(traffic.bytesTotal) + ", no limit", x: line, y: y + 1,
          ink: .faint)
        return
      }
      let type = traffic.trafficLimitType.map { " (counting \($0))" } ?? ""
      share(
        traffic.usagePercent.map { $0 / 100 }, note: "  of " + Formatting.bytes(limit) + type,
        ink: .netIn, y: y + 2, into: &canvas)
    }
  }

  private static func uptime(_ content: ServerScreenContent, into canvas: inout Canvas) {
    let y = canvas.height
    let x = canvas.write("Uptime", x: 0, y: y, ink: .heading)
    switch content.uptime {
    case nil:
      canvas.write("  not loaded", x: x, y: y, ink: .faint)
    case .failure(let error)?:
      canvas.write("  " + error.sentence, x: x, y: y, ink: .faint)
    case .success(let all)?:
      let days = Array(all.suffix(max(1, canvas.width - 9)))
      let watched = days.reduce(0) { $0 + $1.totalMinutes }
      let online = days.reduce(0) { $0 + $1.onlineMinutes }
      let outages = days.reduce(0) { $0 + $1.downtimeIncidents }
      let share = watched > 0 ? Formatting.percent(Double(online) / Double(watched) * 100) : "-"
      canvas.write(
        "  the last \(days.count) day(s): \(share) online, \(outages) outage(s)", x: x, y: y,
        ink: .faint)
      var column = 9
      for day in days {
        let mark = Meter.uptimeMark(day)
        column = canvas.write(mark.mark, x: column, y: y + 1, ink: mark.ink)
      }
      if let first = days.first, let last = days.last {
        canvas.write(
          "\(first.date) … \(last.date)   " + Meter.uptimeLegend, x: 9, y: y + 2, ink: .faint)
      }
    }
  }

  private static func monitors(_ content: ServerScreenContent, into canvas: inout Canvas) {
    let y = canvas.height
    let x = canvas.write("Monitors", x: 0, y: y, ink: .heading)
    switch content.monitors {
    case nil:
      canvas.write("  not loaded", x: x, y: y, ink: .faint)
    case .failure(let error)?:
      canvas.write("  " + error.sentence, x: x, y: y, ink: .faint)
    case .success(let monitors)? where monitors.isEmpty:
      canvas.write("  no service monitor watches this server", x: x, y: y, ink: .faint)
    case .success(let monitors)?:
      let down = monitors.filter { $0.enabled && $0.lastStatus == false }.count
      canvas.write(
        "  \(monitors.count) watch this server, \(down) down", x: x, y: y,
        ink: down > 0 ? .bad : .faint)
      for (index, monitor) in monitors.enumerated() {
        let row = y + 1 + index
        let ink: Ink = monitor.lastStatus.map { $0 ? .good : .bad } ?? .faint
        var column = canvas.write(monitor.lastStatus == false ? "○" : "●", x: 9, y: row, ink: ink)
        column = canvas.write(" " + TerminalText.safe(monitor.name), x: column, y: row)
        column = canvas.write(
          "  " + TerminalText.safe(monitor.monitorType.rawValue) + " "
            + Formatting.excerpt(TerminalText.safe(monitor.target), limit: 30), x: column, y: row,
          ink: .faint)
        column = canvas.write(
          "  " + ServiceMonitorCommands.state(monitor), x: column, y: row, ink: ink)
        if let checked = monitor.lastCheckedAt {
          canvas.write("  checked " + Formatting.time(checked), x: column, y: row, ink: .faint)
        }
      }
    }
  }

  /// The Docker containers: name, state, CPU and memory (only for a server with Docker).
  private static func containers(_ content: ServerScreenContent, into canvas: inout Canvas) {
    let y = canvas.height
    let x = canvas.write("Containers", x: 0, y: y, ink: .heading)
    switch content.containers {
    case nil:
      return
    case .failure(let error)?:
      canvas.write("  " + error.sentence, x: x, y: y, ink: .faint)
    case .success(let containers)? where containers.isEmpty:
      canvas.write("  no containers", x: x, y: y, ink: .faint)
    case .success(let containers)?:
      let running = containers.filter(\.container.isRunning).count
      canvas.write("  \(running) of \(containers.count) running", x: x, y: y, ink: .faint)
      let width = min(
        24, containers.map { TerminalText.safe($0.container.displayName).count }.max() ?? 0)
      for (index, item) in containers.enumerated() {
        let row = y + 1 + index
        let running = item.container.isRunning
        let ink: Ink = running ? .good : .faint
        var column = canvas.write(running ? "●" : "○", x: 9, y: row, ink: ink)
        let name = Formatting.excerpt(TerminalText.safe(item.container.displayName), limit: 24)
        column = canvas.write(
          " " + name + String(repeating: " ", count: max(0, width - name.count)), x: column,
          y: row)
        column = canvas.write(
          "  "
            + TerminalText.safe(item.container.state).padding(
              toLength: 8, withPad: " ", startingAt: 0),
          x: column, y: row, ink: ink)
        if let stats = item.stats {
          canvas.write(
            "  cpu " + Formatting.percent(stats.cpuPercent) + "  mem "
              + Formatting.bytes(stats.memoryUsage), x: column, y: row, ink: .faint)
        }
      }
    }
  }

  // MARK: - Helpers

  /// A bar of `fraction` from column 8 of row `y`, its percentage and `note` after it.
  private static func share(
    _ fraction: Double?, note: String, ink: Ink, y: Int, into canvas: inout Canvas
  ) {
    let barWidth = min(40, max(10, (canvas.width - 44) / 2))
    canvas.write("▕", x: 8, y: y, ink: .faint)
    canvas.write(
      Meter.bar(fraction, width: barWidth), x: 9, y: y,
      ink: Meter.ink(forShare: fraction, normal: ink))
    canvas.write("▏", x: 9 + barWidth, y: y, ink: .faint)
    let percent = fraction.map { Formatting.percent($0 * 100) } ?? "-"
    let x = canvas.write(pad(percent, 7), x: 11 + barWidth, y: y)
    canvas.write(note, x: x, y: y, ink: .faint)
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - Canvas.columns(of: text))) + text
  }

  /// `3 d 4 h`, `5 h 12 min` or `42 min`.
  static func duration(_ seconds: Int64) -> String {
    let minutes = max(0, seconds) / 60
    let (days, hours) = (minutes / 1440, minutes / 60 % 24)
    if days > 0 { return "\(days) d \(hours) h" }
    return hours > 0 ? "\(hours) h \(minutes % 60) min" : "\(minutes) min"
  }
}
