import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeCommandLine

/// `serverbee server`'s drawing: fixed data gives exactly the pinned screens (in
/// `Screens/`), at 80 and 160 columns, with and without colour, and as SVG.
///
/// After a deliberate change of the drawing, write the files anew with
/// `SERVERBEE_WRITE_SCREENS=1 swift test --filter ServerScreenTests` and review the diff.
@Suite struct ServerScreenTests {
  @Test(arguments: [80, 160])
  func theScreenDrawsExactlyThePinnedTextWithoutColour(width: Int) throws {
    let canvas = ServerScreen.draw(Self.content(), width: width)
    let text = CanvasText.lines(canvas, colors: false).joined(separator: "\n") + "\n"
    try Self.expectPinned(text, "server-\(width).txt")
    #expect(!text.contains("\u{1B}"))
    #expect(text.split(separator: "\n").allSatisfy { Canvas.columns(of: String($0)) <= width })
  }

  @Test(arguments: [80, 160])
  func theScreenDrawsExactlyThePinnedTextInColour(width: Int) throws {
    let canvas = ServerScreen.draw(Self.content(), width: width)
    let text = CanvasText.lines(canvas, colors: true).joined(separator: "\n") + "\n"
    try Self.expectPinned(text, "server-\(width).ansi")
    #expect(text.contains("\u{1B}[36m"))  // the CPU chart
  }

  @Test(arguments: [80, 160])
  func theSVGPictureIsTheSameDrawing(width: Int) throws {
    let canvas = ServerScreen.draw(Self.content(), width: width)
    let svg = CanvasSVG.document(canvas)
    try Self.expectPinned(svg, "server-\(width).svg")
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
  }

  @Test func minuteApartHistoryBesideALiveTailIsALineAndAnOutageAGap() {
    // An hour on 144 dot columns (25 s each): a sample a minute for 30 min, nothing for 10 min
    // (an outage), a sample a minute again, then the last 5 min every 3 s, as the live stream
    // adds them. The spacing is judged beside each pair, not by the median (3 s here).
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    var points = (0...30).map { TimeChart.Point(time: start + Double($0) * 60, value: 10) }
    points += (40...55).map { TimeChart.Point(time: start + Double($0) * 60, value: 10) }
    points += (0...100).map {
      TimeChart.Point(time: start + 55 * 60 + Double($0) * 3, value: 10)
    }
    let chart = TimeChart(
      title: "CPU", scale: .percent, start: start, end: start + 3_600,
      series: [.init(ink: .cpu, points: points)])
    let values = chart.resample(points, into: 144)
    let slice = 3_600.0 / 144
    let column = { (minute: Double) in Int(minute * 60 / slice) }
    #expect(values[column(0)...column(30)].allSatisfy { $0 == 10 }, "the first half hour")
    #expect(values[column(32)...column(38)].allSatisfy { $0 == nil }, "the outage")
    #expect(values[column(40)..<144].allSatisfy { $0 == 10 }, "history, then the live tail")
  }

  @Test func anOfflineServerWithoutHistorySaysSoInsteadOfDrawingEmptyCharts() {
    var content = Self.content()
    content.status?.online = false
    content.records = []
    content.traffic = .failure(ScreenSectionError(sentence: "the server has no traffic route"))
    let text = CanvasText.lines(ServerScreen.draw(content, width: 80), colors: false)
      .joined(separator: "\n")
    #expect(text.contains("○ web-1  offline"))
    #expect(text.contains("No live state: the server's agent is not connected."))
    #expect(text.contains("No history from 2026-12-05 11:00:00Z to 2026-12-05 12:00:00Z."))
    #expect(text.contains("Traffic  the server has no traffic route"))
    #expect(!text.contains("⣀"))
  }

  @Test func theContainersSectionIsThereOnlyWhereTheServerHasDocker() {
    var content = Self.content()
    let text = CanvasText.lines(ServerScreen.draw(content, width: 80), colors: false)
      .joined(separator: "\n")
    #expect(text.contains("Containers  2 of 3 running"))
    #expect(text.contains("● stack-web-1         running   cpu 12.5%  mem 96 MiB"), "\(text)")
    #expect(!text.contains("\u{1B}[2J"))
    content.containers = nil
    let without = CanvasText.lines(ServerScreen.draw(content, width: 80), colors: false)
      .joined(separator: "\n")
    #expect(!without.contains("Containers"))
    content.containers = .failure(ScreenSectionError(sentence: "the agent did not answer"))
    let failed = CanvasText.lines(ServerScreen.draw(content, width: 80), colors: false)
      .joined(separator: "\n")
    #expect(failed.contains("Containers  the agent did not answer"))
  }

  @Test func aHostileServerNameCannotReachTheTerminal() {
    var content = Self.content()
    content.server.name = "evil\u{1B}]0;pwned\u{07}\u{202E}x"
    let text = CanvasText.lines(ServerScreen.draw(content, width: 80), colors: true)
      .joined(separator: "\n")
    #expect(!text.contains("\u{1B}]"))
    #expect(!text.contains("\u{07}"))
    #expect(!text.contains("\u{202E}"))
  }

  // MARK: - Fixed data

  static let end = Date(timeIntervalSince1970: 1_796_472_000)  // 2026-12-05 12:00:00Z

  /// One hour of minute samples with a daily-looking CPU wave, memory creeping up, a flat
  /// disk and a burst of traffic in the middle; a 10-minute gap where the agent was away.
  static func content() -> ServerScreenContent {
    let start = end.addingTimeInterval(-3600)
    let gib: Int64 = 1 << 30
    let records = (0...60).compactMap { minute -> ServerRecord? in
      guard !(30..<40).contains(minute) else { return nil }
      let phase = Double(minute) / 60 * 2 * Double.pi
      let burst = (20..<28).contains(minute) ? Int64(48 << 20) : 0
      return ServerRecord(
        time: RFC3339Timestamp(start.addingTimeInterval(Double(minute) * 60)),
        cpu: 35 + 25 * sin(phase), memUsed: 2 * gib + Int64(minute) * (8 << 20),
        diskUsed: 31 * gib, netInSpeed: (3 << 20) + burst, netOutSpeed: (1 << 20) + burst / 4,
        load1: 0.8)
    }
    let server = ServerResponse(
      id: "9ebb0c1e", name: "web-1", cpuName: "AMD EPYC 7763", cpuCores: 4, cpuArch: "x86_64",
      os: "Debian 12", memTotal: 8 * gib, diskTotal: 80 * gib, ipv4: "203.0.113.10",
      region: "Frankfurt", countryCode: "de", virtualization: "kvm", agentVersion: "1.4.0",
      billingCycle: "monthly", trafficLimit: 1 << 40, trafficLimitType: "sum",
      createdAt: RFC3339Timestamp(end.addingTimeInterval(-90 * 86_400)),
      updatedAt: RFC3339Timestamp(end))
    let status = ServerStatus(
      id: "9ebb0c1e", name: "web-1", online: true, uptime: 3 * 86_400 + 4 * 3600 + 120,
      cpu: 35, memUsed: 2 * gib + 60 * (8 << 20), memTotal: 8 * gib, diskUsed: 31 * gib,
      diskTotal: 80 * gib,
      netInSpeed: 3 << 20, netOutSpeed: 1 << 20, load1: 0.82, load5: 0.64, load15: 0.51,
      tcpConn: 42, udpConn: 7, processCount: 183, tags: ["prod", "eu"])
    let traffic = ServerTraffic(
      cycleStart: CalendarDate(daysSince1970: 20_788),
      cycleEnd: CalendarDate(daysSince1970: 20_818),
      bytesIn: 310 * gib, bytesOut: 96 * gib, bytesTotal: 406 * gib, trafficLimit: 1 << 40,
      trafficLimitType: "sum", usagePercent: 39.6, prediction: nil, daily: [], hourly: [])
    let uptime = (0..<30).map { day in
      let down = [3: 14, 11: 95, 26: 4][day] ?? 0
      return UptimeDay(
        date: CalendarDate(daysSince1970: 20_763 + day), totalMinutes: day == 5 ? 0 : 1440,
        onlineMinutes: day == 5 ? 0 : 1440 - down, downtimeIncidents: down > 0 ? 1 : 0)
    }
    let checked = RFC3339Timestamp(end.addingTimeInterval(-60))
    let monitors = [
      ServiceMonitor(
        id: "https-web", name: "Web front", monitorType: .httpKeyword,
        target: "https://web-1.example.com/health", interval: 60,
        serverIDsJSON: #"["9ebb0c1e"]"#, lastStatus: true, lastCheckedAt: checked,
        createdAt: checked, updatedAt: checked),
      ServiceMonitor(
        id: "tcp-db", name: "Database port", monitorType: .tcp, target: "web-1.internal:5432",
        interval: 60, serverIDsJSON: #"["9ebb0c1e"]"#, lastStatus: false,
        consecutiveFailures: 3, lastCheckedAt: checked, createdAt: checked, updatedAt: checked),
    ]
    let created = Int64(end.timeIntervalSince1970) - 3 * 86_400
    let containers = [
      DockerContainer(
        id: "c-web", name: "/stack-web-1", image: "nginx:1.27", state: "running",
        status: "Up 3 days", created: created),
      DockerContainer(
        id: "c-db", name: "/stack-db-1", image: "postgres:16", state: "running",
        status: "Up 3 days", created: created),
      DockerContainer(
        id: "c-worker", name: "/stack-worker-1\u{1B}[2J", image: "worker", state: "exited",
        status: "Exited (1) 2 days ago", created: created),
    ]
    let stats = [
      DockerContainerStats(
        id: "c-web", name: "stack-web-1", cpuPercent: 12.5, memoryUsage: 96 << 20,
        memoryLimit: 8 * gib, memoryPercent: 1.17, networkRx: 0, networkTx: 0, blockRead: 0,
        blockWrite: 0),
      DockerContainerStats(
        id: "c-db", name: "stack-db-1", cpuPercent: 3.25, memoryUsage: 412 << 20,
        memoryLimit: 8 * gib, memoryPercent: 5.03, networkRx: 0, networkTx: 0, blockRead: 0,
        blockWrite: 0),
    ]
    return ServerScreenContent(
      server: server, status: status, records: records, start: start, end: end,
      traffic: .success(traffic), uptime: .success(uptime), monitors: .success(monitors),
      containers: .success(ScreenContainer.join(containers, stats)))
  }

  // MARK: - Pinned files

  static func expectPinned(_ text: String, _ name: String) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Screens").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["SERVERBEE_WRITE_SCREENS"] == "1" {
      try text.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let pinned = try String(contentsOf: url, encoding: .utf8)
    #expect(text == pinned, "\(name) differs from the pinned drawing")
  }
}
