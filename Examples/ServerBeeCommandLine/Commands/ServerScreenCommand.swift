import Foundation
import RealtimeStream
import ServerBeeAPI
import ServerBeeModels

/// `serverbee server SERVER [--range R] [--watch] [--json | --svg]`: one server on one screen,
/// as the app's detail shows it (``ServerScreen``).
enum ServerScreenCommand {
  /// The ranges `--range` takes.
  static let ranges = ["1h", "6h", "24h", "7d"]

  /// Runs the command.
  static func run(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let range = arguments.values["range"] ?? "1h"
    guard ranges.contains(range) else {
      throw CommandLineError(
        .usage, "--range takes 1h, 6h, 24h or 7d, got '\(TerminalText.safe(range))'")
    }
    let svg = arguments.flags.contains("svg")
    let watch = arguments.flags.contains("watch")
    if svg && (watch || console.json) {
      throw CommandLineError(
        .usage, "--svg draws one picture: it goes with neither --watch nor --json")
    }
    let interval = try arguments.seconds("interval") ?? 2
    let duration = try arguments.seconds("duration")
    let requestedWidth = try width(arguments.values["width"])
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(arguments.argument(0))
    try await FleetFeed.with(context) { feed, _ in
      _ = try await Spinner.run("Connecting to the live stream", console: console) {
        try await feed.firstSync()
      }
      var loaded = try await load(api, server: server, range: range, console: console)
      var frames = InPlaceFrames()
      let clock = ContinuousClock()
      let deadline = duration.map { clock.now + .milliseconds(Int64($0 * 1000)) }
      var reloaded = clock.now
      while true {
        loaded.status = await feed.stream.currentFleet.server(id: server.id)
        let redraw = watch && console.stdoutIsTerminal && !console.json
        // A redrawn frame stays one column short of the terminal: a line that wraps would
        // break moving the cursor back over the frame.
        let width = requestedWidth ?? console.terminalColumns.map { redraw ? $0 - 1 : $0 } ?? 100
        let canvas = ServerScreen.draw(loaded, width: width)
        if svg {
          console.write(CanvasSVG.document(canvas))
        } else if console.json {
          console.json(try WireJSON.encode(ServerScreenDocument(loaded)))
        } else {
          let lines = CanvasText.lines(canvas, colors: console.colors)
          console.write(redraw ? frames.frame(lines) : lines.joined(separator: "\n") + "\n")
        }
        guard watch else { return }
        var next = clock.now + .milliseconds(Int64(interval * 1000))
        if let deadline { next = min(next, deadline) }
        try await clock.sleep(until: next)
        if let deadline, clock.now >= deadline { return }
        if clock.now - reloaded >= .seconds(60) {
          let status = loaded.status
          loaded = try await load(api, server: server, range: range, console: console)
          loaded.status = status
          reloaded = clock.now
        }
        if !console.stdoutIsTerminal && !console.json { console.line() }
      }
    }
  }

  /// `--width N`: 40 to 400 columns.
  static func width(_ text: String?) throws -> Int? {
    guard let text else { return nil }
    guard let width = Int(text), (40...400).contains(width) else {
      throw CommandLineError(
        .usage,
        "--width takes a whole number of columns from 40 to 400, got '\(TerminalText.safe(text))'")
    }
    return width
  }

  /// The history of `range` up to now, the traffic and the uptime, read at once. Only the
  /// history is required: a section that fails shows its sentence in place.
  private static func load(
    _ api: ServerBeeAPIClient, server: ServerResponse, range: String, console: Console
  ) async throws -> ServerScreenContent {
    let now = Date()
    let query = try ServerCommands.range(["range": range], interval: .auto, now: now)
    let id = server.id
    async let traffic = section { try await api.traffic(serverID: id) }
    async let uptime = section { try await api.uptimeDaily(serverID: id, days: 90) }
    async let monitors = section {
      try await api.serviceMonitors().filter { $0.serverIDs?.contains(id) == true }
    }
    // Docker only where the server has it: the capability in force and the agent's feature.
    let docker =
      server.resolvedCapabilities.contains(.docker) && server.features.contains("docker")
    async let containers =
      docker
      ? section {
        async let stats = api.dockerStats(serverID: id)
        let containers = try await api.dockerContainers(serverID: id)
        return ScreenContainer.join(containers, try await stats)
      } : nil
    let records = try await APIRequest.run("Loading the history", console: console) {
      try await api.records(serverID: id, query: query)
    }
    return ServerScreenContent(
      server: server, status: nil, records: records, start: query.from.date, end: query.to.date,
      traffic: await traffic, uptime: await uptime, monitors: await monitors,
      containers: await containers)
  }

  /// The answer of `work`, or the sentence saying why a section could not be loaded.
  static func section<T: Sendable>(
    _ work: @Sendable () async throws -> T
  ) async -> Result<T, ScreenSectionError> {
    do {
      return .success(try await work())
    } catch {
      return .failure(
        ScreenSectionError(sentence: "could not be loaded: " + ErrorLine.text(for: error)))
    }
  }
}

/// `serverbee server --json`: the numbers behind the screen.
struct ServerScreenDocument: Encodable {
  var content: ServerScreenContent

  init(_ content: ServerScreenContent) { self.content = content }

  private enum Keys: String, CodingKey {
    case server, live, from, to, records, traffic, uptime, monitors, containers
    case trafficError = "traffic_error"
    case uptimeError = "uptime_error"
    case monitorsError = "monitors_error"
    case containersError = "containers_error"
  }

  /// Every key is present: `live` is `null` without live state, and a section that could not
  /// be loaded is `null` with its sentence in `<section>_error`.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(content.server, forKey: .server)
    try container.encode(content.status, forKey: .live)
    try container.encode(Formatting.isoTime(content.start), forKey: .from)
    try container.encode(Formatting.isoTime(content.end), forKey: .to)
    try container.encode(content.records, forKey: .records)
    try container.encode(try? content.traffic?.get(), forKey: .traffic)
    try container.encode(Self.error(content.traffic), forKey: .trafficError)
    try container.encode(try? content.uptime?.get(), forKey: .uptime)
    try container.encode(Self.error(content.uptime), forKey: .uptimeError)
    try container.encode(try? content.monitors?.get(), forKey: .monitors)
    try container.encode(Self.error(content.monitors), forKey: .monitorsError)
    try container.encode(try? content.containers?.get(), forKey: .containers)
    try container.encode(Self.error(content.containers), forKey: .containersError)
  }

  private static func error<T>(_ result: Result<T, ScreenSectionError>?) -> String? {
    guard case .failure(let error)? = result else { return nil }
    return error.sentence
  }
}
