import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee docker`, run as the built executable against the built simulator started with
/// `--docker 1` (Protocol/AppRoutes.md §8): the containers and their stats, an action and its
/// effect, the logs' tail and a follow ended by --duration, and the sentence for a server
/// without Docker.
@Suite(.timeLimit(.minutes(5))) struct CommandLineDockerTests {
  /// A signed-in admin's home and the simulator with two servers, Docker on for `server-1`.
  private func signedIn(_ temporary: borrowing TemporaryDirectory) async throws -> (
    SimulatorProcess, URL
  ) {
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 2, extra: ["--docker", "1"])
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")
    return (simulator, home)
  }

  @Test func containersStatsAndAnActionAreShownAndDone() async throws {
    let temporary = try TemporaryDirectory()
    let (simulator, home) = try await signedIn(temporary)
    defer { simulator.terminate() }
    let ps = try await serverbee(["docker", "server-1"], home: home)
    #expect(ps.status == 0, "\(ps.stderr)")
    let lines = ps.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("NAME ") == true && lines.first?.contains("STATE") == true)
    #expect(lines.dropFirst().first?.hasPrefix("stack-web-1 ") == true, "\(ps.stdout)")
    #expect(ps.stdout.contains("8080→80/tcp"), "\(ps.stdout)")

    let stats = try await serverbee(["docker", "server-1", "stats", "--json"], home: home)
    #expect(stats.status == 0, "\(stats.stderr)")
    let samples = try #require(
      try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [[String: Any]])
    #expect(samples.first?["name"] as? String == "stack-web-1")
    #expect(samples.first?["cpu_percent"] is Double)

    let stop = try await serverbee(
      ["docker", "server-1", "stop", "stack-web-1", "--timeout", "5"], home: home)
    #expect(stop.status == 0, "\(stop.stderr)")
    #expect(stop.stdout == "Stopped stack-web-1 on server-1.\n")
    let after = try await serverbee(["docker", "ps", "server-1", "--json"], home: home)
    let containers = try #require(
      try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
    #expect(
      containers.first { $0["name"] as? String == "/stack-web-1" }?["state"] as? String == "exited")

    let asked = try await serverbee(["docker", "server-1", "remove", "stack-web-1"], home: home)
    #expect(asked.status == 64 && asked.stderr.contains("--yes"), "\(asked.stderr)")
    let unknown = try await serverbee(["docker", "server-1", "start", "nope"], home: home)
    #expect(unknown.status == 1)
    #expect(
      unknown.stderr
        == "serverbee: the agent of server-1 could not start nope: No such container: nope\n")
  }

  @Test func logsPrintTheTailAndFollowUntilTheDuration() async throws {
    let temporary = try TemporaryDirectory()
    let (simulator, home) = try await signedIn(temporary)
    defer { simulator.terminate() }
    let tail = try await serverbee(
      ["docker", "server-1", "logs", "stack-web-1", "--tail", "3"], home: home)
    #expect(tail.status == 0, "\(tail.stderr)")
    let lines = tail.stdout.split(separator: "\n")
    #expect(lines.count == 3, "\(tail.stdout)")
    // The time, a space or `!` for stderr, the text: the web server's access log or its warning.
    #expect(
      lines.allSatisfy {
        $0.hasPrefix("20") && ($0.contains("Z   203.0.113.") || $0.contains("Z ! [warn]"))
      }, "\(tail.stdout)")

    // The simulator's clock follows the wall clock: the web container writes a line every
    // 2 s, so 3 s of following shows the tail and at least one new line.
    let follow = try await serverbee(
      [
        "docker", "server-1", "logs", "stack-web-1", "-f", "--tail", "1", "--duration", "3",
        "--json",
      ], home: home)
    #expect(follow.status == 0, "\(follow.stderr)")
    let entries = follow.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(entries.count >= 2, "\(follow.stdout)")
    #expect(entries.allSatisfy { $0["stream"] is String && $0["message"] is String })

    // The server sends nothing for a container it does not have: the command says so instead
    // of printing nothing (or, with -f, waiting for ever).
    let unknown = try await serverbee(
      ["docker", "server-1", "logs", "stack-nope-1", "-f"], home: home)
    #expect(unknown.status == 1)
    #expect(unknown.stdout.isEmpty)
    #expect(
      unknown.stderr
        == "serverbee: server-1 has no container 'stack-nope-1' (see 'serverbee docker "
        + "server-1')\n")
  }

  @Test func anAgentThatDoesNotAnswerIsSaidSoAfterTheServersWait() async throws {
    // The server waits 16 s for the agent here (30 s on a real one): longer than the command's
    // own 15 s request timeout, which a route that asks the agent outlasts.
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1,
      extra: ["--docker", "1", "--docker-timeout", "16"])
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")
    let listed = try await serverbee(["servers", "--json"], home: home)
    let servers = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    let serverID = try #require(servers.first?["id"] as? String)
    _ = try await simulator.control(
      "POST", "/__simulator/servers/\(serverID)/docker", ["responsive": false])
    let networks = try await serverbee(["docker", "server-1", "networks"], home: home)
    #expect(networks.status == 1)
    #expect(networks.stdout.isEmpty)
    #expect(
      networks.stderr == "serverbee: the agent of server-1 did not answer within 30 seconds\n")
  }

  @Test func aServerWithoutDockerIsOneSentence() async throws {
    let temporary = try TemporaryDirectory()
    let (simulator, home) = try await signedIn(temporary)
    defer { simulator.terminate() }
    let off = try await serverbee(["docker", "server-2"], home: home)
    #expect(off.status == 1)
    #expect(off.stdout.isEmpty)
    #expect(
      off.stderr
        == "serverbee: Docker is turned off for server-2: its agent does not grant the docker "
        + "capability\n")
    let logs = try await serverbee(["docker", "server-2", "logs", "stack-web-1"], home: home)
    #expect(logs.status == 1)
    #expect(
      logs.stderr
        == "serverbee: the logs of server-2 were refused: only an admin may read them, and only "
        + "while its agent grants the docker capability\n")
  }
}
