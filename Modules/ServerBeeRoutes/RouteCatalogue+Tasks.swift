public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Tasks and their results (`Documentation/Protocol/Tasks.md`).
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

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [tasks.erased, task.erased, taskResults.erased]
  }
}
