import ServerBeeCore
import ServerBeeModels

// Scheduled tasks run when their time comes on the simulator clock (Protocol/Tasks.md §2.1):
// each clock move (the control API's advance, or the ticker of a clock that follows the wall
// clock) runs the enabled scheduled tasks whose `next_run_at` has passed.

extension SimulatorCore {
  /// Runs every enabled scheduled task whose `next_run_at` is not after now, as `run` does (one
  /// row per target under a new `run_id`, offline targets `-3`, the summary pushed to the task's
  /// creator), then moves its `next_run_at` to the first time after now. [inferred: a clock
  /// that jumped over several of a task's times runs it once, as a scheduler that was not
  /// running would on waking; the run's rows are stamped with the clock's now, not the missed
  /// time.] Costs one comparison while nothing is due.
  func fireDueTasks() throws {
    if let next = nextScheduledRun.withLock({ $0 }), next > now { return }
    try db.serial {
      let area = TasksArea(core: self)
      let due = try db.query(
        """
        SELECT id, server_ids_json, cron_expression, created_by FROM tasks
        WHERE task_type = 'scheduled' AND enabled = 1 AND next_run_at <= ?
        ORDER BY next_run_at, id
        """, [.int(now)])
      for row in due {
        guard let id = row["id"].text else { continue }
        let run = try area.dispatch(
          taskID: id, targets: TasksArea.targets(row), scheduled: true)
        if let runID = run.runID {
          _ = try area.admitTaskRunPush(
            taskID: id, runID: runID, ownerID: row["created_by"].text,
            finalExitCodes: run.finalExitCodes, completedAt: now)
        }
        let schedule = try? TasksArea.schedule(row["cron_expression"].text ?? "")
        let next = schedule?.next(after: now / Self.second).map { $0 * Self.second }
        try db.execute("UPDATE tasks SET next_run_at = ? WHERE id = ?", [next.sql, .text(id)])
      }
      let next = try db.scalar(
        """
        SELECT MIN(next_run_at) FROM tasks
        WHERE task_type = 'scheduled' AND enabled = 1 AND next_run_at IS NOT NULL
        """
      ).int
      nextScheduledRun.withLock { $0 = next ?? Int64.max }
    }
  }
}
