import ServerBeeRoutes
import ServerBeeTransport

/// Tasks (Protocol/Tasks.md, Protocol/Push.md §3.4): the task list, one task and its results
/// (admin only), their mutations (Protocol/Tasks.md §2), ping tasks (Protocol/Tasks.md §5), and the control API's tasks and finished
/// runs, whose summary may push.
///
/// Its tables `tasks` and `task_results` are in ``Schema/baseMigrations``; `ping_tasks` is its
/// migration 12.
struct TasksArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Tasks.tasks, Self.tasks),
    route(RouteCatalogue.Tasks.task, Self.taskDetail),
    route(RouteCatalogue.Tasks.taskResults, Self.taskResults),
    route(RouteCatalogue.Tasks.createTask, Self.createTask),
    route(RouteCatalogue.Tasks.updateTask, Self.updateTask),
    route(RouteCatalogue.Tasks.runTask, Self.runTask),
    route(RouteCatalogue.Tasks.deleteTask, Self.deleteTask),
    route(RouteCatalogue.Tasks.pingTasks, Self.pingTasks),
    route(RouteCatalogue.Tasks.createPingTask, Self.createPingTask),
    route(RouteCatalogue.Tasks.updatePingTask, Self.updatePingTask),
    route(RouteCatalogue.Tasks.deletePingTask, Self.deletePingTask),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/tasks", Self.controlCreateTask),
    control("POST", "__simulator/tasks/*/runs", Self.controlFinishRun),
  ]

  static let migrations: [Migration] = [
    Migration(
      version: 12,
      [
        // Ping tasks (Protocol/Tasks.md §5); `server_ids_json` is JSON array text, as answered.
        """
        CREATE TABLE ping_tasks (
          id TEXT PRIMARY KEY, name TEXT NOT NULL, probe_type TEXT NOT NULL,
          target TEXT NOT NULL, interval INTEGER NOT NULL, server_ids_json TEXT NOT NULL,
          enabled INTEGER NOT NULL, created_at INTEGER NOT NULL)
        """
      ])
  ]
}
