import Foundation
import ServerBeeTestSupport
import Testing

/// `serverbee-simulator` as a user starts it: its help and version, and a restart with the same
/// `--data`.
@Suite(.timeLimit(.minutes(5))) struct SimulatorExecutableTests {
  @Test func helpAndVersionExitZeroWithoutStarting() async throws {
    let temporary = try TemporaryDirectory()
    let simulator = try BuiltExecutables.url("serverbee-simulator")
    let help = try await ChildProcess.run(simulator, ["--help"], scratch: temporary.url)
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("usage: serverbee-simulator --admin NAME:PASSWORD"))
    #expect(help.stdout.contains("--data DIR"))
    let version = try await ChildProcess.run(simulator, ["--version"], scratch: temporary.url)
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("serverbee-simulator "))
    #expect(version.stdout.split(separator: "\n").count == 1)
  }

  @Test func aRestartWithTheSameDataKeepsTheControlTokenAndAddsNoServers() async throws {
    let temporary = try TemporaryDirectory()
    let data = temporary.url.appendingPathComponent("data")
    let home = temporary.url.appendingPathComponent("home")
    func serverNames() async throws -> [String] {
      let result = try await ChildProcess.run(
        try BuiltExecutables.url("serverbee"), ["--home", home.path, "servers", "--json"],
        scratch: temporary.url)
      #expect(result.status == 0, "\(result.stderr)")
      let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
      return ((rows as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }.sorted()
    }
    let first = try await SimulatorProcess(data: data, servers: 2)
    let token = first.controlToken
    let paired = try await ChildProcess.run(
      try BuiltExecutables.url("serverbee"),
      ["--home", home.path, "pair", try await first.pairingPayload()], scratch: temporary.url)
    #expect(paired.status == 0, "\(paired.stderr)")
    #expect(try await serverNames() == ["server-1", "server-2"])
    let port = first.port
    await first.stop()

    let second = try await SimulatorProcess(port: port, data: data, servers: 2)
    defer { second.terminate() }
    #expect(second.controlToken == token)
    _ = try await second.control("POST", "/__simulator/tick")  // the old token still works
    #expect(try await serverNames() == ["server-1", "server-2"])
  }
}
