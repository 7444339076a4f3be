import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee ping-tasks`, run as the built executable against the built simulator
/// (Protocol/Tasks.md §5): create, list, edit, toggle, a refused target, delete with --yes.
@Suite(.timeLimit(.minutes(5))) struct CommandLinePingTaskTests {
  @Test func anAdminCreatesEditsTogglesAndDeletesAPingTask() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")

    let empty = try await serverbee(["ping-tasks"], home: home)
    #expect(empty.status == 0 && empty.stdout == "No ping tasks.\n", "\(empty.stdout)")
    let made = try await serverbee(
      [
        "ping-tasks", "create", "Shop", "--type", "http", "--target",
        "https://shop.example.com/health", "--interval", "30", "--servers", "s1,s2", "--json",
      ], home: home)
    #expect(made.status == 0, "\(made.stderr)")
    let task = try #require(
      try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
    let id = try #require(task["id"] as? String)
    #expect(task["server_ids_json"] as? String == #"["s1","s2"]"#)
    #expect(task["interval"] as? Int == 30 && task["enabled"] as? Bool == true)

    let table = try await serverbee(["ping-tasks"], home: home)
    #expect(table.stdout.contains("Shop") && table.stdout.contains("30 s"), "\(table.stdout)")
    #expect(table.stdout.contains("2 servers") && table.stdout.contains(id))

    let edited = try await serverbee(
      ["ping-tasks", "edit", id, "--interval", "120", "--servers", ""], home: home)
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(
      edited.stdout
        == "Updated ping task Shop: http https://shop.example.com/health every 120 s on every "
        + "capable server, enabled (id \(id)).\n")
    let disabled = try await serverbee(["ping-tasks", "disable", id], home: home)
    #expect(disabled.stdout.hasPrefix("Disabled ping task Shop:"), "\(disabled.stdout)")
    #expect(disabled.stdout.contains("every 120 s") && disabled.stdout.contains(", disabled ("))

    // The server's SSRF guard and the command's own checks, each one line.
    let blocked = try await serverbee(
      ["ping-tasks", "create", "Local", "--type", "icmp", "--target", "127.0.0.1"], home: home)
    #expect(blocked.status == 1)
    #expect(
      blocked.stderr.contains("SSRF guard: target '127.0.0.1' points at a blocked address"),
      "\(blocked.stderr)")
    #expect(blocked.stderr.split(separator: "\n").count == 1)
    let noType = try await serverbee(
      ["ping-tasks", "create", "x", "--target", "example.com"], home: home)
    #expect(noType.status == 64 && noType.stderr.contains("--type is required"))
    let nothing = try await serverbee(["ping-tasks", "edit", id], home: home)
    #expect(nothing.status == 64, "\(nothing.stderr)")

    // Delete needs --yes without a terminal; then the task is gone and a second delete is
    // a sentence that names it.
    let unconfirmed = try await serverbee(["ping-tasks", "delete", id], home: home)
    #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"))
    let deleted = try await serverbee(["ping-tasks", "delete", id, "--yes"], home: home)
    #expect(deleted.status == 0 && deleted.stdout == "Deleted ping task \(id), with its records.\n")
    let again = try await serverbee(["ping-tasks", "delete", id, "--yes"], home: home)
    #expect(again.status == 1)
    #expect(again.stderr.contains("no ping task '\(id)'"), "\(again.stderr)")
    let after = try await serverbee(["ping-tasks"], home: home)
    #expect(after.stdout == "No ping tasks.\n")
  }
}
