import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee probes [SERVER [records|anomalies]]`, `probes targets [create | edit | delete]`
/// and `probes settings [set]` (reading: anyone signed in; changes: admins;
/// Protocol/AppRoutes.md §6).
enum NetworkProbeCommands {
  private static let forbidden = "only an admin may change probe targets and settings"

  private static func notFound(_ id: String) -> String {
    "no probe target '\(id)' (see 'serverbee probes targets')"
  }

  /// The windows `--range` takes, in seconds.
  static let ranges: [(name: String, seconds: Int64)] = [
    ("1h", 3600), ("6h", 6 * 3600), ("24h", 86_400), ("7d", 7 * 86_400),
  ]

  // MARK: probes [SERVER [VIEW]]

  /// `probes`: the fleet; `probes SERVER`: one server's summary; `probes SERVER records` and
  /// `probes SERVER anomalies`.
  static func probes(_ context: CommandContext) async throws {
    let arguments = context.arguments
    let view = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
    if let view, view != "records", view != "anomalies" {
      throw CommandLineError(
        .usage,
        "VIEW is 'records' or 'anomalies', not '\(TerminalText.safe(view))' "
          + "(see 'serverbee probes --help')")
    }
    if view != "records", arguments.values["target"] != nil {
      throw CommandLineError(.usage, "--target is for 'serverbee probes SERVER records'")
    }
    if view == nil, arguments.values["range"] != nil {
      throw CommandLineError(.usage, "--range is for the records and anomalies of one server")
    }
    let seconds = try range(arguments, default: view == "records" ? 3600 : 86_400)
    let console = context.console
    let api = try await APICredential.client(context)
    guard let named = arguments.positionals.first else {
      let overview = try await APIRequest.run("Loading the fleet's probes", console: console) {
        try await api.networkProbeOverview()
      }
      try await fleet(overview, console)
      return
    }
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(named)
    let to = RFC3339Timestamp(Date())
    let from = RFC3339Timestamp(secondsSince1970: to.secondsSince1970 - seconds)
    switch view {
    case "records":
      let target = arguments.values["target"]
      let records = try await APIRequest.run("Loading the records", console: console) {
        try await api.networkProbeRecords(serverID: server.id, from: from, to: to, targetID: target)
      }
      try await self.records(records, hourly: seconds >= 86_400, of: server, console)
    case "anomalies":
      let anomalies = try await APIRequest.run("Loading the anomalies", console: console) {
        try await api.networkProbeAnomalies(serverID: server.id, from: from, to: to)
      }
      try await self.anomalies(anomalies, of: server, console)
    default:
      let summary = try await APIRequest.run("Loading the probes", console: console) {
        try await api.networkProbeSummary(serverID: server.id)
      }
      if console.json {
        console.json(try WireJSON.encode(summary))
        return
      }
      self.summary(summary, console)
    }
  }

  private static func summary(_ summary: NetworkProbeServerSummary, _ console: Console) {
    let last = summary.lastProbeAt.map(Formatting.time) ?? "never"
    console.line(
      TerminalText.safe(
        "\(summary.serverName) (\(summary.online ? "online" : "offline")): last probe \(last), "
          + "\(summary.anomalyCount) anomaly(ies) in 24 h"))
    guard !summary.targets.isEmpty else {
      console.line("No probe targets are assigned to this server.")
      return
    }
    var table = TextTable(columns: [
      .left("TARGET"), .left("PROVIDER"), .right("AVG"), .right("MIN"), .right("MAX"),
      .right("LOSS"), .right("AVAILABLE"), .left("ID"),
    ])
    for target in summary.targets {
      table.append([
        Formatting.excerpt(target.targetName), Formatting.excerpt(target.provider, limit: 20),
        milliseconds(target.avgLatency), milliseconds(target.minLatency),
        milliseconds(target.maxLatency), Formatting.percent(target.packetLoss * 100),
        Formatting.percent(target.availability * 100), target.targetID,
      ])
    }
    console.line(table.render())
  }

  /// The fleet's overview (`--json`: as the server sent it), by server name.
  private static func fleet(_ servers: [NetworkProbeFleetOverview], _ console: Console)
    async throws
  {
    try await ListOutput.print(servers, empty: "No servers.", console: console) { servers in
      ListOutput.table(
        servers.sorted { ($0.serverName, $0.serverID) < ($1.serverName, $1.serverID) },
        columns: [
          .left("SERVER"), .left("STATE"), .right("TARGETS"), .right("AVG"), .right("LOSS"),
          .right("ANOMALIES"), .left("LATENCY (30 SLOTS)"),
        ]
      ) { server in
        let latencies = server.targets.compactMap(\.avgLatency)
        let average = latencies.isEmpty ? nil : latencies.reduce(0, +) / Double(latencies.count)
        let loss =
          server.targets.isEmpty
          ? nil : server.targets.map(\.packetLoss).reduce(0, +) / Double(server.targets.count)
        return [
          Formatting.excerpt(server.serverName), server.online ? "online" : "offline",
          "\(server.targets.count)", milliseconds(average),
          Formatting.percent(loss.map { $0 * 100 }), "\(server.anomalyCount)",
          sparkline(server.latencySparkline),
        ]
      }
    }
  }

  /// A line naming the server and the count, then the records, oldest first.
  private static func records(
    _ records: [NetworkProbeRecord], hourly: Bool, of server: ServerResponse, _ console: Console
  ) async throws {
    try await ListOutput.print(
      records, empty: TerminalText.safe("No probe records for \(server.name) in this window."),
      console: console
    ) { records in
      TerminalText.safe(
        "\(server.name): \(records.count) \(hourly ? "hourly aggregate(s)" : "record(s)"), "
          + "oldest first") + "\n"
        + ListOutput.table(
          records,
          columns: [
            .left(hourly ? "HOUR" : "TIME"), .left("TARGET"), .right("AVG"), .right("MIN"),
            .right("MAX"), .right("LOSS"), .right(hourly ? "SAMPLES" : "RECEIVED"),
          ]
        ) { record in
          [
            Formatting.time(record.timestamp), record.targetID, milliseconds(record.avgLatency),
            milliseconds(record.minLatency), milliseconds(record.maxLatency),
            Formatting.percent(record.packetLoss * 100),
            hourly ? "\(record.packetSent)" : "\(record.packetReceived)/\(record.packetSent)",
          ]
        }
    }
  }

  private static func anomalies(
    _ anomalies: [NetworkProbeAnomaly], of server: ServerResponse, _ console: Console
  ) async throws {
    try await ListOutput.print(
      anomalies,
      empty: TerminalText.safe("No probe anomalies for \(server.name) in this window."),
      console: console,
      columns: [.left("TIME"), .left("TARGET"), .left("ANOMALY"), .right("VALUE")]
    ) { anomaly in
      let value: String =
        switch anomaly.anomalyType {
        case .highLatency, .veryHighLatency: milliseconds(anomaly.value)
        case .unreachable: "all lost"
        default: Formatting.percent(anomaly.value * 100)
        }
      return [
        Formatting.time(anomaly.timestamp), Formatting.excerpt(anomaly.targetName),
        anomaly.anomalyType.rawValue, value,
      ]
    }
  }

  // MARK: probes targets

  /// `probes targets`: every target.
  static func targets(_ context: CommandContext) async throws {
    let targets = try await ListOutput.load(context, "Loading probe targets") {
      try await $0.networkProbeTargets()
    }
    try await ListOutput.print(
      targets, empty: "No probe targets.", console: context.console,
      columns: [
        .left("NAME"), .left("TYPE"), .left("TARGET"), .left("PROVIDER"), .left("LOCATION"),
        .left("KIND"), .left("ID"),
      ]
    ) { target in
      [
        Formatting.excerpt(target.name), target.probeType.rawValue,
        Formatting.excerpt(target.target), Formatting.excerpt(target.provider, limit: 20),
        Formatting.excerpt(target.location, limit: 20), target.isPreset ? "preset" : "custom",
        target.id,
      ]
    }
  }

  /// `probes targets create NAME --target X --type T [--provider P] [--location L]`.
  static func createTarget(_ context: CommandContext) async throws {
    let arguments = context.arguments
    guard let type = try probeType(arguments) else {
      throw CommandLineError(.usage, "--type is required: icmp, tcp or http")
    }
    guard let target = arguments.values["target"], !target.isEmpty else {
      throw CommandLineError(.usage, "--target is required: a host, host:port or a URL")
    }
    let request = NetworkProbeTargetRequest(
      name: arguments.argument(0), provider: arguments.values["provider"] ?? "",
      location: arguments.values["location"] ?? "", target: target, probeType: type)
    let api = try await APICredential.client(context)
    let made = try await APIRequest.run(
      "Creating the probe target", console: context.console, forbidden: forbidden
    ) { try await api.createNetworkProbeTarget(request) }
    try report(made, "Created", context.console)
  }

  /// `probes targets edit ID [--name N] [--target X] [--type T] [--provider P] [--location L]`.
  static func editTarget(_ context: CommandContext) async throws {
    let arguments = context.arguments
    let id = arguments.argument(0)
    let change = NetworkProbeTargetRequest(
      name: arguments.values["name"], provider: arguments.values["provider"],
      location: arguments.values["location"], target: arguments.values["target"],
      probeType: try probeType(arguments))
    guard change != NetworkProbeTargetRequest() else {
      throw CommandLineError(
        .usage, "give at least one of --name, --target, --type, --provider, --location")
    }
    let api = try await APICredential.client(context)
    let changed = try await presetGuard(id, "changed") {
      try await APIRequest.run(
        "Updating the probe target", console: context.console, notFound: notFound(id)
      ) { try await api.updateNetworkProbeTarget(id: id, change) }
    }
    try report(changed, "Updated", context.console)
  }

  /// `probes targets delete ID` (confirmed before it runs).
  static func deleteTarget(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    try await presetGuard(id, "deleted") {
      try await APIRequest.run(
        "Deleting the probe target", console: context.console, notFound: notFound(id)
      ) { try await api.deleteNetworkProbeTarget(id: id) }
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(["deleted": id]))
    } else {
      context.console.line(TerminalText.safe("Deleted probe target \(id), with its records."))
    }
  }

  /// A 403 on a target is either a member's (empty body) or a preset's (a message naming it).
  private static func presetGuard<T>(
    _ id: String, _ verb: String, _ work: () async throws -> T
  ) async throws -> T {
    do {
      return try await work()
    } catch let error as ServerBeeAPIError where error.code == .forbidden {
      if "\(error)".contains("preset") {
        throw CommandLineError(
          .notPermitted,
          "'\(TerminalText.safe(id))' is a preset probe target, which cannot be \(verb)",
          underlying: error)
      }
      throw CommandLineError(.notPermitted, forbidden, underlying: error)
    }
  }

  private static func report(_ target: NetworkProbeTarget, _ verb: String, _ console: Console)
    throws
  {
    if console.json {
      console.json(try WireJSON.encode(target))
      return
    }
    console.line(
      TerminalText.safe(
        "\(verb) probe target \(target.name): \(target.probeType.rawValue) \(target.target) "
          + "(id \(target.id))."))
  }

  // MARK: probes settings

  /// `probes settings`.
  static func settings(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let setting = try await APIRequest.run("Loading the probe settings", console: console) {
      try await api.networkProbeSetting()
    }
    try show(setting, console)
  }

  /// `probes settings set [--interval S] [--packets N] [--defaults IDS]`: what is not given
  /// comes from the current settings (the server requires all three).
  static func setSettings(_ context: CommandContext) async throws {
    let arguments = context.arguments
    let interval = try number(
      arguments, "interval", range: NetworkProbeSetting.intervalRange, unit: "seconds")
    let packets = try number(
      arguments, "packets", range: NetworkProbeSetting.packetCountRange, unit: "packets")
    let defaults = arguments.values["defaults"].map { text in
      text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
    guard interval != nil || packets != nil || defaults != nil else {
      throw CommandLineError(.usage, "give at least one of --interval, --packets, --defaults")
    }
    let console = context.console
    let api = try await APICredential.client(context)
    var setting = try await APIRequest.run("Loading the probe settings", console: console) {
      try await api.networkProbeSetting()
    }
    setting.interval = interval ?? setting.interval
    setting.packetCount = packets ?? setting.packetCount
    setting.defaultTargetIDs = defaults ?? setting.defaultTargetIDs
    let wanted = setting
    let saved = try await APIRequest.run(
      "Saving the probe settings", console: console, forbidden: forbidden
    ) { try await api.updateNetworkProbeSetting(wanted) }
    try show(saved, console)
  }

  private static func show(_ setting: NetworkProbeSetting, _ console: Console) throws {
    if console.json {
      console.json(try WireJSON.encode(setting))
      return
    }
    let defaults =
      setting.defaultTargetIDs.isEmpty ? "none" : setting.defaultTargetIDs.joined(separator: ", ")
    console.line(
      TerminalText.safe(
        "Probes every \(setting.interval) s with \(setting.packetCount) packets; "
          + "default targets for new servers: \(defaults)."))
  }

  // MARK: Arguments and cells

  /// `--range 1h|6h|24h|7d`, in seconds.
  private static func range(_ arguments: ParsedArguments, default value: Int64) throws -> Int64 {
    guard let text = arguments.values["range"] else { return value }
    guard let match = ranges.first(where: { $0.name == text }) else {
      throw CommandLineError(
        .usage, "--range expects 1h, 6h, 24h or 7d, got '\(TerminalText.safe(text))'")
    }
    return match.seconds
  }

  /// `--type icmp|tcp|http`.
  private static func probeType(_ arguments: ParsedArguments) throws -> PingProbeType? {
    guard let text = arguments.values["type"] else { return nil }
    guard ["icmp", "tcp", "http"].contains(text) else {
      throw CommandLineError(
        .usage, "--type expects icmp, tcp or http, got '\(TerminalText.safe(text))'")
    }
    return PingProbeType(rawValue: text)
  }

  /// A whole number option within `range`, checked before any request.
  private static func number(
    _ arguments: ParsedArguments, _ name: String, range: ClosedRange<Int>, unit: String
  ) throws -> Int? {
    guard let text = arguments.values[name] else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw CommandLineError(
        .usage,
        "--\(name) takes a whole number of \(unit) from \(range.lowerBound) to "
          + "\(range.upperBound), got '\(TerminalText.safe(text))'")
    }
    return value
  }

  private static func milliseconds(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "-" }
    return String(format: "%.1f ms", value)
  }

  /// Eight heights between the sparkline's least and greatest value; `·` for a gap.
  static func sparkline(_ values: [Double?]) -> String {
    let bars = Array("▁▂▃▄▅▆▇█")
    let known = values.compactMap { $0 }
    guard let low = known.min(), let high = known.max() else {
      return String(repeating: "·", count: values.count)
    }
    return String(
      values.map { value -> Character in
        guard let value else { return "·" }
        guard high > low else { return bars[0] }
        return bars[min(7, Int((value - low) / (high - low) * 8))]
      })
  }
}
