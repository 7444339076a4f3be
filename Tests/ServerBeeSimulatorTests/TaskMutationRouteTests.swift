import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Task mutations (Protocol/Tasks.md §2): every validation text in its order, the cron
/// schedule's `next_run_at`, a oneshot dispatched at once, a manual run with its `-3` offline
/// rows, partial changes, the oneshot's 400, and the idempotent delete that takes the results.
@Suite(.timeLimit(.minutes(5))) struct TaskMutationRouteTests {
  func admin(_ h: Harness) async throws -> String {
    _ = await h.user("ada")
    return try #require(await h.login("ada").1).access
  }

  func server(_ h: Harness, _ name: String) async throws -> String {
    try #require(await h.control(.post, "/servers", ["name": name])?["data"]?["id"]?.stringValue)
  }

  func body(_ text: String) -> Data { Data(text.utf8) }

  func results(_ h: Harness, _ task: String, _ token: String) async throws -> [JSONValue] {
    let reply = await h.send(.get, "/api/tasks/\(task)/results", bearer: token)
    #expect(reply.status == 200, "\(reply.text)")
    return try #require(reply.data?.arrayValue)
  }

  @Test(arguments: [
    (#"{"command":"uptime","server_ids":[]}"#, "server_ids cannot be empty"),
    (#"{"command":"  ","server_ids":["s"]}"#, "command cannot be empty"),
    (
      #"{"command":"uptime","server_ids":["s"],"task_type":"scheduled"}"#,
      "cron_expression is required for scheduled tasks"
    ),
    (
      #"{"command":"uptime","server_ids":["s"],"task_type":"scheduled","cron_expression":"0 3 * * *"}"#,
      "Invalid cron expression: expected 6 fields (sec min hour day-of-month month day-of-week), got 5"
    ),
    (#"{"command":"uptime","server_ids":["s"],"timeout":0}"#, "timeout must be > 0"),
    (
      #"{"command":"uptime","server_ids":["s"],"retry_count":11}"#,
      "retry_count must be between 0 and 10"
    ),
    (#"{"command":"uptime","server_ids":["s"],"retry_interval":0}"#, "retry_interval must be >= 1"),
    (#"{"command":"","server_ids":[],"timeout":0}"#, "server_ids cannot be empty"),
  ])
  func createRefusesWithTheDocumentedTexts(json: String, text: String) async throws {
    let h = try Harness()
    let token = try await admin(h)
    let reply = await h.send(.post, "/api/tasks", raw: body(json), bearer: token)
    #expect(reply.status == 422)
    #expect(reply.message == "Validation error: \(text)")
    let listed = await h.send(.get, "/api/tasks", bearer: token)
    #expect(listed.data?.arrayValue?.isEmpty == true)
  }

  @Test func aScheduledTaskGetsItsNextRunAndRunsNowOnEveryTarget() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let up = try await server(h, "web-1")
    let down = try await server(h, "web-2")
    _ = await h.control(.post, "/servers/\(down)/offline")
    let made = await h.send(
      .post, "/api/tasks",
      raw: body(
        #"{"command":"apt-get update","server_ids":["\#(up)","\#(down)"],"task_type":"scheduled","#
          + #""name":"nightly","cron_expression":"0 30 3 * * *","retry_count":2}"#),
      bearer: token)
    #expect(made.status == 200, "\(made.text)")
    let task = try #require(made.data)
    let id = try #require(task["id"]?.stringValue)
    #expect(task["next_run_at"]?.stringValue == "2027-01-16T03:30:00Z")
    #expect(task["last_run_at"] == .null)
    #expect(task["retry_count"]?.numberValue == 2 && task["retry_interval"]?.numberValue == 60)
    #expect(task["timeout"] == .null && task["enabled"]?.boolValue == true)
    #expect(try await results(h, id, token).isEmpty)

    let ran = await h.send(.post, "/api/tasks/\(id)/run", bearer: token)
    #expect(ran.status == 200, "\(ran.text)")
    #expect(ran.data?["last_run_at"]?.stringValue == "2027-01-15T08:00:00Z")
    #expect(ran.data?["next_run_at"]?.stringValue == "2027-01-16T03:30:00Z")
    let rows = try await results(h, id, token)
    #expect(rows.count == 2)
    let byServer = Dictionary(
      uniqueKeysWithValues: rows.compactMap { row in row["server_id"]?.stringValue.map { ($0, row) }
      })
    #expect(byServer[up]?["exit_code"]?.numberValue == 0)
    #expect(byServer[down]?["exit_code"]?.numberValue == -3)
    #expect(byServer[down]?["output"]?.stringValue == "Server offline")
    let runIDs = Set(rows.compactMap { $0["run_id"]?.stringValue })
    #expect(runIDs.count == 1)
    #expect(rows.allSatisfy { $0["attempt"]?.numberValue == 1 && $0["started_at"] != .null })
  }

  @Test func aScheduledTaskRunsWhenItsTimeComesOnTheClockOnceAJumpAndNotWhenDisabled()
    async throws
  {
    let h = try Harness()
    let token = try await admin(h)
    let up = try await server(h, "web-1")
    let down = try await server(h, "web-2")
    _ = await h.control(.post, "/servers/\(down)/offline")
    // Every 10 minutes, from 08:00:00 (the harness clock).
    let made = await h.send(
      .post, "/api/tasks",
      raw: body(
        #"{"command":"uptime","server_ids":["\#(up)","\#(down)"],"task_type":"scheduled","#
          + #""cron_expression":"0 */10 * * * *"}"#),
      bearer: token)
    let id = try #require(made.data?["id"]?.stringValue)
    #expect(made.data?["next_run_at"]?.stringValue == "2027-01-15T08:10:00Z")
    h.clock.advance(by: 599)
    #expect(try await results(h, id, token).isEmpty)
    h.clock.advance(by: 1)
    let first = try await results(h, id, token)
    #expect(first.count == 2, "one row per target at 08:10")
    #expect(Set(first.compactMap { $0["run_id"]?.stringValue }).count == 1)
    let byServer = Dictionary(
      uniqueKeysWithValues: first.compactMap { row in
        row["server_id"]?.stringValue.map { ($0, row["exit_code"]?.numberValue) }
      })
    #expect(byServer[up] == 0 && byServer[down] == -3)
    let admin2 = try #require(await h.login("ada", installation: "INST-2").1).access
    let moved = await h.send(.get, "/api/tasks/\(id)", bearer: admin2)
    #expect(moved.data?["last_run_at"]?.stringValue == "2027-01-15T08:10:00Z")
    #expect(moved.data?["next_run_at"]?.stringValue == "2027-01-15T08:20:00Z")
    // A jump over three of its times runs it once, and the next time is after the jump.
    h.clock.advance(by: 1_900)
    let admin3 = try #require(await h.login("ada", installation: "INST-3").1).access
    #expect(try await results(h, id, admin3).count == 4)
    let after = await h.send(.get, "/api/tasks/\(id)", bearer: admin3)
    #expect(after.data?["next_run_at"]?.stringValue == "2027-01-15T08:50:00Z")
    // Disabled, it does not run when its time comes.
    let off = await h.send(
      .put, "/api/tasks/\(id)", raw: body(#"{"enabled":false}"#), bearer: admin3)
    #expect(off.status == 200, "\(off.text)")
    h.clock.advance(by: 600)
    #expect(try await results(h, id, admin3).count == 4)
  }

  @Test func aOneshotTaskIsDispatchedAtOnceAndCannotBeRunAgain() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let up = try await server(h, "web-1")
    let down = try await server(h, "web-2")
    _ = await h.control(.post, "/servers/\(down)/offline")
    let made = await h.send(
      .post, "/api/tasks", raw: body(#"{"command":"uptime","server_ids":["\#(up)","\#(down)"]}"#),
      bearer: token)
    #expect(made.status == 200, "\(made.text)")
    let id = try #require(made.data?["id"]?.stringValue)
    #expect(made.data?["task_type"]?.stringValue == "oneshot")
    #expect(made.data?["next_run_at"] == .null)
    // The offline target makes no row; the online one answers at once, with no run id.
    let rows = try await results(h, id, token)
    #expect(rows.count == 1)
    #expect(rows.first?["server_id"]?.stringValue == up)
    #expect(rows.first?["run_id"] == .null && rows.first?["started_at"] == .null)
    #expect(rows.first?["exit_code"]?.numberValue == 0)

    let again = await h.send(.post, "/api/tasks/\(id)/run", bearer: token)
    #expect(again.status == 400)
    #expect(again.message == "Bad request: Only scheduled tasks can be manually triggered")
    let unknown = await h.send(.post, "/api/tasks/nope/run", bearer: token)
    #expect(unknown.status == 404 && unknown.message == "Not found: Task nope not found")
  }

  @Test func anUpdateChangesOnlyWhatIsGivenAndChecksTheCron() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let made = await h.send(
      .post, "/api/tasks",
      raw: body(
        #"{"command":"df -h","server_ids":["s1"],"task_type":"scheduled","name":"disk","#
          + #""cron_expression":"0 0 12 * * *","timeout":60}"#),
      bearer: token)
    let id = try #require(made.data?["id"]?.stringValue)
    #expect(made.data?["next_run_at"]?.stringValue == "2027-01-15T12:00:00Z")

    let off = await h.send(
      .put, "/api/tasks/\(id)", raw: body(#"{"enabled":false}"#), bearer: token)
    #expect(off.status == 200, "\(off.text)")
    #expect(off.data?["enabled"]?.boolValue == false)
    #expect(off.data?["name"]?.stringValue == "disk" && off.data?["timeout"]?.numberValue == 60)
    #expect(off.data?["command"]?.stringValue == "df -h")

    let moved = await h.send(
      .put, "/api/tasks/\(id)",
      raw: body(#"{"cron_expression":"0 0 6 * * *","name":null,"server_ids":["s1","s2"]}"#),
      bearer: token)
    #expect(moved.status == 200, "\(moved.text)")
    #expect(moved.data?["next_run_at"]?.stringValue == "2027-01-16T06:00:00Z")
    #expect(moved.data?["cron_expression"]?.stringValue == "0 0 6 * * *")
    #expect(moved.data?["name"]?.stringValue == "disk")
    #expect(moved.data?["server_ids"]?.arrayValue?.count == 2)

    for (json, text) in [
      (
        #"{"cron_expression":"61 * * * * *"}"#,
        "Invalid cron expression: '61' is out of range for seconds (0-59)"
      ),
      (#"{"timeout":0}"#, "timeout must be > 0"),
      (#"{"retry_count":-1}"#, "retry_count must be between 0 and 10"),
      (#"{"retry_interval":0}"#, "retry_interval must be >= 1"),
      (#"{"server_ids":[]}"#, "server_ids cannot be empty"),
    ] {
      let refused = await h.send(.put, "/api/tasks/\(id)", raw: body(json), bearer: token)
      #expect(refused.status == 422)
      #expect(refused.message == "Validation error: \(text)")
    }
    let unknown = await h.send(
      .put, "/api/tasks/nope", raw: body(#"{"enabled":true}"#), bearer: token)
    #expect(unknown.status == 404 && unknown.message == "Not found: Task nope not found")
  }

  @Test func deleteTakesTheResultsAndIsIdempotent() async throws {
    let h = try Harness()
    let token = try await admin(h)
    let up = try await server(h, "web-1")
    let made = await h.send(
      .post, "/api/tasks", raw: body(#"{"command":"uptime","server_ids":["\#(up)"]}"#),
      bearer: token)
    let id = try #require(made.data?["id"]?.stringValue)
    #expect(try await results(h, id, token).count == 1)
    for _ in 0..<2 {
      let gone = await h.send(.delete, "/api/tasks/\(id)", bearer: token)
      #expect(gone.status == 200)
      #expect(gone.text == #"{"data":null}"#)
    }
    #expect(try await results(h, id, token).isEmpty)
    #expect(await h.send(.get, "/api/tasks/\(id)", bearer: token).status == 404)
  }

  @Test func aMemberMayNotChangeTasks() async throws {
    let h = try Harness()
    _ = try await admin(h)
    _ = await h.user("bob", role: "member")
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    let reply = await h.send(
      .post, "/api/tasks", raw: body(#"{"command":"uptime","server_ids":["s"]}"#), bearer: member)
    #expect(reply.status == 403)
    #expect(await h.send(.delete, "/api/tasks/x", bearer: member).status == 403)
  }
}

extension JSONValue {
  /// The elements of an array.
  fileprivate var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}
