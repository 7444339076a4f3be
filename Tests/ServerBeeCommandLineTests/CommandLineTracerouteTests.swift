import Foundation
import ServerBeeTestHarness
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `serverbee traceroute`, run as the built executable against the built simulator
/// (Protocol/AppRoutes.md §7): a run followed live to its end, the history, deleting one run
/// (with --yes off a terminal) and clearing, and the one-line errors.
@Suite(.timeLimit(.minutes(5))) struct CommandLineTracerouteTests {
  @Test func aTracerouteIsFollowedToItsEndThenListedDeletedAndCleared() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1)
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")

    let run = try await serverbee(
      ["traceroute", "server-1", "example.com", "--protocol", "udp"], home: home)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first?.hasPrefix("traceroute to example.com from server-1 (udp), run ") == true,
      "\(run.stdout)")
    #expect(lines.dropFirst().first?.hasPrefix(" 1  10.0.") == true, "\(run.stdout)")
    #expect(lines.last?.hasPrefix("done: ") == true, "\(run.stdout)")
    let hops = lines.dropFirst().dropLast()
    #expect((6...12).contains(hops.count), "\(run.stdout)")
    #expect(hops.last?.contains("(example.com)") == true, "\(run.stdout)")
    let id = String(try #require(lines.first?.split(separator: " ").last))

    // The server before the sub-command, as the app's screens read.
    let history = try await serverbee(["traceroute", "server-1", "history", "--json"], home: home)
    #expect(history.status == 0, "\(history.stderr)")
    let runs = try #require(
      try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
    #expect(runs.first?["request_id"] as? String == id)
    #expect(runs.first?["hop_count"] as? Int == hops.count)
    let table = try await serverbee(["traceroute", "history", "server-1"], home: home)
    #expect(table.stdout.contains("example.com"), "\(table.stdout)")
    #expect(table.stdout.contains("done"), "\(table.stdout)")

    let asked = try await serverbee(["traceroute", "server-1", "delete", id], home: home)
    #expect(asked.status != 0)
    #expect(asked.stderr.contains("--yes"), "\(asked.stderr)")
    let deleted = try await serverbee(
      ["traceroute", "server-1", "delete", id, "--yes"], home: home)
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout == "Deleted traceroute \(id) of server-1.\n")
    let again = try await serverbee(
      ["traceroute", "server-1", "delete", id, "--yes"], home: home)
    #expect(again.status == 1)
    #expect(
      again.stderr == "serverbee: server-1 has no traceroute '\(id)' (see 'serverbee traceroute "
        + "server-1 history')\n")
    let cleared = try await serverbee(["traceroute", "server-1", "clear", "--yes"], home: home)
    #expect(cleared.stdout == "Deleted 0 traceroute(s) of server-1.\n", "\(cleared.stderr)")

    let invalid = try await serverbee(["traceroute", "server-1", "a;b"], home: home)
    #expect(invalid.status == 1)
    #expect(invalid.stderr.contains("Invalid target"), "\(invalid.stderr)")
    let kind = try await serverbee(
      ["traceroute", "server-1", "example.com", "--protocol", "sctp"], home: home)
    #expect(kind.status == 64)
    #expect(kind.stderr == "serverbee: --protocol takes icmp, udp or tcp, got 'sctp'\n")
  }

  /// A signed-in admin's home, the simulator with one server, and that server's id.
  private func signedIn(_ temporary: borrowing TemporaryDirectory) async throws -> (
    SimulatorProcess, URL, String
  ) {
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1)
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")
    let servers = try await serverbee(["servers", "--json"], home: home)
    let list = try JSONSerialization.jsonObject(with: Data(servers.stdout.utf8)) as? [[String: Any]]
    let id = try #require(list?.first { $0["name"] as? String == "server-1" }?["id"] as? String)
    return (simulator, home, id)
  }

  /// The agent is not connected: the server's 404 becomes one sentence and exit 1, and no run
  /// is left behind.
  @Test func anOfflineAgentCannotTrace() async throws {
    let temporary = try TemporaryDirectory()
    let (simulator, home, server) = try await signedIn(temporary)
    defer { simulator.terminate() }
    _ = try await simulator.control("POST", "/__simulator/servers/\(server)/offline")
    let run = try await serverbee(["traceroute", "server-1", "example.com"], home: home)
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty, "\(run.stdout)")
    #expect(
      run.stderr == "serverbee: the agent of server-1 is not connected, so it cannot trace\n")
    let history = try await serverbee(["traceroute", "server-1", "history", "--json"], home: home)
    #expect(history.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }

  /// The agent stalls (the simulator's control API): the run never finishes, and after the
  /// app's 30 polls 2 s apart the command gives up with a sentence and exit 1; the run is
  /// still listed as running.
  @Test func aRunThatNeverFinishesTimesOutAfterThirtyPolls() async throws {
    let temporary = try TemporaryDirectory()
    let (simulator, home, server) = try await signedIn(temporary)
    defer { simulator.terminate() }
    let stalled = try await simulator.control(
      "POST", "/__simulator/servers/\(server)/traceroute-agent", ["stalled": true])
    #expect(stalled["stalled"] as? Bool == true)
    let began = ContinuousClock.now
    let run = try await serverbee(["traceroute", "server-1", "example.com"], home: home)
    let waited = ContinuousClock.now - began
    #expect(run.status == 1)
    #expect(
      run.stderr == "serverbee: the traceroute did not finish within 30 polls 2 s apart; it may "
        + "still finish ('serverbee traceroute server-1 history')\n", "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 1, "\(run.stdout)")
    #expect(lines.first?.hasPrefix("traceroute to example.com from server-1 (icmp), run ") == true)
    // 30 polls 2 s apart (the first right away).
    #expect(waited >= .seconds(58), "\(waited)")
    let history = try await serverbee(["traceroute", "server-1", "history"], home: home)
    #expect(history.stdout.contains("running"), "\(history.stdout)")
  }

  /// The agent goes away while the command follows a run (stalled first, so the run cannot
  /// finish before): the next poll reads the failure, and the command ends with it and exit 1.
  @Test func anAgentThatGoesAwayMidRunFailsTheRun() async throws {
    let temporary = try TemporaryDirectory()
    let (simulator, home, server) = try await signedIn(temporary)
    defer { simulator.terminate() }
    _ = try await simulator.control(
      "POST", "/__simulator/servers/\(server)/traceroute-agent", ["stalled": true])
    // An API key of another admin, to see the run start without touching the command's home.
    let ops = try await simulator.control(
      "POST", "/__simulator/users", ["username": "ops", "password": "pw", "role": "admin"])
    let opsID = try #require(ops["id"] as? String)
    let key = try #require(
      try await simulator.control("POST", "/__simulator/users/\(opsID)/api-key")["api_key"]
        as? String)
    let history = try #require(URL(string: simulator.url + "/api/servers/\(server)/traceroute"))
    async let run = serverbee(["traceroute", "server-1", "example.com"], home: home)
    var started = false
    for _ in 0..<150 where !started {
      var request = URLRequest(url: history)
      request.setValue(key, forHTTPHeaderField: "X-API-Key")
      let (data, _) = try await URLSession.shared.data(for: request)
      let runs = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["data"]
      started = (runs as? [Any])?.isEmpty == false
      if !started { try await Task.sleep(for: .milliseconds(200)) }
    }
    #expect(started)
    _ = try await simulator.control("POST", "/__simulator/servers/\(server)/offline")
    let result = try await run
    #expect(result.status == 1)
    #expect(
      result.stderr == "serverbee: the traceroute failed after 0 hop(s): agent disconnected\n",
      "\(result.stderr)")
    #expect(result.stdout.hasPrefix("traceroute to example.com from server-1 (icmp), run "))
  }
}
