import ServerBeeModels

/// The tables of `tasks`, `tasks results` and `security events`.
extension Tables {
  /// The tasks table.
  static func tasks(_ tasks: [ServerTask]) -> String {
    var table = TextTable(columns: [
      .left("ID"), .left("NAME"), .left("TYPE"), .right("TARGETS"), .left("ENABLED"),
      .left("LAST RUN"), .left("NEXT RUN"), .left("COMMAND"),
    ])
    for task in tasks {
      table.append([
        task.id, task.name ?? "", task.taskType.rawValue, "\(task.serverIDs.count)",
        task.enabled ? "yes" : "no", task.lastRunAt.map(Formatting.time) ?? "-",
        task.nextRunAt.map(Formatting.time) ?? "-", Formatting.excerpt(task.command),
      ])
    }
    return table.render()
  }

  /// Per-target result rows, every attempt; the RUN column only when rows of several runs (or
  /// one-shot rows) are shown.
  static func taskResults(
    _ results: [TaskResult], serverNames: [String: String], showRun: Bool
  ) -> String {
    var columns: [TextTable.Column] = showRun ? [.left("RUN")] : []
    columns += [
      .left("SERVER"), .right("ATTEMPT"), .left("RESULT"), .right("EXIT"), .left("FINISHED"),
      .left("OUTPUT"),
    ]
    var table = TextTable(columns: columns)
    for result in results {
      var cells = showRun ? [result.runID ?? "one-shot"] : []
      cells += [
        serverNames[result.serverID] ?? result.serverID, "\(result.attempt)",
        outcomeText(result.outcome), "\(result.exitCode)", Formatting.time(result.finishedAt),
        Formatting.excerpt(result.output),
      ]
      table.append(cells)
    }
    return table.render()
  }

  /// One line per run: its final attempts counted (`TaskRun.summary`).
  static func runSummaries(_ results: [TaskResult]) -> [String] {
    TaskRun.group(results).map { run in
      let summary = run.summary
      return TerminalText.safe(
        "run \(run.runID ?? "one-shot"): \(summary.total) target(s), \(summary.succeeded) "
          + "succeeded, \(summary.failed) failed, \(summary.timedOut) timed out, "
          + "\(summary.offline) offline, \(summary.denied) denied")
    }
  }

  /// The security events table.
  static func securityEvents(_ events: [SecurityEvent], serverNames: [String: String]) -> String {
    var table = TextTable(columns: [
      .left("TIME"), .left("SEVERITY"), .left("TYPE"), .left("SERVER"), .left("SOURCE"),
      .left("USER"), .left("ID"),
    ])
    for event in events {
      table.append([
        Formatting.time(event.createdAt), event.severity.rawValue, event.eventType.rawValue,
        serverNames[event.serverID] ?? event.serverID, source(event), event.username ?? "",
        event.id,
      ])
    }
    return table.render()
  }

  private static func outcomeText(_ outcome: TaskOutcome) -> String {
    switch outcome {
    case .success: return "ok"
    case .failed: return "failed"
    case .agentError: return "agent error"
    case .denied: return "denied"
    case .offline: return "offline"
    case .timedOut: return "timed out"
    case .unrecognized(let code): return "exit \(code)"
    }
  }
}
