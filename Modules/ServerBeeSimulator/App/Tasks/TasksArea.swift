import ServerBeeRoutes
import ServerBeeTransport

/// Tasks (Protocol/Tasks.md, Protocol/Push.md §3.4): the task list, one task and its results
/// (admin only), and the control API's tasks and finished runs, whose summary may push.
///
/// Its tables (`tasks`, `task_results`) are in ``Schema/baseMigrations``.
struct TasksArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Tasks.tasks, Self.tasks),
    route(RouteCatalogue.Tasks.task, Self.taskDetail),
    route(RouteCatalogue.Tasks.taskResults, Self.taskResults),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/tasks", Self.controlCreateTask),
    control("POST", "__simulator/tasks/*/runs", Self.controlFinishRun),
  ]

  static let migrations: [Migration] = []
}
