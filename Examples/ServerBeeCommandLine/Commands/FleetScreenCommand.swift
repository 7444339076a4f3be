import Foundation
import RealtimeStream
import ServerBeeAPI
import ServerBeeModels

/// `serverbee insights [--json]`: the fleet at a glance (``FleetScreen``).
enum FleetScreenCommand {
  /// Runs the command.
  static func run(_ context: CommandContext) async throws {
    let console = context.console
    if console.json && context.arguments.flags.contains("svg") {
      throw CommandLineError(.usage, "--svg draws a picture: it does not go with --json")
    }
    let requestedWidth = try ServerScreenCommand.width(context.arguments.values["width"])
    let api = try await APICredential.client(context)
    let content = try await FleetFeed.with(context) { feed, _ in
      let fleet = try await Spinner.run("Connecting to the live stream", console: console) {
        try await feed.firstSync()
      }
      return try await Spinner.run("Loading the fleet's insights", console: console) {
        try await load(api, fleet: fleet)
      }
    }
    if console.json {
      console.json(try WireJSON.encode(FleetScreenDocument(content: content)))
      return
    }
    let canvas = FleetScreen.draw(content, width: requestedWidth ?? console.terminalColumns ?? 100)
    if context.arguments.flags.contains("svg") {
      console.write(CanvasSVG.document(canvas))
      return
    }
    console.line(CanvasText.lines(canvas, colors: console.colors).joined(separator: "\n"))
  }

  /// Every section at once; a section that fails says why in its place.
  private static func load(_ api: ServerBeeAPIClient, fleet: FleetState) async throws
    -> FleetScreenContent
  {
    let rows = ServerRow.rows(of: fleet)
    async let traffic = ServerScreenCommand.section { try await api.trafficOverview() }
    async let cost = ServerScreenCommand.section { try await api.costOverview() }
    async let network = ServerScreenCommand.section { try await api.networkProbeOverview() }
    async let ipQuality = ServerScreenCommand.section { try await api.ipQualityOverview() }
    async let monitors = ServerScreenCommand.section { try await api.serviceMonitors() }
    async let incidents = ServerScreenCommand.section { try await api.incidents() }
    return FleetScreenContent(
      time: Date(), serverCount: rows.count, onlineCount: rows.filter(\.online).count,
      traffic: await traffic, cost: await cost, network: await network,
      ipQuality: await ipQuality, monitors: await monitors, incidents: await incidents,
      names: Dictionary(rows.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first }))
  }
}

/// `serverbee insights --json`: each section's answer as the server sent it, or `null` with
/// its sentence in `<section>_error`.
struct FleetScreenDocument: Encodable {
  var content: FleetScreenContent

  private enum Keys: String, CodingKey {
    case time, servers, online, traffic, cost, network, monitors, incidents
    case ipQuality = "ip_quality"
    case trafficError = "traffic_error"
    case costError = "cost_error"
    case networkError = "network_error"
    case ipQualityError = "ip_quality_error"
    case monitorsError = "monitors_error"
    case incidentsError = "incidents_error"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(Formatting.isoTime(content.time), forKey: .time)
    try container.encode(content.serverCount, forKey: .servers)
    try container.encode(content.onlineCount, forKey: .online)
    try encode(content.traffic, .traffic, .trafficError, &container)
    try encode(content.cost, .cost, .costError, &container)
    try encode(content.network, .network, .networkError, &container)
    try encode(content.ipQuality, .ipQuality, .ipQualityError, &container)
    try encode(content.monitors, .monitors, .monitorsError, &container)
    try encode(content.incidents, .incidents, .incidentsError, &container)
  }

  private func encode<T: Encodable>(
    _ result: Result<T, ScreenSectionError>, _ key: Keys, _ errorKey: Keys,
    _ container: inout KeyedEncodingContainer<Keys>
  ) throws {
    switch result {
    case .success(let value):
      try container.encode(value, forKey: key)
      try container.encodeNil(forKey: errorKey)
    case .failure(let error):
      try container.encodeNil(forKey: key)
      try container.encode(error.sentence, forKey: errorKey)
    }
  }
}
