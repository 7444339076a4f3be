import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee maintenance`, `incidents` and `status-page`, run as built executables against the
/// built simulator (Protocol/Incidents.md).
@Suite(.timeLimit(.minutes(5))) struct CommandLineIncidentTests {
  private func signIn(
    _ simulator: SimulatorProcess, _ username: String, _ password: String, home: URL,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", username, "--password", password],
      home: home)
    #expect(login.status == 0, "\(login.stderr)", sourceLocation: sourceLocation)
  }

  private func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func anAdminSchedulesMaintenanceResolvesAnIncidentAndSetsTheStatusPage() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    try await signIn(simulator, "admin", "admin-password", home: home)

    // A maintenance window: created, listed, and its description blanked with ''.
    let window = try await serverbee(
      [
        "maintenance", "create", "Kernel upgrade", "--start", "2026-12-06T02:00:00Z", "--end",
        "2026-12-06T04:00:00+01:00", "--description", "Reboots", "--servers", "s1,s2",
      ], home: home)
    #expect(window.status == 0, "\(window.stderr)")
    #expect(
      window.stdout.hasPrefix(
        "Scheduled maintenance Kernel upgrade from 2026-12-06 02:00:00Z to "
          + "2026-12-06 03:00:00Z for 2 servers (id "),
      "\(window.stdout)")
    let windows = try await serverbee(["maintenance", "--json"], home: home)
    let listed = try #require(
      try JSONSerialization.jsonObject(with: Data(windows.stdout.utf8)) as? [[String: Any]])
    let windowID = try #require(listed.first?["id"] as? String)
    #expect(listed.first?["server_ids_json"] as? String == #"["s1","s2"]"#)
    let edited = try await serverbee(
      ["maintenance", "edit", windowID, "--description", "", "--json"], home: home)
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(try object(edited.stdout)["description"] as? String == "")
    let table = try await serverbee(["maintenance"], home: home)
    #expect(table.stdout.contains("Kernel upgrade") && table.stdout.contains(windowID))
    let backwards = try await serverbee(
      [
        "maintenance", "create", "x", "--start", "2026-12-06T02:00:00Z", "--end",
        "2026-12-06T01:00:00Z",
      ], home: home)
    #expect(backwards.status == 1)
    #expect(backwards.stderr.contains("end_at must be after start_at"), "\(backwards.stderr)")

    // An incident, opened then resolved by an update.
    let opened = try await serverbee(
      ["incidents", "create", "API latency", "--severity", "major", "--public", "--json"],
      home: home)
    #expect(opened.status == 0, "\(opened.stderr)")
    let incident = try object(opened.stdout)
    let incidentID = try #require(incident["id"] as? String)
    #expect(incident["status"] as? String == "investigating")
    #expect(incident["resolved_at"] is NSNull)
    let resolved = try await serverbee(
      ["incidents", "update", incidentID, "--status", "resolved", "--message", "Fixed."],
      home: home)
    #expect(resolved.status == 0, "\(resolved.stderr)")
    #expect(resolved.stdout.hasPrefix("Incident \(incidentID) is now resolved (update "))
    let after = try await serverbee(["incidents", "--status", "resolved", "--json"], home: home)
    let incidents = try #require(
      try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
    #expect(incidents.count == 1)
    #expect(incidents.first?["resolved_at"] is String)
    let badStatus = try await serverbee(
      ["incidents", "update", incidentID, "--status", "done", "--message", "x"], home: home)
    #expect(badStatus.status == 64)
    #expect(
      badStatus.stderr
        == "serverbee: --status expects investigating, identified, monitoring or resolved, "
        + "got 'done'\n")

    // The status page: set, then shown.
    let set = try await serverbee(
      [
        "status-page", "set", "--title", "Acme status", "--description", "Our fleet",
        "--servers", "s1", "--yellow", "99.5", "--layout", "grid",
      ], home: home)
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stdout.hasPrefix("Updated the status page.\nTitle:        Acme status\n"))
    let shown = try await serverbee(["status-page", "show"], home: home)
    #expect(shown.stdout.contains("Description:  Our fleet\n"), "\(shown.stdout)")
    #expect(shown.stdout.contains("Servers:      s1\n"))
    #expect(shown.stdout.contains("Layout:       grid\n"))
    #expect(shown.stdout.contains("Uptime:       yellow below 99.5%, red below 95.0%\n"))
    let blanked = try await serverbee(["status-page", "set", "--description", ""], home: home)
    #expect(blanked.stdout.contains("Description:  (blank)\n"))
    let json = try object(try await serverbee(["status-page", "--json"], home: home).stdout)
    #expect(json["description"] as? String == "")
    #expect(json["server_ids_json"] as? String == #"["s1"]"#)

    // Destructive: refused without a terminal unless --yes.
    let unconfirmed = try await serverbee(["incidents", "delete", incidentID], home: home)
    #expect(unconfirmed.status == 64 && unconfirmed.stdout.isEmpty)
    #expect(unconfirmed.stderr.contains("pass --yes"))
    let deleted = try await serverbee(["incidents", "delete", incidentID, "--yes"], home: home)
    #expect(deleted.stdout == "Deleted incident \(incidentID), with its updates.\n")
    let removed = try await serverbee(["maintenance", "delete", windowID, "--yes"], home: home)
    #expect(removed.stdout == "Deleted maintenance window \(windowID).\n")
    let gone = try await serverbee(["maintenance", "delete", windowID, "--yes"], home: home)
    #expect(
      gone.stderr
        == "serverbee: no maintenance window '\(windowID)' (see 'serverbee maintenance')\n"
    )
  }

  @Test func aMemberIsToldTheListsAreForAdminsButReadsTheStatusPage() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let member = temporary.url.appendingPathComponent("member")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    try await signIn(simulator, "admin", "admin-password", home: home)
    let created = try await serverbee(
      ["users", "create", "bob", "--password", "long-enough"], home: home)
    #expect(created.status == 0, "\(created.stderr)")
    try await signIn(simulator, "bob", "long-enough", home: member)

    let incidents = try await serverbee(["incidents"], home: member)
    #expect(incidents.status != 0 && incidents.stdout.isEmpty)
    #expect(incidents.stderr == "serverbee: only an admin may see or change incidents\n")
    let windows = try await serverbee(["maintenance", "--json"], home: member)
    #expect(windows.stdout.isEmpty)
    #expect(
      windows.stderr == "serverbee: only an admin may see or change maintenance windows\n")
    let page = try await serverbee(["status-page"], home: member)
    #expect(page.status == 0, "\(page.stderr)")
    #expect(page.stdout.hasPrefix("Title:        Server Status\n"))
    let set = try await serverbee(["status-page", "set", "--title", "Mine"], home: member)
    #expect(set.stderr == "serverbee: only an admin may change the status page\n")
  }
}
