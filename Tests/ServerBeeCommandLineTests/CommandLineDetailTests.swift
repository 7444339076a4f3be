import Foundation
import Testing

/// `alerts show`, `devices revoke`, `tasks`, `tasks results` and `security`: the built
/// executable against the simulator executable, with the data made through its control API.
@Suite(.timeLimit(.minutes(5))) struct CommandLineDetailTests {
  @Test func alertsShowPrintsTheCurrentCycleOfAKeyFromTheList() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()
    let server = try await world.newServer("db-primary")
    _ = try await world.simulator.control(
      "POST", "/__simulator/alerts/fire", ["server_id": server, "rule_name": "Disk full"])

    let list = try await world.serverbee(["alerts", "--json"])
    let key = try #require(try JSONOutput.array(list.stdout).first?["alert_key"] as? String)
    let table = try await world.serverbee(["alerts"])
    #expect(table.stdout.contains(key), "the list shows the key to pass to 'alerts show'")

    let shown = try await world.serverbee(["alerts", "show", key])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("Disk full on db-primary"), "\(shown.stdout)")
    #expect(shown.stdout.contains("firing"))
    #expect(shown.stdout.contains("Alert firing — triggered 1 time(s)"))

    let json = try JSONOutput.object(
      try await world.serverbee(["alerts", "show", key, "--json"]).stdout)
    #expect(json["alert_key"] as? String == key)
    #expect(json["server_id"] as? String == server)

    let malformed = try await world.serverbee(["alerts", "show", "not-a-key"])
    #expect(malformed.status == 64)
    #expect(malformed.stderrLines.count == 1)
  }

  @Test func devicesRevokeEndsAnotherSessionWhichLeavesTheListAndRefusesThisOne() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin(home: "laptop")
    try await world.logInAsAdmin(home: "phone")
    let before = try JSONOutput.array(
      try await world.serverbee(["devices", "--json"], home: "laptop").stdout)
    #expect(before.count == 2)
    let phoneStatus = try JSONOutput.object(
      try await world.serverbee(["status", "--json"], home: "phone").stdout)
    let phone = try #require(
      (phoneStatus["identity"] as? [String: Any])?["mobile_session_id"] as? String)
    let laptop = try #require(
      before.compactMap { $0["id"] as? String }.first { $0 != phone })

    let unconfirmed = try await world.serverbee(["devices", "revoke", phone], home: "laptop")
    #expect(unconfirmed.status == 64)
    #expect(unconfirmed.stderr.contains("pass --yes"), "\(unconfirmed.stderr)")
    let revoked = try await world.serverbee(
      ["devices", "revoke", phone, "--yes"], home: "laptop")
    #expect(revoked.status == 0, "\(revoked.stderr)")
    #expect(revoked.stdout.hasPrefix("Revoked "), "\(revoked.stdout)")
    let after = try JSONOutput.array(
      try await world.serverbee(["devices", "--json"], home: "laptop").stdout)
    #expect(after.compactMap { $0["id"] as? String } == [laptop])
    // The revoked installation's session is over.
    let phoneAfterwards = try await world.serverbee(["alerts"], home: "phone")
    #expect(phoneAfterwards.status == 1)

    let own = try await world.serverbee(["devices", "revoke", laptop, "--yes"], home: "laptop")
    #expect(own.status == 64)
    #expect(own.stderrLines.count == 1)
    #expect(own.stderr.contains("serverbee logout"), "\(own.stderr)")
    let unknown = try await world.serverbee(
      ["devices", "revoke", "no-such-session", "--yes"], home: "laptop")
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("no mobile session"), "\(unknown.stderr)")
  }

  @Test func tasksListsTasksAndResultsWithRunShowOnlyThatRunsRows() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()
    let servers = [try await world.newServer("web-1"), try await world.newServer("web-2")]
    let created = try await world.simulator.control(
      "POST", "/__simulator/tasks",
      [
        "command": "apt-get update", "server_ids": servers, "task_type": "scheduled",
        "name": "nightly-update", "cron_expression": "0 3 * * *",
      ])
    let task = try #require((created["data"] as? [String: Any])?["id"] as? String)
    var runs: [String] = []
    for exitCode in [0, 2] {
      let outcomes: [[String: Any]] = servers.map { ["server_id": $0, "exit_code": exitCode] }
      let run = try await world.simulator.control(
        "POST", "/__simulator/tasks/\(task)/runs", ["outcomes": outcomes])
      runs.append(try #require(run["run_id"] as? String))
    }

    let list = try await world.serverbee(["tasks"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("nightly-update"))
    #expect(list.stdout.contains("apt-get update"))
    let listed = try JSONOutput.array(try await world.serverbee(["tasks", "--json"]).stdout)
    #expect(listed.compactMap { $0["id"] as? String } == [task])

    let all = try JSONOutput.array(
      try await world.serverbee(["tasks", "results", task, "--json"]).stdout)
    #expect(all.count == 4)
    let first = try await world.serverbee(["tasks", "results", task, "--run", runs[0], "--json"])
    #expect(first.status == 0, "\(first.stderr)")
    let rows = try JSONOutput.array(first.stdout)
    #expect(rows.count == 2)
    #expect(rows.allSatisfy { $0["run_id"] as? String == runs[0] })

    let failed = try await world.serverbee(["tasks", "results", task, "--run", runs[1]])
    #expect(failed.status == 0, "\(failed.stderr)")
    #expect(failed.stdout.contains("web-1") && failed.stdout.contains("web-2"), "\(failed.stdout)")
    #expect(failed.stdout.contains("2 target(s), 0 succeeded, 2 failed"), "\(failed.stdout)")
    #expect(!failed.stdout.contains(runs[0]))

    let unknown = try await world.serverbee(
      ["tasks", "results", task, "--run", UUID().uuidString.lowercased()])
    #expect(unknown.status == 1)
    #expect(unknown.stderrLines.count == 1)
  }

  @Test func securityEventsListNewestFirstFilterByServerAndEventShowsOne() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()
    let bastion = try await world.newServer("bastion")
    let web = try await world.newServer("web")
    let login = try await world.simulator.control(
      "POST", "/__simulator/security-events",
      [
        "server_id": bastion, "event_type": "ssh_login", "source_ip": "198.51.100.23",
        "username": "deploy", "first_seen": true,
        "evidence": ["kind": "ssh_login", "auth_method": "publickey"],
      ])
    let loginID = try #require((login["data"] as? [String: Any])?["id"] as? String)
    _ = try await world.simulator.control(
      "POST", "/__simulator/security-events",
      ["server_id": web, "event_type": "port_scan", "severity": "high"])

    let all = try await world.serverbee(["security", "events", "--json"])
    #expect(all.status == 0, "\(all.stderr)")
    #expect(try JSONOutput.array(all.stdout).count == 2)
    let filtered = try JSONOutput.array(
      try await world.serverbee(["security", "events", "--server", bastion, "--json"]).stdout)
    #expect(filtered.compactMap { $0["id"] as? String } == [loginID])
    let table = try await world.serverbee(["security", "events"])
    #expect(table.stdout.contains("bastion") && table.stdout.contains("port_scan"))

    let one = try await world.serverbee(["security", "event", loginID])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.contains("ssh_login (info)"), "\(one.stdout)")
    #expect(one.stdout.contains("198.51.100.23"))
    #expect(one.stdout.contains("deploy"))
    #expect(one.stdout.contains("publickey authentication"))
    let missing = try await world.serverbee(["security", "event", "no-such-event"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("no security event"), "\(missing.stderr)")
  }
}
