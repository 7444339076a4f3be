import ServerBeeAPI
import ServerBeeModels

/// `serverbee tasks create|edit|enable|disable|run|delete` (admins only; Protocol/Tasks.md §2).
enum TaskMutationCommands {
  private static let forbidden = "only an admin may change tasks"

  private static func notFound(_ id: String) -> String {
    "no task '\(id)' (see 'serverbee tasks')"
  }

  /// `tasks create COMMAND --servers IDS [--cron EXPR] [--name N] [--timeout S] [--retries N]
  /// [--retry-interval S]`: scheduled with `--cron`, else oneshot (dispatched at once).
  static func create(_ context: CommandContext) async throws {
    let arguments = context.arguments
    guard let servers = IncidentArguments.serverIDs(arguments), !servers.isEmpty else {
      throw CommandLineError(.usage, "--servers is required: comma-separated server ids")
    }
    let cron = arguments.values["cron"]
    let request = CreateTaskRequest(
      command: arguments.argument(0), serverIDs: servers,
      timeout: try number(arguments, "timeout", minimum: 1),
      taskType: cron == nil ? .oneshot : .scheduled, name: arguments.values["name"],
      cronExpression: cron, retryCount: try number(arguments, "retries", minimum: 0),
      retryInterval: try number(arguments, "retry-interval", minimum: 1))
    let api = try await APICredential.client(context)
    let task = try await APIRequest.run(
      "Creating the task", console: context.console, forbidden: forbidden
    ) { try await api.createTask(request) }
    try report(task, "Created", context.console)
  }

  /// `tasks edit ID [--command C] [--name N] [--servers IDS] [--cron EXPR] [--timeout S]
  /// [--retries N] [--retry-interval S]`: only what is given changes.
  static func edit(_ context: CommandContext) async throws {
    let arguments = context.arguments
    let servers = IncidentArguments.serverIDs(arguments)
    if servers?.isEmpty == true {
      throw CommandLineError(.usage, "--servers needs at least one server id")
    }
    let change = UpdateTaskRequest(
      name: arguments.values["name"], command: arguments.values["command"], serverIDs: servers,
      cronExpression: arguments.values["cron"],
      timeout: try number(arguments, "timeout", minimum: 1),
      retryCount: try number(arguments, "retries", minimum: 0),
      retryInterval: try number(arguments, "retry-interval", minimum: 1))
    guard change != UpdateTaskRequest() else {
      throw CommandLineError(
        .usage,
        "give at least one of --command, --name, --servers, --cron, --timeout, --retries, "
          + "--retry-interval")
    }
    try await update(context, change, "Updated")
  }

  /// `tasks enable ID`: only `enabled: true` (the next run is computed again).
  static func enable(_ context: CommandContext) async throws {
    try await update(context, UpdateTaskRequest(enabled: true), "Enabled")
  }

  /// `tasks disable ID`: only `enabled: false`.
  static func disable(_ context: CommandContext) async throws {
    try await update(context, UpdateTaskRequest(enabled: false), "Disabled")
  }

  /// `tasks run ID`: a scheduled task runs now.
  static func run(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    let task = try await APIRequest.run(
      "Starting the run", console: context.console, notFound: notFound(id), forbidden: forbidden
    ) { try await api.runTask(id: id) }
    if context.console.json {
      context.console.json(try WireJSON.encode(task))
      return
    }
    context.console.line(
      TerminalText.safe(
        "Started a run of task \(task.name ?? task.command) (id \(task.id)); see "
          + "'serverbee tasks results \(task.id)'."))
  }

  /// `tasks delete ID` (confirmed before it runs); an unknown id succeeds too.
  static func delete(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    try await APIRequest.run("Deleting the task", console: context.console, forbidden: forbidden) {
      try await api.deleteTask(id: id)
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(["deleted": id]))
    } else {
      context.console.line(TerminalText.safe("Deleted task \(id), with its results."))
    }
  }

  private static func update(
    _ context: CommandContext, _ change: UpdateTaskRequest, _ verb: String
  ) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    let task = try await APIRequest.run(
      "Updating the task", console: context.console, notFound: notFound(id), forbidden: forbidden
    ) { try await api.updateTask(id: id, change) }
    try report(task, verb, context.console)
  }

  private static func report(_ task: ServerTask, _ verb: String, _ console: Console) throws {
    if console.json {
      console.json(try WireJSON.encode(task))
      return
    }
    let targets = task.serverIDs.count == 1 ? "1 server" : "\(task.serverIDs.count) servers"
    var text = "\(verb) \(task.taskType.rawValue) task \(task.name ?? task.command): "
    text += "'\(task.command)' on \(targets)"
    if task.taskType == .scheduled {
      text += ", cron '\(task.cronExpression ?? "")' UTC"
      text += task.enabled ? ", next run \(task.nextRunAt?.description ?? "none")" : ", disabled"
    }
    console.line(TerminalText.safe(text + " (id \(task.id))."))
  }

  /// `--NAME N`, a whole number of at least `minimum`.
  private static func number(_ arguments: ParsedArguments, _ name: String, minimum: Int) throws
    -> Int?
  {
    guard let text = arguments.values[name] else { return nil }
    guard let value = Int(text), value >= minimum else {
      throw CommandLineError(
        .usage,
        "--\(name) expects a whole number of at least \(minimum), got '\(TerminalText.safe(text))'"
      )
    }
    return value
  }
}
