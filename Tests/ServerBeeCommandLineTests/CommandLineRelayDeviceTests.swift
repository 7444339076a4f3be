import Foundation
import Testing

/// `serverbee` as a local device of the built `serverbee-relay`, with the built
/// `serverbee-simulator` as its server: the relay issues the token at `notifications enable`,
/// a test push is accepted with nobody listening, `push listen` (no `--relay`: the stored one)
/// then prints it, and a listener survives a relay restart.
@Suite(.timeLimit(.minutes(5)))
struct CommandLineRelayDeviceTests {
  /// A fresh directory, a relay and a simulator that delivers to it.
  final class Setting: Sendable {
    let directory: URL
    let relay: RelayProcess
    let simulator: SimulatorProcess

    init() async throws {
      directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("serverbee-relay-cli-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      relay = try await RelayProcess()
      simulator = try await SimulatorProcess(
        data: directory.appendingPathComponent("data"), extra: ["--relay-url", relay.url])
    }

    deinit {
      simulator.terminate()
      relay.terminate()
      try? FileManager.default.removeItem(at: directory)
    }

    func serverbee(
      _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60
    ) async throws -> RunResult {
      try await ChildProcess.run(
        try BuiltExecutables.url("serverbee"),
        ["--home", directory.appendingPathComponent("home").path] + arguments,
        scratch: directory, timeout: timeout, environment: environment)
    }

    func logInAndEnable(relay: String) async throws {
      let login = try await serverbee([
        "login", "--server", simulator.url, "--username", "admin", "--password",
        "admin-password",
      ])
      #expect(login.status == 0, "\(login.stderr)")
      let enabled = try await serverbee(["notifications", "enable", "--yes", "--relay", relay])
      #expect(enabled.status == 0, "\(enabled.stderr)")
      #expect(enabled.stdout.contains("registration: registered"), "\(enabled.stdout)")
    }
  }

  @Test func aTestPushIsAcceptedBeforeAnyListenerAndListenPrintsItAfterwards() async throws {
    let world = try await Setting()
    try await world.logInAndEnable(relay: world.relay.url)
    let devices = try await world.relay.devices()
    #expect(devices.count == 1)
    #expect(devices.first?["online"] as? Bool == false)

    let test = try await world.serverbee(["notifications", "test", "--wait", "--lang", "en"])
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    #expect(try await world.relay.devices().first?["pending_count"] as? Int == 1)

    let listened = try await world.serverbee(
      ["push", "listen", "--count", "1", "--json", "--lang", "en"], timeout: 40)
    #expect(listened.status == 0, "\(listened.stderr)")
    let object = try JSONOutput.object(listened.stdout)
    #expect(object["kind"] as? String == "test")
    #expect(object["title"] as? String == "Test notification")
  }

  @Test func aListenerReconnectsWhenTheRelayRestartsOnTheSamePort() async throws {
    let world = try await Setting()
    try await world.logInAndEnable(relay: world.relay.url)
    let port = world.relay.port
    let listener = Task {
      try await world.serverbee(["push", "listen", "--count", "1", "--lang", "en"], timeout: 90)
    }
    try await world.relay.waitForOnlineDevice()
    await world.relay.stop()
    let restarted = try await RelayProcess(port: port)
    defer { restarted.terminate() }
    // The new relay knows the device once the listener's reconnect subscribed it.
    try await restarted.waitForOnlineDevice()
    let test = try await world.serverbee(["notifications", "test", "--wait", "--lang", "en"])
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")

    let listened = try await listener.value
    #expect(listened.status == 0, "\(listened.stderr)")
    #expect(
      listened.stdout == "Test notification: Your encrypted ServerBee notification is ready.\n")
    #expect(listened.stderr.contains("relay \(world.relay.url) went away ("), "\(listened.stderr)")
    #expect(listened.stderr.contains("; reconnecting in "), "\(listened.stderr)")
  }

  @Test func listenWithoutAStoredOrNamedRelayIsAUsageError() async throws {
    let world = try await Setting()
    let login = try await world.serverbee([
      "login", "--server", world.simulator.url, "--username", "admin", "--password",
      "admin-password",
    ])
    #expect(login.status == 0, "\(login.stderr)")
    let listened = try await world.serverbee(["push", "listen", "--count", "1"])
    #expect(listened.status == 64)
    #expect(listened.stderr.contains("no relay to listen on"), "\(listened.stderr)")
  }

  @Test func theRelayURLCanComeFromTheEnvironmentAndDurationEndsTheListener() async throws {
    let world = try await Setting()
    let login = try await world.serverbee([
      "login", "--server", world.simulator.url, "--username", "admin", "--password",
      "admin-password",
    ])
    #expect(login.status == 0, "\(login.stderr)")
    let enabled = try await world.serverbee(
      ["notifications", "enable", "--yes"], environment: ["SERVERBEE_RELAY": world.relay.url])
    #expect(enabled.status == 0, "\(enabled.stderr)")
    #expect(try await world.relay.devices().count == 1)
    let started = ContinuousClock.now
    let listened = try await world.serverbee(["push", "listen", "--duration", "1"])
    #expect(listened.status == 0, "\(listened.stderr)")
    #expect(listened.stdout.isEmpty)
    #expect(ContinuousClock.now - started < .seconds(30))
    let bad = try await world.serverbee(["push", "listen", "--duration", "soon"])
    #expect(bad.status == 64)
  }
}
