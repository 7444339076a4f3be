import Foundation
import ServerBeeRelay
import Testing

/// One end-to-end setting: the `serverbee-simulator` executable whose outbox delivers through a
/// real relay on loopback (its provider records every APNs payload), a temporary directory with
/// a home for `serverbee`, and helpers to run the built `serverbee` in it.
///
/// The simulator is stopped and the relay shut down when the world is released, and everything
/// it writes lives in its own directory, so tests using it run in parallel.
final class CommandLineWorld: Sendable {
  /// The directory holding the homes, the simulator's data and the output files.
  let directory: URL
  /// What the relay hands deliveries to: records them, then answers (accepted by default).
  let provider: ScriptedPushProvider
  /// The relay's base URL.
  let relayURL: URL
  /// The running simulator.
  let simulator: SimulatorProcess
  private let relay: RelayServer

  /// Starts the relay and the simulator.
  /// - Parameters:
  ///   - provider: The relay's provider; a recording one that accepts everything by default.
  ///   - servers: Servers the simulator creates.
  ///   - relayConfiguration: The relay's settings; the public relay's defaults by default.
  /// - Throws: When the relay or the simulator does not start.
  init(
    provider: ScriptedPushProvider = ScriptedPushProvider(), servers: Int = 0,
    relayConfiguration: RelayServer.Configuration = RelayServer.Configuration()
  ) async throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("serverbee-cli-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.provider = provider
    let relay = RelayServer(configuration: relayConfiguration, provider: provider)
    self.relay = relay
    relayURL = try await Task(priority: .high) { try relay.start() }.value
    do {
      simulator = try await SimulatorProcess(
        data: directory.appendingPathComponent("data"), servers: servers,
        extra: ["--relay-url", relayURL.absoluteString])
    } catch {
      relay.stop()
      throw error
    }
  }

  deinit {
    simulator.terminate()
    relay.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// The home directory of one `serverbee` installation in this world.
  func home(_ name: String = "home") -> URL { directory.appendingPathComponent(name) }

  /// Runs `serverbee --home <home> <arguments>` to completion.
  func serverbee(
    _ arguments: [String], home: String = "home", input: URL? = nil, timeout: Double = 60
  ) async throws -> RunResult {
    try await ChildProcess.run(
      try BuiltExecutables.url("serverbee"), ["--home", self.home(home).path] + arguments,
      scratch: directory, timeout: timeout, input: input)
  }

  /// Signs the home in as the simulator's admin.
  func logInAsAdmin(home: String = "home", sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    let login = try await serverbee(
      [
        "login", "--server", simulator.url, "--username", "admin", "--password",
        "admin-password",
      ], home: home)
    #expect(login.status == 0, "\(login.stderr)", sourceLocation: sourceLocation)
  }

  /// Signs in as the admin and enables every push category, so this installation is a
  /// registered device of the relay with a content key in its store.
  func logInWithNotifications(sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await logInAsAdmin(sourceLocation: sourceLocation)
    let enabled = try await serverbee([
      "notifications", "enable", "--yes", "--alerts", "on", "--security", "on", "--task-failure",
      "on",
      "--task-success", "on",
    ])
    #expect(enabled.status == 0, "\(enabled.stderr)", sourceLocation: sourceLocation)
  }

  /// Creates a server through the control API and returns its id.
  func newServer(_ name: String) async throws -> String {
    let answer = try await simulator.control("POST", "/__simulator/servers", ["name": name])
    return try #require((answer["data"] as? [String: Any])?["id"] as? String)
  }

  /// Waits until the relay has received `count` deliveries and returns the last APNs payload.
  func payload(number count: Int) async throws -> Data {
    await provider.waitUntilReceived(count: count)
    return try #require(provider.received().prefix(count).last).payload
  }

  /// Writes data to a file in this world and returns its URL.
  func file(_ name: String, _ data: Data) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }
}

/// Parses `serverbee --json` output.
enum JSONOutput {
  /// The output as a JSON object.
  static func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The output as a JSON array of objects.
  static func array(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
  }
}
