import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee servers edit`, `servers tags [set]` and `groups create|rename|weight|delete`, run
/// as built executables against the built simulator (Protocol/Servers.md §4).
@Suite(.timeLimit(.minutes(5))) struct CommandLineServerManagementTests {
  @Test func anAdminEditsAServerItsTagsAndTheGroups() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    _ = try await simulator.control("POST", "/__simulator/servers", ["name": "web-1"])
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")
    func run(_ arguments: [String]) async throws -> RunResult {
      try await serverbee(arguments, home: home)
    }

    // A group, by name; a duplicate name is refused in one sentence.
    let created = try await run(["groups", "create", "Edge", "--json"])
    #expect(created.status == 0, "\(created.stderr)")
    let group = try #require(
      try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])
    let groupID = try #require(group["id"] as? String)
    #expect(group["weight"] as? Int == 0)
    let duplicate = try await run(["groups", "create", "Edge"])
    #expect(duplicate.status != 0)
    #expect(duplicate.stderr.hasPrefix("serverbee: "), "\(duplicate.stderr)")
    #expect(duplicate.stderr.hasSuffix("Group 'Edge' already exists (HTTP 409)\n"))
    #expect(duplicate.stderr.split(separator: "\n").count == 1)

    // Set a name, a group (by name), a price and a pinned country; read them back.
    let edited = try await run([
      "servers", "edit", "web-1", "--name", "web-2", "--group", "edge", "--price", "4.5",
      "--currency", "EUR", "--country", "nl",
    ])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.hasPrefix("Updated web-2 (id "), "\(edited.stdout)")
    #expect(edited.stdout.contains("NL (pinned)") && edited.stdout.contains("4.5 EUR"))
    #expect(edited.stdout.contains("group:          Edge\n"), "\(edited.stdout)")
    // Clear the price and the group; the currency stays.
    let cleared = try await run(["servers", "edit", "web-2", "--no-price", "--no-group", "--json"])
    #expect(cleared.status == 0, "\(cleared.stderr)")
    let server = try #require(
      try JSONSerialization.jsonObject(with: Data(cleared.stdout.utf8)) as? [String: Any])
    #expect(server["price"] is NSNull && server["group_id"] is NSNull)
    #expect(server["currency"] as? String == "EUR" && server["name"] as? String == "web-2")
    let refused = try await run(["servers", "edit", "web-2", "--billing-day", "31"])
    #expect(refused.status != 0)
    #expect(
      refused.stderr.hasSuffix(": billing_start_day must be between 1 and 28 (HTTP 422)\n"),
      "\(refused.stderr)")
    let nothing = try await run(["servers", "edit", "web-2"])
    #expect(nothing.status == 64)
    #expect(
      nothing.stderr
        == "serverbee: give at least one change (see 'serverbee servers edit --help')\n")

    // Tags: replaced, trimmed, deduplicated, sorted; read back.
    let tagged = try await run(["servers", "tags", "set", "web-2", "prod", "eu", "prod"])
    #expect(tagged.status == 0, "\(tagged.stderr)")
    #expect(tagged.stdout == "web-2: eu prod\n")
    let tags = try await run(["servers", "tags", "web-2", "--json"])
    #expect(tags.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"["eu","prod"]"#)

    // Rename and re-weight the group, then delete it without a terminal: --yes is needed.
    let renamed = try await run(["groups", "rename", groupID, "Core"])
    #expect(
      renamed.stdout == "Renamed group Core (weight 0, id \(groupID)).\n", "\(renamed.stderr)")
    let weighed = try await run(["groups", "weight", groupID, "7"])
    #expect(weighed.stdout == "Re-weighted group Core (weight 7, id \(groupID)).\n")
    _ = try await run(["servers", "edit", "web-2", "--group", groupID])
    let unconfirmed = try await run(["groups", "delete", groupID])
    #expect(unconfirmed.status != 0)
    let deleted = try await run(["groups", "delete", groupID, "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout == "Deleted group \(groupID); its servers are in no group now.\n")
    let groups = try await run(["groups", "--json"])
    #expect(groups.status == 0 && !groups.stdout.contains(groupID))
    let after = try await run(["servers", "tags", "web-2"])
    #expect(after.status == 0)
    let detail = try await run(["servers", "edit", "web-2", "--weight", "2", "--json"])
    let final = try #require(
      try JSONSerialization.jsonObject(with: Data(detail.stdout.utf8)) as? [String: Any])
    #expect(final["group_id"] is NSNull && final["weight"] as? Int == 2)
  }
}
