import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee firewall` and `security event ID --block`, run as the built executable against the
/// built simulator (Protocol/Firewall.md): pages that cross `+00:00` cursors give every entry
/// once with `--all`, the server's refusals as one-line sentences, the counts, and unblocking.
@Suite(.timeLimit(.minutes(5))) struct CommandLineFirewallTests {
  @Test func allPagesGiveEveryEntryOnceAndAnEventsSourceIsBlocked() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")
    let empty = try await serverbee(["firewall"], home: home)
    #expect(empty.status == 0 && empty.stdout == "Nothing is blocked.\n", "\(empty.stdout)")

    // Five entries a second apart, newest first 203.0.113.1…5; every cursor is a `+00:00`
    // time with a fraction.
    for index in 1...5 {
      _ = try await simulator.control(
        "POST", "/__simulator/firewall/blocks",
        [
          "target": "203.0.113.\(index)", "origin": index == 2 ? "manual" : "auto",
          "created_at": "2026-12-01T10:00:0\(6 - index).250Z",
        ])
    }
    let onePage = try await serverbee(["firewall", "--page-size", "2"], home: home)
    #expect(onePage.status == 0, "\(onePage.stderr)")
    #expect(onePage.stdout.contains("203.0.113.2/32") && !onePage.stdout.contains("203.0.113.3/32"))
    #expect(onePage.stdout.hasSuffix("More entries are older: add --all to list every one.\n"))

    let all = try await serverbee(["firewall", "--all", "--page-size", "2", "--json"], home: home)
    #expect(all.status == 0, "\(all.stderr)")
    let targets = try JSONOutput.array(all.stdout).compactMap { $0["target"] as? String }
    #expect(targets == (1...5).map { "203.0.113.\($0)/32" })
    let auto = try await serverbee(
      ["firewall", "--all", "--page-size", "1", "--origin", "auto", "--json"], home: home)
    #expect(
      try JSONOutput.array(auto.stdout).compactMap { $0["target"] as? String }
        == ["203.0.113.1/32", "203.0.113.3/32", "203.0.113.4/32", "203.0.113.5/32"])
    let table = try await serverbee(["firewall", "--all"], home: home)
    #expect(table.stdout.contains("203.0.113.5/32") && !table.stdout.contains("More entries"))

    // Blocking: canonical, then the server's refusals, each one sentence.
    let made = try await serverbee(
      ["firewall", "block", "198.51.100.77/24", "--comment", "botnet", "--json"], home: home)
    #expect(made.status == 0, "\(made.stderr)")
    let entry = try JSONOutput.object(made.stdout)
    #expect(
      entry["target"] as? String == "198.51.100.0/24" && entry["origin"] as? String == "manual")
    let twice = try await serverbee(["firewall", "block", "198.51.100.1/24"], home: home)
    #expect(twice.status == 1)
    #expect(
      twice.stderr == "serverbee: 198.51.100.0/24 is blocked already (see 'serverbee firewall')\n",
      "\(twice.stderr)")
    let guarded = try await serverbee(["firewall", "block", "10.0.0.1"], home: home)
    #expect(guarded.status == 1 && guarded.stderr.contains("the server never blocks 10.0.0.0/8"))
    #expect(guarded.stderr.split(separator: "\n").count == 1)
    let unreadable = try await serverbee(["firewall", "block", "10.0.0.300"], home: home)
    #expect(unreadable.status == 64, "\(unreadable.stderr)")
    #expect(unreadable.stderr.contains("'10.0.0.300' is not an IP address or a CIDR network"))
    let scoped = try await serverbee(
      ["firewall", "block", "192.0.2.0/24", "--server", "s1,s2"], home: home)
    #expect(scoped.stdout.hasPrefix("Blocked 192.0.2.0/24 only on 2 servers (id "), "\(scoped)")
    let coverless = try await serverbee(
      ["firewall", "block", "192.0.2.9", "--cover", "exclude"], home: home)
    #expect(coverless.status == 64 && coverless.stderr.contains("needs the servers"))

    // The app's "Block IP" from a security event's detail.
    let server = try await simulator.control(
      "POST", "/__simulator/servers", ["name": "bastion"])
    let serverID = try #require((server["data"] as? [String: Any])?["id"] as? String)
    let event = try await simulator.control(
      "POST", "/__simulator/security-events",
      ["server_id": serverID, "event_type": "ssh_brute_force", "source_ip": "198.18.7.9"])
    let eventID = try #require((event["data"] as? [String: Any])?["id"] as? String)
    let blocked = try await serverbee(["security", "event", eventID, "--block"], home: home)
    #expect(blocked.status == 0, "\(blocked.stderr)")
    #expect(blocked.stdout.contains("ssh_brute_force"), "\(blocked.stdout)")
    #expect(blocked.stdout.contains("Blocked 198.18.7.9/32 on every server (id "))
    let listed = try JSONOutput.array(
      try await serverbee(["firewall", "--all", "--origin", "manual", "--json"], home: home).stdout)
    #expect(listed.first?["comment"] as? String == "Blocked from security event \(eventID)")
    let again = try await serverbee(["security", "event", eventID, "--block"], home: home)
    #expect(again.status == 1 && again.stderr.contains("198.18.7.9/32 is blocked already"))

    let stats = try JSONOutput.object(
      try await serverbee(["firewall", "stats", "--json"], home: home).stdout)
    #expect(stats["total"] as? Int == 8 && stats["auto"] as? Int == 4)
    #expect(stats["manual"] as? Int == 4 && stats["v6"] as? Int == 0)
    let statsTable = try await serverbee(["firewall", "stats"], home: home)
    #expect(statsTable.stdout.contains("by security rules:"), "\(statsTable.stdout)")

    // Unblocking asks first; without a terminal it needs --yes.
    let id = try #require(entry["id"] as? String)
    let unconfirmed = try await serverbee(["firewall", "unblock", id], home: home)
    #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"))
    let removed = try await serverbee(["firewall", "unblock", id, "--yes"], home: home)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout == "Removed blocklist entry \(id); the agents unblock it.\n")
    let gone = try await serverbee(["firewall", "unblock", id, "--yes"], home: home)
    #expect(gone.status == 1 && gone.stderr.contains("there is no blocklist entry '\(id)'"))
  }
}
