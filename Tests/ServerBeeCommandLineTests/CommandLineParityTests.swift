import Foundation
import ServerBeeTestHarness
import Testing

/// The commands that reach the rest of the SDK, run as built executables against the
/// built simulator: rate limits, IP databases, security statistics, server history, groups,
/// rule states, legacy push, and API-key mode derived from the routes.
@Suite(.timeLimit(.minutes(5))) struct CommandLineParityTests {
  private func signIn(
    _ simulator: SimulatorProcess, _ username: String, _ password: String, home: URL
  ) async throws -> RunResult {
    try await serverbee(
      ["login", "--server", simulator.url, "--username", username, "--password", password],
      home: home)
  }

  private func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  @Test func anAdminResetsTheLoginLimitThatLockedAUserOut() async throws {
    let temporary = try TemporaryDirectory()
    let admin = temporary.url.appendingPathComponent("admin")
    let bob = temporary.url.appendingPathComponent("bob")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    _ = try await simulator.control(
      "POST", "/__simulator/users", ["username": "bob", "password": "bob-password"])
    // The admin's own sign-in counts too: then four wrong passwords fill the 5 per 15 minutes.
    #expect(try await signIn(simulator, "admin", "admin-password", home: admin).status == 0)
    for _ in 0..<4 {
      #expect(try await signIn(simulator, "bob", "wrong-password", home: bob).status == 1)
    }
    let locked = try await signIn(simulator, "bob", "bob-password", home: bob)
    #expect(locked.status == 1)
    #expect(locked.stderr.contains("too many attempts"))

    let state = try await serverbee(["admin", "rate-limits"], home: admin)
    #expect(state.status == 0, "\(state.stderr)")
    #expect(state.stdout.hasPrefix("limits: login 5 and register"))
    let row = try #require(state.stdout.split(separator: "\n").first { $0.hasPrefix("login") })
    #expect(row.contains("127.0.0.1") && row.contains(" yes "))
    let badScope = try await serverbee(
      ["admin", "rate-limits", "reset", "--scope", "sign-in"], home: admin)
    #expect(badScope.status == 64)
    #expect(
      badScope.stderr == "serverbee: --scope takes login, register or public, got 'sign-in'\n")
    let reset = try await serverbee(
      ["admin", "rate-limits", "reset", "--scope", "login", "--ip", "127.0.0.1"], home: admin)
    #expect(reset.stdout == "Cleared 1 rate-limit counter(s) (scope login, address 127.0.0.1).\n")
    #expect(try await signIn(simulator, "bob", "bob-password", home: bob).status == 0)

    // Members are told the limits are the admins'; the database status is anyone's.
    let member = try await serverbee(["admin", "rate-limits"], home: bob)
    #expect(member.stderr == "serverbee: only an admin may see or reset the rate limits\n")
    let geo = try await serverbee(["admin", "geoip"], home: bob)
    #expect(geo.status == 0, "\(geo.stderr)")
    #expect(geo.stdout.contains("installed:  no"))
    let download = try await serverbee(["admin", "asn", "download"], home: admin)
    #expect(download.stdout == "ASN database installed successfully\n", "\(download.stderr)")
    let asn = try await serverbee(["admin", "asn", "--json"], home: admin)
    #expect(asn.stdout.hasPrefix(#"{"installed":true"#))

    // The audit log names its users.
    let audit = try await serverbee(["audit", "--user", "admin"], home: admin)
    #expect(audit.status == 0, "\(audit.stderr)")
    let resetLine = try #require(
      audit.stdout.split(separator: "\n").first { $0.contains("rate_limit.reset") })
    #expect(resetLine.contains("  admin  "))
  }

  @Test func historyGroupsAndRuleStatesAreTablesAndJSON() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 2)
    defer { simulator.terminate() }
    #expect(try await signIn(simulator, "admin", "admin-password", home: home).status == 0)
    let list = try json(try await serverbee(["servers", "--json"], home: home).stdout)
    let servers = try #require(list as? [[String: Any]])
    let first = try #require(servers.first { $0["name"] as? String == "server-1" })
    let id = try #require(first["id"] as? String)
    _ = try await simulator.control("POST", "/__simulator/servers/\(id)/metrics", ["cpu": 42.5])

    let byName = try await serverbee(["servers", "records", "server-1"], home: home)
    #expect(byName.status == 0, "\(byName.stderr)")
    #expect(byName.stdout.hasPrefix("TIME  "))
    #expect(byName.stdout.contains("42.5%"))
    #expect(byName.stdout.contains("record(s) of server-1 from"))
    let byID = try await serverbee(
      ["servers", "records", id, "--range", "7d", "--interval", "raw", "--json"], home: home)
    let rows = try #require(try json(byID.stdout) as? [[String: Any]])
    #expect(rows.contains { $0["cpu"] as? Double == 42.5 })
    let unknown = try await serverbee(["servers", "records", "nope"], home: home)
    #expect(unknown.stderr == "serverbee: no server 'nope' (see 'serverbee servers')\n")
    let both = try await serverbee(
      ["servers", "records", id, "--range", "1h", "--from", "2026-01-01T00:00:00Z"], home: home)
    #expect(both.status == 64)
    let badRange = try await serverbee(["servers", "records", id, "--range", "week"], home: home)
    #expect(badRange.status == 64)

    #expect(try await serverbee(["groups"], home: home).stdout == "No server groups.\n")
    _ = try await simulator.control(
      "POST", "/__simulator/server-groups", ["name": "Frankfurt", "weight": 2])
    let groups = try await serverbee(["groups"], home: home)
    #expect(groups.stdout.hasPrefix("GROUP "))
    #expect(groups.stdout.contains("Frankfurt"))

    _ = try await simulator.control(
      "POST", "/__simulator/alerts/fire",
      ["server_id": id, "rule_id": "rule-1", "rule_name": "High CPU"])
    let states = try await serverbee(["alerts", "rules", "states", "rule-1"], home: home)
    #expect(states.status == 0, "\(states.stderr)")
    let stateRow = try #require(states.stdout.split(separator: "\n").dropFirst().first)
    #expect(stateRow.hasPrefix("server-1  firing"))
    #expect(stateRow.hasSuffix(id))
  }

  @Test func anAPIKeyRunsSecurityCommandsAndAMobileOnlyCommandSaysWhyNot() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let bot = temporary.url.appendingPathComponent("bot")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1)
    defer { simulator.terminate() }
    #expect(try await signIn(simulator, "admin", "admin-password", home: home).status == 0)
    let list = try json(try await serverbee(["servers", "--json"], home: home).stdout)
    let serverID = try #require((list as? [[String: Any]])?.first?["id"] as? String)
    _ = try await simulator.control(
      "POST", "/__simulator/security-events",
      [
        "server_id": serverID, "event_type": "ssh_brute_force", "severity": "high",
        "source_ip": "203.0.113.7",
      ])
    let keyFile = temporary.url.appendingPathComponent("bot.key").path
    let created = try await serverbee(
      ["account", "api-keys", "create", "bot", "--output", keyFile], home: home)
    #expect(created.status == 0, "\(created.stderr)")
    let key = try String(contentsOfFile: keyFile, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let keyed = ["SERVERBEE_API_KEY": key, "SERVERBEE_SERVER": simulator.url]

    // A fresh home without a session: the key alone lists, counts and deletes.
    let events = try await serverbee(["security", "events"], home: bot, environment: keyed)
    #expect(events.status == 0, "\(events.stderr)")
    #expect(events.stdout.contains("ssh_brute_force") && events.stdout.contains("server-1"))
    let filtered = try await serverbee(
      ["security", "events", "--server", serverID, "--json"], home: bot, environment: keyed)
    let eventID = try #require(
      (try json(filtered.stdout) as? [[String: Any]])?.first?["id"] as? String)
    let stats = try await serverbee(
      ["security", "stats", "--by", "source_ip"], home: bot, environment: keyed)
    #expect(stats.stdout == "SOURCE_IP    EVENTS\n203.0.113.7       1\n", "\(stats.stderr)")
    let badGrouping = try await serverbee(
      ["security", "stats", "--by", "planet"], home: bot, environment: keyed)
    #expect(badGrouping.status == 64)
    #expect(
      badGrouping.stderr
        == "serverbee: the server cannot count by 'planet' (try event_type, source_ip or day)\n")
    let unconfirmed = try await serverbee(
      ["security", "delete", eventID], home: bot, environment: keyed)
    #expect(unconfirmed.status == 64)
    let deleted = try await serverbee(
      ["security", "delete", eventID, "--yes"], home: bot, environment: keyed)
    #expect(deleted.stdout == "Deleted security event \(eventID).\n", "\(deleted.stderr)")
    let devices = try await serverbee(["devices"], home: bot, environment: keyed)
    #expect(devices.status == 0, "\(devices.stderr)")
    #expect(!devices.stdout.contains(key) && !devices.stderr.contains(key))

    // Mobile-only: a key given with --api-key is refused before anything is sent …
    let refused = try await serverbee(
      ["--server", simulator.url, "push", "register-legacy", "0f0f", "--api-key", key], home: bot)
    #expect(refused.status == 64)
    #expect(
      refused.stderr
        == "serverbee: 'push register-legacy' needs a mobile session: an API key cannot call "
        + "POST /api/mobile/push/register; sign in with 'serverbee login' or 'serverbee pair'\n")
    // … and one in the environment, with no session to fall back on, is named as the reason.
    let fromEnvironment = try await serverbee(
      ["push", "register-legacy", "0f0f"], home: bot, environment: keyed)
    #expect(fromEnvironment.status == 1)
    #expect(fromEnvironment.stderr.hasPrefix("serverbee: 'push register-legacy' needs a mobile"))
    #expect(!refused.stderr.contains(key) && !fromEnvironment.stderr.contains(key))

    // With the session it registers.
    let registered = try await serverbee(
      ["push", "register-legacy", String(repeating: "ab", count: 32)], home: home)
    #expect(registered.status == 0, "\(registered.stderr)")
    #expect(registered.stdout.hasPrefix("Registered the device token for direct APNs pushes"))
    let notHex = try await serverbee(["push", "register-legacy", "xyz"], home: home)
    #expect(notHex.status == 64)
  }
}
