import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeRelay
import ServerBeeRoutes
import ServerBeeSimulator
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// The wire between the client and the simulator, in process: signs with the session's token
/// (like AuthSession's `AuthorizedHTTPTransport`) and can lose a response after the server
/// handled it.
actor InProcessWire: HTTPTransport {
  private let simulator: Simulator
  private let session: any SessionContext
  private var lose: Set<String> = []
  private var counts: [String: Int] = [:]

  init(simulator: Simulator, session: any SessionContext) {
    self.simulator = simulator
    self.session = session
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var signed = request
    signed.headers["authorization"] = "Bearer " + (try await session.validAccessToken())
    counts[request.url.path, default: 0] += 1
    let response = await simulator.handle(signed)
    if lose.remove(request.method.rawValue + " " + request.url.path) != nil {
      throw ServerBeeTransportError(.connectionLost, "the response was lost on the way")
    }
    return response
  }

  func loseNextResponse(_ method: HTTPMethod, _ path: String) {
    lose.insert(method.rawValue + " " + path)
  }

  func count(_ path: String) -> Int { counts[path, default: 0] }
}

/// A simulator whose relay is a real `RelayServer` on loopback with a scripted provider, one
/// signed-in device and a client on it.
final class PushWorld: Sendable {
  static let server = "http://127.0.0.1:47001"
  let directory: URL
  let simulator: Simulator
  let relay: RelayServer
  let provider = ScriptedPushProvider()
  let session = FakeSessionContext()
  let store = InMemoryCredentialStore()
  let authorization = CountingAuthorization()
  let wire: InProcessWire
  let client: NotificationPreferencesClient
  let userID: String

  init(role: String = "admin") async throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("prefs-it-\(UUID().uuidString)", isDirectory: true)
    let clock = SimulatorClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let relayClock = RelayClock(now: { Int64(clock.now.timeIntervalSince1970) })
    let relay = RelayServer(provider: provider, clock: relayClock)
    self.relay = relay
    let relayURL = try await Task(priority: .high) { try relay.start() }.value
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = nil
    configuration.controlToken = "control-token"
    configuration.relayURL = relayURL.absoluteString
    configuration.outboxWorkers = 0
    configuration.accessTTL = 7200
    simulator = try Simulator(configuration: configuration, clock: clock)
    userID = try simulator.createUser(username: "ada", password: "pw", role: role)
    wire = InProcessWire(simulator: simulator, session: session)
    client = NotificationPreferencesClient(
      transport: wire, session: session, store: store, authorization: authorization,
      deviceTokens: LocalRelayDeviceTokenProvider(store: store))
    try await signIn(role: role)
  }

  deinit {
    relay.stop()
    simulator.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Logs in on the simulator (a new login, so a new scope) and signs the fake session in.
  @discardableResult
  func signIn(role: String = "admin") async throws -> SessionIdentity {
    let body = try JSONSerialization.data(withJSONObject: [
      "username": "ada", "password": "pw", "installation_id": "INST-1",
      "device_name": "Integration device",
    ])
    let response = await simulator.handle(
      HTTPRequest(
        method: .post, url: try #require(URL(string: Self.server + "/api/mobile/auth/login")),
        headers: ["content-type": "application/json"], body: body))
    try #require(response.status == 200)
    let data = try #require(try WireJSON.decode(JSONValue.self, from: response.body)["data"])
    let access = try #require(data["access_token"]?.stringValue)
    let identity = SessionIdentity(
      loginID: UUID().uuidString.lowercased(), server: try ServerURL(Self.server),
      user: SessionUser(id: userID, username: "ada", role: role == "admin" ? .admin : .member),
      installationID: "INST-1", mobileSessionID: data["mobile_session_id"]?.stringValue)
    session.signIn(identity, token: access)
    return identity
  }

  /// Changes the user's role on the server.
  func setRole(_ role: String) async throws {
    let body = try JSONSerialization.data(withJSONObject: ["role": role])
    let response = await simulator.handle(
      HTTPRequest(
        method: .patch,
        url: try #require(URL(string: Self.server + "/__simulator/users/" + userID)),
        headers: ["x-simulator-token": "control-token", "content-type": "application/json"],
        body: body))
    #expect(response.status == 200)
  }

  var storedKey: PushContentKey? {
    (try? store.value(
      PushContentKey.self, forKey: .pushContentKey, in: .sharedWithExtension)) ?? nil
  }

  /// The settings as the server stores them now.
  func serverSettings() async throws -> PushSetupResponse {
    let response = try await wire.send(
      HTTPRequest(
        url: try #require(URL(string: Self.server + RouteCatalogue.Push.settings.template.text))))
    return try APIResponse<PushSetupResponse>.payload(status: response.status, body: response.body)
  }

  /// Sends a test push through the server and runs one outbox pass (the relay answers).
  func sendTest(revision: Int64) async throws -> TestPushResponse {
    let eventID = UUID().uuidString.lowercased()
    let api = PushSetupAPI(transport: wire)
    let server = try ServerURL(Self.server)
    let admitted = try await api.sendTest(
      TestPushRequest(eventID: eventID, expectedRevision: revision), server: server)
    #expect(admitted.outcome == .pending)
    _ = try await simulator.runOutbox()
    return try await api.testStatus(eventID: eventID, server: server)
  }
}

/// A permission that starts undetermined, is granted when asked, and counts prompts.
final class CountingAuthorization: PushAuthorization, Sendable {
  private let state = Locked((status: PushPermissionStatus.notDetermined, prompts: 0))

  var prompts: Int { state.withLock { $0.prompts } }

  func status() async -> PushPermissionStatus { state.withLock { $0.status } }

  func requestAuthorization() async -> PushPermissionStatus {
    state.withLock {
      $0.prompts += 1
      $0.status = .authorized
      return $0.status
    }
  }
}
