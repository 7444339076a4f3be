import Foundation
import ServerBeeModels
import Testing

@Suite struct TasksResultTests {
  private func results(_ path: String) throws -> [TaskResult] {
    try APIResponse<[TaskResult]>.payload(status: 200, body: Fixtures.data(path))
  }

  @Test func taskListDecodesScheduledAndOneshot() throws {
    let tasks = try APIResponse<[ServerTask]>.payload(
      status: 200, body: Fixtures.data("tasks/tasks.json"))
    #expect(tasks.count == 2)
    let nightly = tasks[0]
    #expect(nightly.taskType == .scheduled)
    #expect(nightly.serverIDs.count == 2)
    #expect(nightly.cronExpression == "0 0 3 * * *")
    #expect(nightly.timeout == 600)
    #expect(nightly.effectiveTimeout == 600)
    #expect(nightly.retryCount == 2)
    #expect(nightly.nextRunAt == (try RFC3339Timestamp(parsing: "2026-03-29T03:00:00Z")))
    let oneshot = tasks[1]
    #expect(oneshot.taskType == .oneshot)
    #expect(oneshot.name == nil)
    #expect(oneshot.timeout == nil)
    #expect(oneshot.effectiveTimeout == 300)
    #expect(oneshot.lastRunAt == nil)
  }

  @Test(arguments: [
    "tasks/tasks.json", "tasks/task_results.json", "tasks/task_results_oneshot.json",
  ])
  func tasksAndResultsReencodeToTheSameBytes(path: String) throws {
    let reencoded =
      path == "tasks/tasks.json"
      ? try Fixtures.reencoded(APIResponse<[ServerTask]>.self, path)
      : try Fixtures.reencoded(APIResponse<[TaskResult]>.self, path)
    #expect(reencoded == (try Fixtures.text(path)))
  }

  @Test(arguments: [
    (0, TaskOutcome.success), (1, .failed(exitCode: 1)), (100, .failed(exitCode: 100)),
    (-1, .agentError), (-2, .denied), (-3, .offline), (-4, .timedOut),
    (-9, .unrecognized(exitCode: -9)),
  ])
  func exitCodesMapToOutcomes(exitCode: Int, outcome: TaskOutcome) {
    #expect(TaskOutcome(exitCode: exitCode) == outcome)
  }

  @Test func resultRowsDecodeWithRunIDsAndAttempts() throws {
    let rows = try results("tasks/task_results.json")
    #expect(rows.count == 6)
    #expect(rows[0].outcome == .timedOut)
    #expect(rows[0].attempt == 3)
    #expect(rows[0].startedAt?.nanoseconds == 1_000)
    #expect(rows[1].output == "Reading package lists...\n")
    #expect(rows[1].outcome == .success)
    #expect(rows[4].startedAt == nil)
    #expect(rows[4].outcome == .offline)
    #expect(rows[5].outcome == .denied)
  }

  @Test func resultsGroupByRunNewestFirstWithFinalAttemptPerTarget() throws {
    let runs = TaskRun.group(try results("tasks/task_results.json"))
    #expect(
      runs.map(\.runID) == [
        "9b2f1c3d-4e5a-4b6c-8d7e-9f0a1b2c3d4e", "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
      ])
    #expect(runs[0].results.count == 4)
    let finals = runs[0].finalResults
    #expect(
      finals.map(\.serverID) == [
        "a9d3c1e0-7f2b-4d6a-8c5e-1b0f9e8d7c6b", "c2f1a7de-5b0e-4f51-9d7c-2f4a8e61b3c0",
      ])
    #expect(finals.map(\.attempt) == [3, 1])
    var expected = TaskRunSummary()
    expected.total = 2
    expected.succeeded = 1
    expected.timedOut = 1
    #expect(runs[0].summary == expected)
    #expect(runs[1].summary.offline == 1)
    #expect(runs[1].summary.denied == 1)
  }

  @Test func oneshotRowsHaveNoRunIDAndFormOneGroup() throws {
    let rows = try results("tasks/task_results_oneshot.json")
    #expect(rows.allSatisfy { $0.runID == nil })
    let runs = TaskRun.group(rows)
    #expect(runs.count == 1)
    #expect(runs[0].runID == nil)
    #expect(runs[0].summary.failed == 1)
    #expect(runs[0].summary.succeeded == 1)
  }

  @Test func groupingNothingGivesNoRuns() {
    #expect(TaskRun.group([]).isEmpty)
  }

  @Test func resultMissingExitCodeThrowsNamingTheField() throws {
    let body =
      #"{"data":[{"id":1,"task_id":"t","server_id":"s","output":"","run_id":null,"attempt":1,"started_at":null,"finished_at":"2026-03-28T03:00:00Z"}]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<[TaskResult]>.payload(status: 200, body: Data(body.utf8))
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("data[0].exit_code"))
  }

  @Test func createRequestLeavesUnsetMembersOut() throws {
    let minimal = CreateTaskRequest(command: "uptime", serverIDs: ["s1"])
    #expect(
      String(decoding: try WireJSON.encode(minimal), as: UTF8.self)
        == #"{"command":"uptime","server_ids":["s1"]}"#)
    let full = CreateTaskRequest(
      command: "backup.sh", serverIDs: ["s1", "s2"], timeout: 600, taskType: .scheduled,
      name: "Backup", cronExpression: "0 0 2 * * *", retryCount: 3, retryInterval: 120)
    #expect(
      String(decoding: try WireJSON.encode(full), as: UTF8.self)
        == #"{"command":"backup.sh","server_ids":["s1","s2"],"timeout":600,"task_type":"scheduled","name":"Backup","cron_expression":"0 0 2 * * *","retry_count":3,"retry_interval":120}"#
    )
  }

  @Test func anUpdateSendsOnlyTheMembersSetInWireOrder() throws {
    #expect(
      String(decoding: try WireJSON.encode(UpdateTaskRequest(enabled: false)), as: UTF8.self)
        == #"{"enabled":false}"#)
    let full = UpdateTaskRequest(
      name: "Backup", command: "backup.sh", serverIDs: ["s1"], cronExpression: "0 0 4 * * *",
      enabled: true, timeout: 60, retryCount: 1, retryInterval: 30)
    #expect(
      String(decoding: try WireJSON.encode(full), as: UTF8.self)
        == #"{"name":"Backup","command":"backup.sh","server_ids":["s1"],"cron_expression":"0 0 4 * * *","enabled":true,"timeout":60,"retry_count":1,"retry_interval":30}"#
    )
    #expect(String(decoding: try WireJSON.encode(UpdateTaskRequest()), as: UTF8.self) == "{}")
  }
}
