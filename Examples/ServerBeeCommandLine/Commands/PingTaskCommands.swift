import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee ping-tasks [create NAME … | edit ID … | enable ID | disable ID | delete ID]`
/// (listing: anyone signed in; changes: admins; Protocol/Tasks.md §5).
enum PingTaskCommands {
  private static let forbidden = "only an admin may change ping tasks"

  private static func notFound(_ id: String) -> String {
    "no ping task '\(id)' (see 'serverbee ping-tasks')"
  }

  /// `ping-tasks`: every ping task.
  static func list(_ context: CommandContext) async throws {
    let tasks = try await ListOutput.load(context, "Loading ping tasks") {
      try await $0.pingTasks()
    }
    try await ListOutput.print(
      tasks, empty: "No ping tasks.", console: context.console,
      columns: [
        .left("NAME"), .left("TYPE"), .left("TARGET"), .right("EVERY"), .left("SERVERS"),
        .left("ENABLED"), .left("ID"),
      ]
    ) { task in
      [
        Formatting.excerpt(task.name), task.probeType.rawValue, Formatting.excerpt(task.target),
        "\(task.interval) s", IncidentArguments.serversCell(task.serverIDs),
        task.enabled ? "yes" : "no", task.id,
      ]
    }
  }

  /// `ping-tasks create NAME --type T --target X [--interval S] [--servers IDS] [--disabled]`.
  static func create(_ context: CommandContext) async throws {
    let arguments = context.arguments
    guard let type = try probeType(arguments) else {
      throw CommandLineError(.usage, "--type is required: icmp, tcp or http")
    }
    guard let target = arguments.values["target"], !target.isEmpty else {
      throw CommandLineError(.usage, "--target is required: a host, host:port or a URL")
    }
    let request = PingTaskRequest(
      name: arguments.argument(0), probeType: type, target: target,
      interval: try interval(arguments), serverIDs: IncidentArguments.serverIDs(arguments),
      enabled: arguments.flags.contains("disabled") ? false : nil)
    let api = try await APICredential.client(context)
    let task = try await APIRequest.run(
      "Creating the ping task", console: context.console, forbidden: forbidden
    ) { try await api.createPingTask(request) }
    try report(task, "Created", context.console)
  }

  /// `ping-tasks edit ID [--name N] [--type T] [--target X] [--interval S] [--servers IDS]`.
  static func edit(_ context: CommandContext) async throws {
    let arguments = context.arguments
    let change = PingTaskRequest(
      name: arguments.values["name"], probeType: try probeType(arguments),
      target: arguments.values["target"], interval: try interval(arguments),
      serverIDs: IncidentArguments.serverIDs(arguments))
    guard change != PingTaskRequest() else {
      throw CommandLineError(
        .usage, "give at least one of --name, --type, --target, --interval, --servers")
    }
    try await update(context, change, "Updated")
  }

  /// `ping-tasks enable ID`: the app's toggle, only `enabled` sent.
  static func enable(_ context: CommandContext) async throws {
    try await update(context, PingTaskRequest(enabled: true), "Enabled")
  }

  /// `ping-tasks disable ID`.
  static func disable(_ context: CommandContext) async throws {
    try await update(context, PingTaskRequest(enabled: false), "Disabled")
  }

  /// `ping-tasks delete ID` (confirmed before it runs).
  static func delete(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    try await APIRequest.run(
      "Deleting the ping task", console: context.console, notFound: notFound(id),
      forbidden: forbidden
    ) { try await api.deletePingTask(id: id) }
    if context.console.json {
      context.console.json(try WireJSON.encode(["deleted": id]))
    } else {
      context.console.line(TerminalText.safe("Deleted ping task \(id), with its records."))
    }
  }

  private static func update(
    _ context: CommandContext, _ change: PingTaskRequest, _ verb: String
  ) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    let task = try await APIRequest.run(
      "Updating the ping task", console: context.console, notFound: notFound(id),
      forbidden: forbidden
    ) { try await api.updatePingTask(id: id, change) }
    try report(task, verb, context.console)
  }

  private static func report(_ task: PingTask, _ verb: String, _ console: Console) throws {
    if console.json {
      console.json(try WireJSON.encode(task))
      return
    }
    let servers = IncidentArguments.serversCell(task.serverIDs)
    console.line(
      TerminalText.safe(
        "\(verb) ping task \(task.name): \(task.probeType.rawValue) \(task.target) every "
          + "\(task.interval) s on \(servers == "all" ? "every capable server" : servers), "
          + "\(task.enabled ? "enabled" : "disabled") (id \(task.id))."))
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

  /// `--interval SECONDS`, a positive whole number.
  private static func interval(_ arguments: ParsedArguments) throws -> Int? {
    guard let text = arguments.values["interval"] else { return nil }
    guard let seconds = Int(text), seconds > 0 else {
      throw CommandLineError(
        .usage, "--interval expects a whole number of seconds, got '\(TerminalText.safe(text))'")
    }
    return seconds
  }
}
