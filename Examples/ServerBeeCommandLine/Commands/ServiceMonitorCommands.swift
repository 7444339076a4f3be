import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee monitors [--type T]`, `monitors MONITOR [--limit N]` and `monitors MONITOR check`
/// (Protocol/AppRoutes.md §11): reading is for anyone signed in; a check now is for admins. A
/// monitor is named by its id or its one name.
enum ServiceMonitorCommands {
  private static let types: [ServiceMonitorType] = [.ssl, .dns, .httpKeyword, .tcp, .whois]

  /// `monitors [--type T]`, or `monitors MONITOR [--limit N]`.
  static func show(_ context: CommandContext) async throws {
    let console = context.console
    let type = try typeOption(context)
    let limit = try limitOption(context)
    let named = context.arguments.positionals.first
    if named == nil, context.arguments.values["limit"] != nil {
      throw CommandLineError(
        .usage, "--limit needs a MONITOR ('serverbee monitors MONITOR --limit N')")
    }
    if named != nil, type != nil {
      throw CommandLineError(
        .usage, "--type lists monitors: leave out MONITOR ('serverbee monitors --type T')")
    }
    let api = try await APICredential.client(context)
    guard let named else {
      let monitors = try await APIRequest.run("Loading the monitors", console: console) {
        try await api.serviceMonitors(type: type)
      }
      if console.json {
        console.json(try WireJSON.encode(monitors))
        return
      }
      guard !monitors.isEmpty else {
        console.line(type.map { "No \($0) monitors." } ?? "No service monitors.")
        return
      }
      var table = TextTable(columns: [
        .left("NAME"), .left("TYPE"), .left("TARGET"), .left("STATE"), .right("FAILS"),
        .right("EVERY"), .left("CHECKED"), .left("ID"),
      ])
      for monitor in monitors {
        table.append([
          Formatting.excerpt(monitor.name, limit: 30), monitor.monitorType.rawValue,
          Formatting.excerpt(monitor.target, limit: 30), state(monitor),
          "\(monitor.consecutiveFailures)", every(monitor.interval),
          monitor.lastCheckedAt.map(Formatting.time) ?? "never", monitor.id,
        ])
      }
      console.line(table.render())
      return
    }
    let monitor = try await find(named, api, console)
    let detail = try await APIRequest.run(
      "Loading the monitor", console: console, notFound: notFound(named)
    ) { try await api.serviceMonitor(id: monitor.id) }
    let records = try await APIRequest.run("Loading its checks", console: console) {
      try await api.serviceMonitorRecords(id: monitor.id, limit: limit)
    }
    if console.json {
      struct Shown: Encodable {
        let monitor: ServiceMonitorDetail
        let records: [ServiceMonitorRecord]
      }
      console.json(try WireJSON.encode(Shown(monitor: detail, records: records)))
      return
    }
    let shown = detail.monitor
    console.line(
      TerminalText.safe(
        "\(shown.name) (\(shown.monitorType) \(shown.target)): \(state(shown)), "
          + (shown.lastCheckedAt.map { "checked \(Formatting.time($0))" } ?? "never checked")))
    console.line(
      TerminalText.safe(
        "every \(every(shown.interval)), \(shown.consecutiveFailures) failure(s) in a row, "
          + "down after \(shown.retryCount), config \(shown.configJSON), id \(shown.id)"))
    guard !records.isEmpty else {
      console.line("No checks kept.")
      return
    }
    var table = TextTable(columns: [
      .left("TIME"), .left("RESULT"), .right("LATENCY"), .left("ERROR"),
    ])
    for record in records {
      table.append([
        Formatting.time(record.time), record.success ? "ok" : "failed", latency(record.latency),
        record.error.map { Formatting.excerpt($0, limit: 60) } ?? "-",
      ])
    }
    console.line(table.render())
    let passed = records.filter(\.success).count
    console.line(
      "\(passed) of \(records.count) check(s) passed ("
        + Formatting.percent(100 * Double(passed) / Double(records.count)) + ")")
  }

  /// `monitors MONITOR check`: runs the check now and prints its record.
  static func check(_ context: CommandContext) async throws {
    let console = context.console
    let named = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    let monitor = try await find(named, api, console)
    let record: ServiceMonitorRecord
    do {
      record = try await APIRequest.run(
        "Checking \(TerminalText.safe(monitor.name))", console: console,
        notFound: notFound(named), forbidden: "only an admin may run a check now"
      ) { try await api.checkServiceMonitor(id: monitor.id) }
    } catch let error as ServerBeeAPIError where error.code == .conflict {
      throw CommandLineError(
        .refused, "a check of \(TerminalText.safe(monitor.name)) is already running; try again",
        underlying: error)
    }
    if console.json {
      console.json(try WireJSON.encode(record))
      return
    }
    let outcome =
      record.success
      ? "up, \(latency(record.latency))"
      : "down, \(record.error ?? "failed")"
    console.line(
      TerminalText.safe(
        "\(monitor.name) (\(monitor.monitorType) \(monitor.target)): \(outcome), checked "
          + Formatting.time(record.time)))
  }

  /// The monitor named by its id or its one name.
  private static func find(_ text: String, _ api: ServerBeeAPIClient, _ console: Console)
    async throws -> ServiceMonitor
  {
    let monitors = try await APIRequest.run("Finding the monitor", console: console) {
      try await api.serviceMonitors()
    }
    return try NamedChoice.pick(
      text, in: monitors, noun: ("monitor", "monitors"), list: "serverbee monitors", id: \.id,
      name: \.name)
  }

  private static func notFound(_ text: String) -> String {
    "no monitor '\(text)' (see 'serverbee monitors')"
  }

  /// `up`, `down` or `never checked`, with ` (disabled)` for a disabled monitor.
  static func state(_ monitor: ServiceMonitor) -> String {
    let state = monitor.lastStatus.map { $0 ? "up" : "down" } ?? "never checked"
    return monitor.enabled ? state : state + " (disabled)"
  }

  private static func every(_ seconds: Int) -> String {
    seconds % 86_400 == 0
      ? "\(seconds / 86_400) d"
      : seconds % 3600 == 0
        ? "\(seconds / 3600) h" : seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
  }

  private static func latency(_ value: Double?) -> String {
    value.map { String(format: "%.1f ms", $0) } ?? "-"
  }

  /// `--type`: one of the five types, `nil` when not given.
  private static func typeOption(_ context: CommandContext) throws -> ServiceMonitorType? {
    guard let text = context.arguments.values["type"] else { return nil }
    guard let type = types.first(where: { $0.rawValue == text }) else {
      throw CommandLineError(
        .usage,
        "--type takes ssl, dns, http_keyword, tcp or whois, got '\(TerminalText.safe(text))'")
    }
    return type
  }

  /// `--limit`: 1 to 1000, 20 when not given.
  private static func limitOption(_ context: CommandContext) throws -> Int {
    guard let text = context.arguments.values["limit"] else { return 20 }
    guard let number = Int(text), (1...1000).contains(number) else {
      throw CommandLineError(
        .usage, "--limit takes a whole number from 1 to 1000, got '\(TerminalText.safe(text))'")
    }
    return number
  }
}
