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
    let tasks = try await ListOutput.load(context, "Loading tasks", forbidden: adminOnly) {
      [type] in try await $0.tasks(type: type)
    }
    try await ListOutput.print(tasks, empty: "No tasks.", console: context.console) {
      Tables.tasks($0)
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
    try await ListOutput.print(
      rows, empty: "No results for task '\(TerminalText.safe(taskID))'.",
      console: context.console
    ) {
      results($0, serverNames: await APIRequest.serverNames(api), showRun: runID == nil)
    }
  }

  /// Prints result rows as a table, then one summary line per run.
  static func printResults(
    _ rows: [TaskResult], serverNames: [String: String], showRun: Bool, console: Console
  ) {
    console.line(results(rows, serverNames: serverNames, showRun: showRun))
  }

  /// Result rows as a table, a blank line, then one summary line per run.
  private static func results(
    _ rows: [TaskResult], serverNames: [String: String], showRun: Bool
  ) -> String {
    ([Tables.taskResults(rows, serverNames: serverNames, showRun: showRun), ""]
      + Tables.runSummaries(rows)).joined(separator: "\n")
  }
}
