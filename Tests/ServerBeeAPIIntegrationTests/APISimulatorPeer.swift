import AuthSession
import Foundation
import SecureStore
import ServerBeeAPI
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeTransport
import ServerBeeURLSessionTransport
import Testing

/// A simulator on an ephemeral loopback port, its control API in process, and signed-in API
/// clients over `AuthorizedHTTPTransport`. Each test makes its own.
final class APISimulatorPeer: Sendable {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)
  let simulator: Simulator
  let clock = SimulatorClock(start: APISimulatorPeer.start)
  let wire: any HTTPTransport = URLSessionHTTPTransport(configuration: .init(timeout: .seconds(30)))
  let baseURL: URL
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("api-it-\(UUID().uuidString)", isDirectory: true)
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = nil
    configuration.outboxWorkers = 0
    configuration.controlToken = "control-token"
    simulator = try Simulator(configuration: configuration, clock: clock)
    baseURL = try simulator.start(port: 0)
  }

  deinit {
    simulator.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// A signed-in session: the auth client and an API client over its authorised transport.
  struct Session {
    let auth: AuthClient
    let identity: SessionIdentity
    let api: ServerBeeAPIClient
  }

  /// Signs in (creating the user first when `create` is set) on a fresh in-memory store.
  func signIn(
    _ username: String, role: String = "admin", create: Bool = true, device: String = "Phone"
  ) async throws -> Session {
    if create { try simulator.createUser(username: username, password: "pw", role: role) }
    let auth = AuthClient(
      configuration: .init(deviceName: device, refreshesProactively: false),
      store: InMemoryCredentialStore(), transport: wire)
    let outcome = try await auth.login(
      server: baseURL.absoluteString, username: username, password: "pw")
    guard case .signedIn(let identity) = outcome else {
      throw SignInFailed(outcome: "\(outcome)")
    }
    let api = ServerBeeAPIClient(
      server: identity.server, transport: AuthorizedHTTPTransport(wrapping: wire, client: auth))
    return Session(auth: auth, identity: identity, api: api)
  }

  struct SignInFailed: Error { var outcome: String }

  /// Calls the control API in process and returns the answer's JSON.
  @discardableResult
  func control(_ method: HTTPMethod, _ path: String, _ object: [String: Any] = [:]) async throws
    -> JSONValue
  {
    let url = try #require(URL(string: baseURL.absoluteString + "/__simulator" + path))
    let body = try JSONSerialization.data(withJSONObject: object)
    let response = await simulator.handle(
      HTTPRequest(
        method: method, url: url,
        headers: ["x-simulator-token": "control-token", "content-type": "application/json"],
        body: body))
    #expect(response.status == 200, "control \(path): \(response.status)")
    return try WireJSON.decode(JSONValue.self, from: response.body)
  }

  /// Creates a server through the control API and returns its id.
  func createServer(_ object: [String: Any]) async throws -> String {
    try #require(try await control(.post, "/servers", object)["data"]?["id"]?.stringValue)
  }

  /// Moves the simulator's clock.
  func advance(seconds: Double) { clock.advance(by: seconds) }
}

/// The code of the `ServerBeeAPIError` an operation throws, or `nil` if it throws none.
func apiErrorCode(_ operation: () async throws -> Void) async -> ServerBeeAPIError.Code? {
  do {
    try await operation()
    return nil
  } catch let error as ServerBeeAPIError {
    return error.code
  } catch {
    Issue.record("not a ServerBeeAPIError: \(type(of: error))")
    return nil
  }
}
