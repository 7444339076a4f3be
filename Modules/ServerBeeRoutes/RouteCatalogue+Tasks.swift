public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Tasks and their results, and ping tasks (`Documentation/Protocol/Tasks.md`).
  public enum Tasks {
    /// `GET /api/tasks`.
    public static let tasks = APIRoute<NoPath, NoBody, [ServerTask]>(
      "tasks", .get, "/api/tasks", .admin, query: ["type"], summary: "every task")
    /// `GET /api/tasks/{id}`.
    public static let task = APIRoute<PathID, NoBody, ServerTask>(
      "task", .get, "/api/tasks/{id}", .admin, summary: "one task")
    /// `GET /api/tasks/{id}/results`.
    public static let taskResults = APIRoute<PathID, NoBody, [TaskResult]>(
      "taskResults", .get, "/api/tasks/{id}/results", .admin, query: ["run_id"],
      summary: "a task's results, of one run or all")
    /// `POST /api/tasks`: a oneshot task is dispatched at once (Protocol/Tasks.md §2).
    public static let createTask = APIRoute<NoPath, CreateTaskRequest, ServerTask>(
      "createTask", .post, "/api/tasks", .admin, summary: "create a oneshot or scheduled task")
    /// `PUT /api/tasks/{id}`: only the members set change (Protocol/Tasks.md §2).
    public static let updateTask = APIRoute<PathID, UpdateTaskRequest, ServerTask>(
      "updateTask", .put, "/api/tasks/{id}", .admin,
      summary: "change a task, or turn it on or off")
    /// `POST /api/tasks/{id}/run`: runs a scheduled task now (Protocol/Tasks.md §2).
    public static let runTask = APIRoute<PathID, NoBody, ServerTask>(
      "runTask", .post, "/api/tasks/{id}/run", .admin, summary: "run a scheduled task now")
    /// `DELETE /api/tasks/{id}`, with its results; idempotent (Protocol/Tasks.md §2).
    public static let deleteTask = APIRoute<PathID, NoBody, Ignored>(
      "deleteTask", .delete, "/api/tasks/{id}", .admin,
      summary: "delete a task and its results")

    /// `GET /api/ping-tasks` (Protocol/Tasks.md §5).
    public static let pingTasks = APIRoute<NoPath, NoBody, [PingTask]>(
      "pingTasks", .get, "/api/ping-tasks", .member, summary: "every ping task")
    /// `POST /api/ping-tasks` (Protocol/Tasks.md §5).
    public static let createPingTask = APIRoute<NoPath, PingTaskRequest, PingTask>(
      "createPingTask", .post, "/api/ping-tasks", .admin, summary: "create a ping task")
    /// `PUT /api/ping-tasks/{id}`: only the members set change (Protocol/Tasks.md §5).
    public static let updatePingTask = APIRoute<PathID, PingTaskRequest, PingTask>(
      "updatePingTask", .put, "/api/ping-tasks/{id}", .admin,
      summary: "change a ping task, or turn it on or off")
    /// `DELETE /api/ping-tasks/{id}`, with its records (Protocol/Tasks.md §5).
    public static let deletePingTask = APIRoute<PathID, NoBody, Ignored>(
      "deletePingTask", .delete, "/api/ping-tasks/{id}", .admin,
      summary: "delete a ping task and its records")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      tasks.erased, task.erased, taskResults.erased, createTask.erased, updateTask.erased,
      runTask.erased, deleteTask.erased, pingTasks.erased, createPingTask.erased,
      updatePingTask.erased, deletePingTask.erased,
    ]
  }
}
