import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee account …` and `serverbee audit`, run as built executables against the
/// built simulator, with a mobile session and with an API key alone.
@Suite(.timeLimit(.minutes(5))) struct CommandLineAdministrationTests {
  /// `serverbee login` with a password into `home`; the test fails if it does not sign in.
  private func signIn(
    _ simulator: SimulatorProcess, _ username: String, _ password: String, home: URL,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", username, "--password", password],
      home: home)
    #expect(login.status == 0, "\(login.stderr)", sourceLocation: sourceLocation)
  }

  @Test func anAdminMakesAKeyIntoAPrivateFileAndTheKeyAloneReadsTheAuditLog() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let bot = temporary.url.appendingPathComponent("bot")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    try await signIn(simulator, "admin", "admin-password", home: home)

    let keyFile = temporary.url.appendingPathComponent("grafana.key").path
    let created = try await serverbee(
      ["account", "api-keys", "create", "grafana", "--output", keyFile], home: home)
    #expect(created.status == 0, "\(created.stderr)")
    let key = try String(contentsOfFile: keyFile, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(key.hasPrefix("serverbee_") && key.utf8.count == 53)
    #expect(!created.stdout.contains(key) && !created.stderr.contains(key))
    let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
    // An existing file is never overwritten, and no key is made for it.
    let again = try await serverbee(
      ["account", "api-keys", "create", "second", "--output", keyFile], home: home)
    #expect(again.status != 0)
    #expect(
      again.stderr.hasPrefix(
        "serverbee: \(keyFile) already holds the API key 'grafana' (serverbee_"),
      "\(again.stderr)")
    #expect(!again.stderr.contains(key))

    // A fresh home with no session: the key and --server are enough.
    let audit = try await serverbee(
      ["--server", simulator.url, "audit", "--json"], home: bot,
      environment: ["SERVERBEE_API_KEY": key])
    #expect(audit.status == 0, "\(audit.stderr)")
    #expect(audit.stdout.contains(#""action":"api_key.create","detail":"grafana""#))
    #expect(audit.stdout.contains(#""total":1"#))
    let keys = try await serverbee(
      ["--server", simulator.url, "account", "api-keys"], home: bot,
      environment: ["SERVERBEE_API_KEY": key])
    #expect(keys.status == 0, "\(keys.stderr)")
    #expect(keys.stdout.contains("grafana"))
    #expect(!keys.stdout.contains(key))
    // The read-only data commands run on the key too, the live stream's included.
    for command in [
      ["tasks", "--json"], ["alerts", "--json"], ["alerts", "rules", "--json"],
      ["servers", "--json"],
    ] {
      let run = try await serverbee(
        ["--server", simulator.url] + command, home: bot, environment: ["SERVERBEE_API_KEY": key])
      #expect(run.status == 0, "\(command): \(run.stderr)")
      #expect(run.stdout.hasPrefix("["), "\(command)")
    }
    let watch = try await serverbee(
      ["--server", simulator.url, "watch", "--once", "--json"], home: bot,
      environment: ["SERVERBEE_API_KEY": key])
    #expect(watch.status == 0, "\(watch.stderr)")
    #expect(watch.stdout.hasPrefix("{"))
    let noServer = try await serverbee(
      ["audit"], home: bot, environment: ["SERVERBEE_API_KEY": key])
    #expect(noServer.status == 64)
    #expect(
      noServer.stderr
        == "serverbee: an API key needs --server URL or $SERVERBEE_SERVER (the key's server)\n")
    // SERVERBEE_SERVER stands in for --server in API-key mode; --server still wins.
    for command in [["servers", "--json"], ["audit", "--json"]] {
      let fromEnvironment = try await serverbee(
        command, home: bot,
        environment: ["SERVERBEE_API_KEY": key, "SERVERBEE_SERVER": simulator.url])
      #expect(fromEnvironment.status == 0, "\(command): \(fromEnvironment.stderr)")
      #expect(fromEnvironment.stdout.hasPrefix(command[0] == "servers" ? "[" : "{"), "\(command)")
    }
    let overridden = try await serverbee(
      ["--server", simulator.url, "audit", "--json"], home: bot,
      environment: ["SERVERBEE_API_KEY": key, "SERVERBEE_SERVER": "http://127.0.0.1:9"])
    #expect(overridden.status == 0, "\(overridden.stderr)")
  }

  @Test func aPasswordChangeSaysWhatTheServerRefusedAndThenSucceeds() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    try await signIn(simulator, "admin", "admin-password", home: home)
    let short = try await serverbee(
      ["account", "password", "--old", "admin-password", "--new", "short"], home: home)
    #expect(short.status == 1)
    #expect(short.stderr.contains("Password must be at least 8 characters"))
    let wrong = try await serverbee(
      ["account", "password", "--old", "nope", "--new", "a-longer-pass"], home: home)
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("Current password is incorrect"))
    let changed = try await serverbee(
      ["account", "password", "--old", "admin-password", "--new", "a-longer-pass"], home: home)
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(changed.stdout.hasPrefix("Password changed."))
    // This login still works.
    #expect(try await serverbee(["servers"], home: home).status == 0)
  }

  @Test func anAdminManagesUsersAndAMemberIsToldItMayNot() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let other = temporary.url.appendingPathComponent("other")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    try await signIn(simulator, "admin", "admin-password", home: home)
    let created = try await serverbee(
      ["users", "create", "bob", "--password", "long-enough", "--json"], home: home)
    #expect(created.status == 0, "\(created.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(created.stdout.utf8))
    let id = try #require((document as? [String: Any])?["id"] as? String)
    let promoted = try await serverbee(["users", "set-role", id, "admin"], home: home)
    #expect(promoted.stdout == "Updated bob (admin, id \(id)).\n")
    let demoted = try await serverbee(["users", "set-role", id, "member"], home: home)
    #expect(demoted.status == 0, "\(demoted.stderr)")
    let list = try await serverbee(["users"], home: home)
    #expect(list.stdout.contains("bob") && list.stdout.contains("member"))

    try await signIn(simulator, "bob", "long-enough", home: other)
    let refused = try await serverbee(["users"], home: other)
    #expect(refused.status != 0)
    #expect(refused.stderr == "serverbee: only an admin may manage users\n")

    // Destructive: without a terminal to ask on it refuses and sends nothing, unless --yes.
    let unconfirmed = try await serverbee(["users", "delete", id], home: home)
    #expect(unconfirmed.status == 64)
    #expect(unconfirmed.stdout.isEmpty)
    #expect(
      unconfirmed.stderr
        == "serverbee: 'users delete' asks before it changes anything and there is no terminal "
        + "to ask on: pass --yes to go ahead\n")
    #expect(try await serverbee(["users"], home: home).stdout.contains("bob"))
    // On a terminal it asks; anything but yes changes nothing.
    let executable = try BuiltExecutables.url("serverbee").path
    let (declined, transcript) = try await PseudoTerminal.run(
      "'\(executable)' --home '\(home.path)' users delete \(id)",
      answers: [("with their sessions and API keys? [y/N] ", "n")])
    #expect(declined == 1, "\(transcript)")
    #expect(transcript.contains("serverbee: nothing was changed ('users delete' not confirmed)"))
    #expect(try await serverbee(["users"], home: home).stdout.contains("bob"))

    let deleted = try await serverbee(["users", "delete", id, "--yes"], home: home)
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(!(try await serverbee(["users"], home: home).stdout.contains("bob")))
    let gone = try await serverbee(["users", "delete", id, "--yes"], home: home)
    #expect(gone.stderr == "serverbee: no user '\(id)' (see 'serverbee users')\n")
  }

  @Test func anAdminListsAndTurnsOffAnAlertRule() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    _ = try await simulator.control(
      "POST", "/__simulator/alert-rules", ["id": "rule-1", "name": "High CPU", "rule_type": "cpu"])
    try await signIn(simulator, "admin", "admin-password", home: home)
    let list = try await serverbee(["alerts", "rules"], home: home)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("High CPU") && list.stdout.contains("yes"))
    let refused = try await serverbee(["alerts", "rules", "disable", "rule-1"], home: home)
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("pass --yes"))
    let off = try await serverbee(["alerts", "rules", "disable", "rule-1", "--yes"], home: home)
    #expect(off.stdout == "Alert rule High CPU is disabled (id rule-1).\n")
    let json = try await serverbee(["alerts", "rules", "--json"], home: home)
    #expect(json.stdout.contains(#""enabled":false"#))
    let missing = try await serverbee(["alerts", "rules", "enable", "nope"], home: home)
    #expect(missing.stderr == "serverbee: no alert rule 'nope' (see 'serverbee alerts rules')\n")
  }
}
