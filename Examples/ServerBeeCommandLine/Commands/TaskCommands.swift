import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee tasks` and `serverbee tasks results TASK-ID [--run RUN-ID]` (admins only).
enum TaskCommands {
  private static let adminOnly = "tasks are for admins: this account may not read them"

  /// Lists the tasks, newest first.
  static func list(_ context: CommandContext) async throws {
    var type: TaskType?
    if let text = context.arguments.values["type"] {
      guard text == TaskType.oneshot.rawValue || text == TaskType.scheduled.rawValue else {
        throw CommandLineError(.usage, "--type takes oneshot or scheduled, got '\(text)'")
      }
      type = TaskType(rawValue: text)
    }
    let api = try await APICredential.client(context)
    let tasks = try await APIRequest.run(
      "Loading tasks", console: context.console, forbidden: adminOnly
    ) { [type] in try await api.tasks(type: type) }
    if context.console.json {
      context.console.json(try WireJSON.encode(tasks))
    } else if tasks.isEmpty {
      context.console.line("No tasks.")
    } else {
      context.console.line(Tables.tasks(tasks))
    }
  }

  /// The per-target rows of a task (every run), or of one run with `--run`.
  static func results(_ context: CommandContext) async throws {
    let taskID = context.arguments.argument(0)
    guard !taskID.isEmpty else {
      throw CommandLineError(.usage, "use 'serverbee tasks results TASK-ID [--run RUN-ID]'")
    }
    let runID = context.arguments.values["run"]
    if runID?.isEmpty == true { throw CommandLineError(.usage, "--run needs a run id") }
    let api = try await APICredential.client(context)
    let rows = try await APIRequest.run(
      "Loading results", console: context.console,
      notFound: "task '\(taskID)' has no run '\(runID ?? "")' (see 'serverbee tasks results "
        + "\(taskID)')",
      forbidden: adminOnly
    ) {
      if let runID { return try await api.taskResults(taskID: taskID, runID: runID) }
      return try await api.taskResults(taskID: taskID)
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(rows))
      return
    }
    guard !rows.isEmpty else {
      context.console.line("No results for task '\(TerminalText.safe(taskID))'.")
      return
    }
    let names = await APIRequest.serverNames(api)
    printResults(rows, serverNames: names, showRun: runID == nil, console: context.console)
  }

  /// Prints result rows as a table, then one summary line per run.
  static func printResults(
    _ rows: [TaskResult], serverNames: [String: String], showRun: Bool, console: Console
  ) {
    console.line(Tables.taskResults(rows, serverNames: serverNames, showRun: showRun))
    console.line()
    for line in Tables.runSummaries(rows) { console.line(line) }
  }
}
