import AuthSession
import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeTransport
import Testing

@testable import RealtimeStream
@testable import ServerBeeSocketTransport

/// A simulator on a loopback port, an admin signed in through `AuthClient` (real HTTP), and a
/// `MetricsStreamClient` over the native WebSocket transport — the whole live path.
final class LiveFleetHarness: Sendable {
  let directory: URL
  let serverClock: SimulatorClock
  let simulator: Simulator
  let baseURL: URL
  let auth: AuthClient
  let serverIDs: [String]

  /// - Parameters:
  ///   - servers: Seeded servers (claimed, online).
  ///   - clock: The simulator's clock; the wall clock by default.
  /// - Throws: When the simulator does not start or the admin cannot sign in.
  init(servers: Int = 3, clock: SimulatorClock = SimulatorClock(base: { Date() })) async throws {
    serverClock = clock
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("live-it-\(UUID().uuidString)", isDirectory: true)
    simulator = try Self.makeSimulator(directory: directory, clock: serverClock)
    baseURL = try simulator.start(port: 0)
    _ = try simulator.createUser(username: "admin", password: "correct horse", role: "admin")
    serverIDs = try simulator.createServers(count: servers)
    auth = AuthClient(
      configuration: .init(deviceName: "live-it", refreshesProactively: false),
      store: InMemoryCredentialStore(), transport: SocketHTTPTransport())
    let outcome = try await auth.login(
      server: baseURL.absoluteString, username: "admin", password: "correct horse")
    guard case .signedIn = outcome else { throw HarnessError("login did not sign in") }
  }

  deinit {
    simulator.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  static func makeSimulator(directory: URL, clock: SimulatorClock) throws -> Simulator {
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = nil
    configuration.controlToken = "control-token"
    return try Simulator(configuration: configuration, clock: clock)
  }

  /// A stream client with quick retries, so restarts are picked up within a second.
  func makeStream(transport: any WebSocketTransport = SocketWebSocketTransport()) throws
    -> MetricsStreamClient
  {
    var configuration = MetricsStreamClient.Configuration()
    configuration.initialBackoff = 0.05
    configuration.maximumBackoff = 0.2
    return MetricsStreamClient(
      server: try ServerURL(baseURL.absoluteString), tokens: auth, transport: transport,
      configuration: configuration)
  }

  /// Calls an `/api` route in process as the signed-in admin.
  /// - Returns: The status.
  func api(_ method: HTTPMethod, _ path: String, _ object: [String: Any]) async throws -> Int {
    let url = try #require(URL(string: baseURL.absoluteString + path))
    let token = try await auth.validAccessToken()
    let response = await simulator.handle(
      HTTPRequest(
        method: method, url: url,
        headers: ["authorization": "Bearer \(token)", "content-type": "application/json"],
        body: try JSONSerialization.data(withJSONObject: object)))
    return response.status
  }

  /// Calls the control API in process.
  func control(_ path: String, _ object: [String: Any] = [:]) async throws {
    let url = try #require(URL(string: baseURL.absoluteString + "/__simulator" + path))
    let response = await simulator.handle(
      HTTPRequest(
        method: .post, url: url,
        headers: ["x-simulator-token": "control-token", "content-type": "application/json"],
        body: try JSONSerialization.data(withJSONObject: object)))
    #expect(response.status == 200, "control \(path) answered \(response.status)")
  }
}

struct HarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Reads `stream` until an element satisfies `predicate` (the suite's time limit bounds it).
func first<Element>(
  _ iterator: inout AsyncStream<Element>.Iterator, where predicate: (Element) -> Bool
) async -> Element? {
  while let element = await iterator.next() {
    if predicate(element) { return element }
  }
  return nil
}
