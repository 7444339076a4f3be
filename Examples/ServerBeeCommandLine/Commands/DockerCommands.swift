import Foundation
import RealtimeStream
import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels
import ServerBeeTransport

/// `serverbee docker SERVER [ps | stats | info | events | networks | volumes | logs CONTAINER |
/// start|stop|restart|remove CONTAINER]` (Protocol/AppRoutes.md §8): reading is for anyone
/// signed in, behind the server's Docker gate; acting on a container and reading its logs are
/// for admins. The SDK does the work; this presents it.
enum DockerCommands {
  private static let forbidden = "only an admin may start, stop, restart or remove containers"

  // MARK: Reads

  /// `docker SERVER` and `docker SERVER ps`: the containers.
  static func ps(_ context: CommandContext) async throws {
    let (api, server) = try await subject(context)
    let containers = try await load(context, server, "Loading the containers") {
      try await api.dockerContainers(serverID: server.id)
    }
    try await ListOutput.print(
      containers, empty: "No containers on \(TerminalText.safe(server.name)).",
      console: context.console,
      columns: [.left("NAME"), .left("STATE"), .left("STATUS"), .left("IMAGE"), .left("PORTS")]
    ) { container in
      [
        TerminalText.safe(container.displayName), TerminalText.safe(container.state),
        TerminalText.safe(container.status), Formatting.excerpt(TerminalText.safe(container.image)),
        ports(container.ports),
      ]
    }
  }

  /// `docker SERVER stats`.
  static func stats(_ context: CommandContext) async throws {
    let (api, server) = try await subject(context)
    let stats = try await load(context, server, "Loading the container stats") {
      try await api.dockerStats(serverID: server.id)
    }
    try await ListOutput.print(
      stats, empty: "No running containers on \(TerminalText.safe(server.name)).",
      console: context.console,
      columns: [
        .left("NAME"), .right("CPU"), .right("MEMORY"), .right("MEM%"), .right("NET RX"),
        .right("NET TX"), .right("READ"), .right("WRITTEN"),
      ]
    ) { sample in
      [
        TerminalText.safe(sample.name), Formatting.percent(sample.cpuPercent),
        Formatting.bytes(sample.memoryUsage), Formatting.percent(sample.memoryPercent),
        Formatting.bytes(sample.networkRx), Formatting.bytes(sample.networkTx),
        Formatting.bytes(sample.blockRead), Formatting.bytes(sample.blockWrite),
      ]
    }
  }

  /// `docker SERVER info`.
  static func info(_ context: CommandContext) async throws {
    let (api, server) = try await subject(context)
    let info = try await load(context, server, "Loading the Docker engine") {
      try await api.dockerInfo(serverID: server.id)
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(info))
      return
    }
    context.console.line(
      TextTable.keyValue([
        ("Docker", TerminalText.safe(info.dockerVersion)),
        ("API", TerminalText.safe(info.apiVersion)),
        ("OS", TerminalText.safe("\(info.os) (\(info.arch))")),
        (
          "Containers",
          "\(info.containersRunning) running, \(info.containersPaused) paused, "
            + "\(info.containersStopped) stopped"
        ),
        ("Images", "\(info.images)"), ("Memory", Formatting.bytes(info.memoryTotal)),
      ]))
  }

  /// `docker SERVER events [--limit N]`.
  static func events(_ context: CommandContext) async throws {
    let limit = try number(context, "limit", range: 1...10_000, default: 50)
    let (api, server) = try await subject(context)
    let events = try await load(context, server, "Loading the Docker events") {
      try await api.dockerEvents(serverID: server.id, limit: limit)
    }
    try await ListOutput.print(
      events, empty: "No Docker events on \(TerminalText.safe(server.name)).",
      console: context.console,
      columns: [.left("TIME"), .left("TYPE"), .left("ACTION"), .left("ACTOR")]
    ) { event in
      [
        Formatting.time(Date(timeIntervalSince1970: Double(event.timestamp))),
        TerminalText.safe(event.eventType), TerminalText.safe(event.action),
        Formatting.excerpt(TerminalText.safe(event.actorName ?? String(event.actorID.prefix(12)))),
      ]
    }
  }

  /// `docker SERVER networks`.
  static func networks(_ context: CommandContext) async throws {
    let (api, server) = try await subject(context)
    let networks = try await load(context, server, "Loading the Docker networks") {
      try await api.dockerNetworks(serverID: server.id)
    }
    try await ListOutput.print(
      networks, empty: "No Docker networks on \(TerminalText.safe(server.name)).",
      console: context.console,
      columns: [.left("NAME"), .left("DRIVER"), .left("SCOPE"), .left("CONTAINERS")]
    ) { network in
      [
        TerminalText.safe(network.name), TerminalText.safe(network.driver),
        TerminalText.safe(network.scope),
        Formatting.excerpt(
          TerminalText.safe(network.containers.values.sorted().joined(separator: ", "))),
      ]
    }
  }

  /// `docker SERVER volumes`.
  static func volumes(_ context: CommandContext) async throws {
    let (api, server) = try await subject(context)
    let volumes = try await load(context, server, "Loading the Docker volumes") {
      try await api.dockerVolumes(serverID: server.id)
    }
    try await ListOutput.print(
      volumes, empty: "No Docker volumes on \(TerminalText.safe(server.name)).",
      console: context.console,
      columns: [.left("NAME"), .left("DRIVER"), .left("CREATED"), .left("MOUNTPOINT")]
    ) { volume in
      [
        Formatting.excerpt(TerminalText.safe(volume.name), limit: 24),
        TerminalText.safe(volume.driver),
        volume.createdAt.flatMap { try? RFC3339Timestamp(parsing: $0) }.map(Formatting.time)
          ?? "-",
        Formatting.excerpt(TerminalText.safe(volume.mountpoint), limit: 60),
      ]
    }
  }

  // MARK: Actions

  /// `docker SERVER start|stop|restart|remove CONTAINER [--timeout S] [--force]`.
  static func act(_ context: CommandContext) async throws {
    let words = context.arguments.words
    let verb = words.last ?? ""
    let container = context.arguments.argument(1)
    let timeout = try context.arguments.values["timeout"].map { _ in
      try number(context, "timeout", range: 0...3600, default: 0)
    }
    let action: DockerContainerAction
    switch verb {
    case "start": action = .start
    case "stop": action = .stop(timeout: timeout)
    case "restart": action = .restart(timeout: timeout)
    default: action = .remove(force: context.arguments.flags.contains("force"))
    }
    let (api, server) = try await subject(context)
    let result = try await load(context, server, "Asking the agent", forbidden: forbidden) {
      try await api.dockerContainerAction(
        serverID: server.id, containerID: container, action)
    }
    if context.console.json { context.console.json(try WireJSON.encode(result)) }
    guard result.success else {
      throw CommandLineError(
        .refused,
        "the agent of \(TerminalText.safe(server.name)) could not \(verb) "
          + "\(TerminalText.safe(container)): \(TerminalText.safe(result.error ?? "no reason given"))"
      )
    }
    if !context.console.json {
      let done = ["start": "Started", "stop": "Stopped", "restart": "Restarted"][verb] ?? "Removed"
      context.console.line(
        TerminalText.safe("\(done) \(container) on \(server.name)."))
    }
  }

  // MARK: Logs

  /// `docker SERVER logs CONTAINER [--follow] [--tail N] [--duration S]`: the last lines, then
  /// (with --follow) new ones until Ctrl-C or --duration. Remote text is cleaned of control
  /// characters; stderr lines are marked `!`.
  static func logs(_ context: CommandContext) async throws {
    let container = context.arguments.argument(1)
    let tail = try number(context, "tail", range: 0...1_000, default: 100)
    let follow = context.arguments.flags.contains("follow")
    let duration = try seconds(context, "duration")
    let (api, server) = try await subject(context)
    let name = TerminalText.safe(server.name)
    try await requireKnown(container, on: server, api: api)
    let stream: DockerLogStream
    do {
      stream = try await open(context, serverID: server.id, api: api)
    } catch let error as RealtimeStreamError {
      throw logRefusal(error, server: name)
    }
    try await stream.subscribe(containerID: container, tail: tail, follow: follow)
    if follow, !context.console.json {
      context.console.error(
        TerminalText.safe(
          "following \(container) on \(server.name) (Ctrl-C to stop)"))
    }
    // Without --follow the server sends the tail and then nothing: the lines end when a short
    // quiet follows them. With it, --duration (or Ctrl-C) ends them.
    let quiet: Duration = .milliseconds(1_500)
    let deadline = duration.map { ContinuousClock.now.advanced(by: $0) }
    let stopper = Task {
      if let duration {
        try? await ContinuousClock().sleep(for: duration)
        await stream.close()
      }
    }
    defer { stopper.cancel() }
    var shown = 0
    let lines = Locked(0)
    let watchdog: Task<Void, Never>? =
      follow
      ? nil
      : Task {
        var seen = -1
        while !Task.isCancelled {
          try? await ContinuousClock().sleep(for: quiet)
          let now = lines.withLock { $0 }
          if now == seen { break }
          seen = now
        }
        await stream.close()
      }
    defer { watchdog?.cancel() }
    do {
      for try await batch in stream.batches {
        if let deadline, ContinuousClock.now >= deadline { break }
        for entry in batch {
          print(entry, console: context.console)
        }
        shown += batch.count
        lines.withLock { $0 = shown }
        if !follow, shown >= tail { break }
      }
    } catch let error as RealtimeStreamError {
      throw CommandLineError(
        .streamFailed,
        "the logs of \(TerminalText.safe(container)) on \(name) stopped: "
          + error.message, underlying: error)
    }
    await stream.close()
    if shown == 0, !context.console.json, !follow {
      context.console.error(TerminalText.safe("no log lines from \(container) on \(server.name)"))
    }
  }

  /// The server sends nothing for a container it does not have (Protocol/AppRoutes.md §8.4), so
  /// a name is checked against the container list first: a list that knows other containers and
  /// not this one is an error; an empty list (the server's cache may be cold) or one that cannot
  /// be read leaves the decision to the logs socket.
  private static func requireKnown(
    _ container: String, on server: ServerResponse, api: ServerBeeAPIClient
  ) async throws {
    guard let known = try? await api.dockerContainers(serverID: server.id), !known.isEmpty,
      !known.contains(where: { $0.isNamed(by: container) })
    else { return }
    let name = TerminalText.safe(server.name)
    throw CommandLineError(
      .notFound,
      "\(name) has no container '\(TerminalText.safe(container))' (see 'serverbee docker "
        + "\(name)')")
  }

  /// One log line: `--json` writes the entry; else the time, `!` for stderr, and the text.
  static func print(_ entry: DockerLogEntry, console: Console) {
    if console.json {
      if let data = try? WireJSON.encode(entry) { console.json(data) }
      return
    }
    let time = entry.timestamp.flatMap { try? RFC3339Timestamp(parsing: $0) }.map {
      Formatting.time($0)
    }
    let mark = entry.isStandardError ? "!" : " "
    console.line(TerminalText.safe("\(time ?? "-") \(mark) \(entry.message)"))
  }

  /// The logs socket on the command's credential: an API key, or the session's tokens.
  private static func open(
    _ context: CommandContext, serverID: String, api: ServerBeeAPIClient
  ) async throws -> DockerLogStream {
    if let (server, key) = try APICredential.key(context) {
      return try await DockerLogStream.open(
        server: server, serverID: serverID, tokens: key,
        transport: APICredential.transports(context).webSocket)
    }
    let session = try await context.openSession()
    let identity = try await session.requireSignedIn(server: context.server)
    return try await DockerLogStream.open(
      server: identity.server, serverID: serverID, tokens: session.auth,
      transport: session.client.webSocket)
  }

  /// A refused logs socket as one sentence.
  static func logRefusal(_ error: RealtimeStreamError, server: String) -> CommandLineError {
    switch error.code {
    case .forbidden:
      CommandLineError(
        .notPermitted,
        "the logs of \(server) were refused: only an admin may read them, and only while its "
          + "agent grants the docker capability", underlying: error)
    case .agentOffline:
      CommandLineError(
        .refused, "the agent of \(server) is offline, so its container logs cannot be read",
        underlying: error)
    case .unauthorized:
      CommandLineError(
        .notSignedIn, "the server refused the credentials; sign in again with 'serverbee login'",
        underlying: error)
    default:
      CommandLineError(.streamFailed, error.message, underlying: error)
    }
  }

  // MARK: Shared

  /// The API client and the server the first argument names.
  private static func subject(_ context: CommandContext) async throws -> (
    ServerBeeAPIClient, ServerResponse
  ) {
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: context.console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    return (api, server)
  }

  /// Runs a Docker request, its gate's refusals as sentences naming the server.
  private static func load<T: Sendable>(
    _ context: CommandContext, _ server: ServerResponse, _ label: String,
    forbidden: String? = nil, _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let name = TerminalText.safe(server.name)
    do {
      return try await APIRequest.run(
        label, console: context.console, forbidden: forbidden, work)
    } catch let error as ServerBeeAPIError {
      switch error.code {
      case .dockerCapabilityDisabled:
        throw CommandLineError(
          .refused,
          "Docker is turned off for \(name): its agent does not grant the docker capability",
          underlying: error)
      case .dockerUnavailable:
        throw CommandLineError(
          .refused, "Docker is not available on \(name): its agent does not report it",
          underlying: error)
      case .agentOffline:
        throw CommandLineError(
          .refused, "the agent of \(name) is offline, so its Docker engine cannot be reached",
          underlying: error)
      case .agentDidNotRespond:
        throw CommandLineError(
          .unexpectedAnswer, "the agent of \(name) did not answer within 30 seconds",
          underlying: error)
      default: throw error
      }
    }
  }

  /// `80→8080/tcp, 5432/tcp`.
  static func ports(_ ports: [DockerPort]) -> String {
    let text = ports.map { port in
      (port.publicPort.map { "\($0)→" } ?? "") + "\(port.privatePort)/\(port.portType)"
    }.joined(separator: ", ")
    return text.isEmpty ? "-" : Formatting.excerpt(TerminalText.safe(text))
  }

  /// `--NAME N`, a whole number in `range`; `default` when not given.
  private static func number(
    _ context: CommandContext, _ name: String, range: ClosedRange<Int>, default value: Int
  ) throws -> Int {
    guard let text = context.arguments.values[name] else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw CommandLineError(
        .usage,
        "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), got "
          + "'\(TerminalText.safe(text))'")
    }
    return number
  }

  /// `--NAME S`, positive seconds; `nil` when not given.
  private static func seconds(_ context: CommandContext, _ name: String) throws -> Duration? {
    guard let text = context.arguments.values[name] else { return nil }
    guard let value = Double(text), value.isFinite, value > 0, value <= 1e9 else {
      throw CommandLineError(
        .usage, "--\(name) expects a positive number of seconds, got '\(TerminalText.safe(text))'")
    }
    return .milliseconds(Int64((value * 1000).rounded(.up)))
  }
}
