import Foundation
import Testing

/// `serverbee tasks create|edit|disable|enable|run|delete`, run as the built executable against
/// the built simulator (Protocol/Tasks.md §2): a scheduled task is created, run now and its rows
/// read back with `tasks results`; a oneshot is refused a run; delete needs --yes off a terminal.
@Suite(.timeLimit(.minutes(5))) struct CommandLineTaskMutationTests {
  @Test func aScheduledTaskIsCreatedRunNowAndItsResultsReadBack() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()
    let web = try await world.newServer("web-1")
    let db = try await world.newServer("db-1")

    let made = try await world.serverbee([
      "tasks", "create", "apt-get update", "--servers", "\(web),\(db)", "--cron",
      "0 30 3 * * *", "--name", "nightly", "--retries", "2", "--json",
    ])
    #expect(made.status == 0, "\(made.stderr)")
    let task = try JSONOutput.object(made.stdout)
    let id = try #require(task["id"] as? String)
    #expect(task["task_type"] as? String == "scheduled")
    // The built simulator runs on the real clock: the next 03:30:00 UTC.
    let next = try #require(task["next_run_at"] as? String)
    #expect(next.hasSuffix("T03:30:00Z"), "\(made.stdout)")

    let disabled = try await world.serverbee(["tasks", "disable", id])
    #expect(disabled.status == 0, "\(disabled.stderr)")
    #expect(
      disabled.stdout
        == "Disabled scheduled task nightly: 'apt-get update' on 2 servers, cron '0 30 3 * * *' "
        + "UTC, disabled (id \(id)).\n")
    let enabled = try await world.serverbee(["tasks", "enable", id])
    #expect(enabled.stdout.contains(", next run \(next) (id \(id))."))

    let ran = try await world.serverbee(["tasks", "run", id])
    #expect(ran.status == 0, "\(ran.stderr)")
    #expect(
      ran.stdout
        == "Started a run of task nightly (id \(id)); see 'serverbee tasks results \(id)'.\n")
    let rows = try JSONOutput.array(
      try await world.serverbee(["tasks", "results", id, "--json"]).stdout)
    #expect(rows.count == 2)
    #expect(Set(rows.compactMap { $0["server_id"] as? String }) == [web, db])
    #expect(rows.allSatisfy { $0["exit_code"] as? Int == 0 && $0["run_id"] is String })
    let table = try await world.serverbee(["tasks", "results", id])
    #expect(table.stdout.contains("web-1") && table.stdout.contains("db-1"), "\(table.stdout)")
    #expect(table.stdout.contains("2 target(s), 2 succeeded"), "\(table.stdout)")

    let badCron = try await world.serverbee(["tasks", "edit", id, "--cron", "0 3 * * *"])
    #expect(badCron.status == 1)
    #expect(
      badCron.stderr.contains("Invalid cron expression: expected 6 fields"), "\(badCron.stderr)")
    #expect(badCron.stderrLines.count == 1)

    let refused = try await world.serverbee(["tasks", "delete", id])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("--yes"), "\(refused.stderr)")
    let deleted = try await world.serverbee(["tasks", "delete", id, "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout == "Deleted task \(id), with its results.\n")
    let after = try await world.serverbee(["tasks", "results", id])
    #expect(after.stdout == "No results for task '\(id)'.\n", "\(after.stdout)")
  }

  @Test func aOneshotRunsAtOnceAndCannotBeRunAgain() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()
    let web = try await world.newServer("web-1")
    let made = try await world.serverbee(["tasks", "create", "uptime", "--servers", web])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.hasPrefix("Created oneshot task uptime: 'uptime' on 1 server (id "))
    let listed = try JSONOutput.array(try await world.serverbee(["tasks", "--json"]).stdout)
    let id = try #require(listed.first?["id"] as? String)
    let rows = try JSONOutput.array(
      try await world.serverbee(["tasks", "results", id, "--json"]).stdout)
    #expect(rows.count == 1 && rows.first?["run_id"] is NSNull)

    let again = try await world.serverbee(["tasks", "run", id])
    #expect(again.status == 1)
    #expect(
      again.stderr.contains("Only scheduled tasks can be manually triggered"), "\(again.stderr)")
    let noServers = try await world.serverbee(["tasks", "create", "uptime"])
    #expect(noServers.status == 64 && noServers.stderr.contains("--servers is required"))
    let badRetries = try await world.serverbee(
      ["tasks", "create", "uptime", "--servers", web, "--retries", "x"])
    #expect(badRetries.status == 64, "\(badRetries.stderr)")
  }
}
