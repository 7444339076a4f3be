import Foundation
import ServerBeeTestHarness
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `serverbee-simulator` as a user starts it: its help and version, a restart with the same
/// `--data`, one simulator per data directory, private files, and the clock across a restart.
@Suite(.timeLimit(.minutes(5))) struct SimulatorExecutableTests {
  @Test func helpAndVersionExitZeroWithoutStarting() async throws {
    let temporary = try TemporaryDirectory()
    let simulator = try BuiltExecutables.url("serverbee-simulator")
    let help = try await ChildProcess.run(simulator, ["--help"], scratch: temporary.url)
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("usage: serverbee-simulator --admin NAME:PASSWORD"))
    #expect(help.stdout.contains("--data DIR"))
    // Every option the parser knows is listed, each with its default (or as required).
    let options = [
      "--admin", "--port", "--data", "--member", "--servers", "--metrics-interval", "--tls-cert",
      "--tls-key", "--relay-url", "--outbox-workers",
    ]
    let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.drop { $0 == " " } }
    for option in options {
      let start = try #require(
        lines.firstIndex { $0.hasPrefix("\(option) ") }, "\(option) is not listed")
      // An option's text runs until the next option line or the blank line after the list.
      let end =
        lines[(start + 1)...].firstIndex { $0.hasPrefix("-") || $0.isEmpty } ?? lines.endIndex
      let text = lines[start..<end].joined(separator: " ")
      #expect(text.contains("default") || text.contains("required"), "\(option): \(text)")
    }
    #expect(help.stdout.contains("-h, --help"))
    #expect(help.stdout.contains("3 when DIR is in use"))
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
    await first.stop(releasingPort: true)

    let second = try await SimulatorProcess(port: port, data: data, servers: 2)
    defer { second.terminate() }
    #expect(second.controlToken == token)
    _ = try await second.control("POST", "/__simulator/tick")  // the old token still works
    #expect(try await serverNames() == ["server-1", "server-2"])
  }

  @Test func numbersThatDoNotParseAreRefusedNotReplacedByDefaults() async throws {
    let temporary = try TemporaryDirectory()
    let simulator = try BuiltExecutables.url("serverbee-simulator")
    for (option, value) in [
      ("--port", "http"), ("--servers", "-1"), ("--metrics-interval", "soon"),
    ] {
      let run = try await ChildProcess.run(
        simulator, ["--admin", "a:b", option, value], scratch: temporary.url, timeout: 120)
      #expect(run.status == 2, "\(option) \(value)")
      #expect(run.stdout.isEmpty)
      #expect(run.stderrLines.count == 1 && run.stderr.contains(option), "\(run.stderr)")
    }
  }

  @Test func aSecondSimulatorOnTheSameDataExitsAtOnceAndTheFirstStillServes() async throws {
    let temporary = try TemporaryDirectory()
    let data = temporary.url.appendingPathComponent("data")
    let first = try await SimulatorProcess(data: data)
    defer { first.terminate() }
    let owner = try String(
      contentsOf: data.appendingPathComponent("simulator.lock"), encoding: .utf8
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    let pid = try #require(Int32(owner), "the lock file names its owner: \(owner)")
    #expect(kill(pid, 0) == 0, "the owner is the running simulator")

    let second = try await ChildProcess.run(
      try BuiltExecutables.url("serverbee-simulator"),
      ["--port", "0", "--data", data.path, "--admin", "admin:admin-password"],
      scratch: temporary.url, timeout: 120)
    #expect(second.status == 3)
    #expect(second.stdout.isEmpty, "no JSON line: it never listened")
    #expect(
      second.stderrLines
        == ["serverbee-simulator: \(data.path) is in use by another simulator (pid \(pid))"])
    _ = try await first.control("POST", "/__simulator/tick")  // the first still serves
    await first.stop()
  }

  @Test func theFilesArePrivateWithDataAndInTheDefaultTemporaryDirectory() async throws {
    let temporary = try TemporaryDirectory()
    func mode(_ url: URL) -> Int? {
      var info = stat()
      guard stat(url.path, &info) == 0 else { return nil }
      return Int(info.st_mode & 0o777)
    }
    func expectPrivate(_ directory: URL, files: [String]) {
      #expect(mode(directory) == 0o700, "\(directory.path)")
      for name in files {
        #expect(mode(directory.appendingPathComponent(name)) == 0o600, "\(name)")
      }
    }
    let database = ["simulator.sqlite", "simulator.sqlite-wal", "simulator.sqlite-shm"]

    let data = temporary.url.appendingPathComponent("data")
    let withData = try await SimulatorProcess(data: data, servers: 1)
    defer { withData.terminate() }
    _ = try await withData.control("POST", "/__simulator/tick")  // a write: WAL and index exist
    expectPrivate(data, files: database + ["control-token", "simulator.lock"])
    await withData.stop()

    // Without --data, a new directory under $TMPDIR.
    let scratch = temporary.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let withoutData = try await SimulatorProcess(
      data: nil, servers: 1, environment: ["TMPDIR": scratch.path])
    defer { withoutData.terminate() }
    _ = try await withoutData.control("POST", "/__simulator/tick")
    let made = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
      .filter { $0.hasPrefix("serverbee-simulator-") }
    try #require(made.count == 1, "\(made)")
    expectPrivate(scratch.appendingPathComponent(made[0]), files: database + ["simulator.lock"])
    await withoutData.stop()
  }

  @Test func anAdvancedClockStaysAdvancedAfterARestart() async throws {
    let temporary = try TemporaryDirectory()
    let data = temporary.url.appendingPathComponent("data")
    func now(_ simulator: SimulatorProcess, advancing seconds: Int) async throws -> Date {
      let answer = try await simulator.control(
        "POST", "/__simulator/clock/advance", ["seconds": seconds])
      let text = try #require(answer["now"] as? String)
      let parser = ISO8601DateFormatter()
      parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
      let plain = ISO8601DateFormatter()
      return try #require(parser.date(from: text) ?? plain.date(from: text), "\(text)")
    }
    let day: TimeInterval = 86_400
    let first = try await SimulatorProcess(data: data)
    defer { first.terminate() }
    let advanced = try await now(first, advancing: Int(day))
    #expect(advanced.timeIntervalSinceNow > day - 60)
    await first.stop()

    let second = try await SimulatorProcess(data: data)
    defer { second.terminate() }
    let restarted = try await now(second, advancing: 0)
    #expect(restarted >= advanced, "the offset was restored")
    #expect(restarted.timeIntervalSinceNow > day - 60)
    #expect(restarted.timeIntervalSinceNow < day + 60, "restored once, not twice")
    await second.stop()
  }
}
