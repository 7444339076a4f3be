import DeepLinkValidation
import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeRelay
import ServerBeeSimulator
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The wire between the client and the simulator, in process: signs with the session's token
/// (like AuthSession's `AuthorizedHTTPTransport`).
struct SignedWire: HTTPTransport {
  let simulator: Simulator
  let session: any SessionContext

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var signed = request
    signed.headers["authorization"] = "Bearer " + (try await session.validAccessToken())
    return await simulator.handle(signed)
  }
}

/// A simulator whose relay is a real `RelayServer` on loopback with a scripted provider, a
/// signed-in device registered for encrypted push, and a tap router on it.
final class TapWorld: Sendable {
  static let server = "http://127.0.0.1:47002"
  let directory: URL
  let simulator: Simulator
  let relay: RelayServer
  let provider = ScriptedPushProvider()
  let session = FakeSessionContext()
  let store = InMemoryCredentialStore()
  let router: TapRouter

  init() async throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("taps-it-\(UUID().uuidString)", isDirectory: true)
    let clock = SimulatorClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let relay = RelayServer(
      provider: provider, clock: RelayClock(now: { Int64(clock.now.timeIntervalSince1970) }))
    self.relay = relay
    let relayURL = try await Task(priority: .high) { try relay.start() }.value
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = nil
    configuration.controlToken = "control-token"
    configuration.relayURL = relayURL.absoluteString
    configuration.outboxWorkers = 0
    configuration.accessTTL = 7200
    simulator = try Simulator(configuration: configuration, clock: clock)
    router = TapRouter(
      session: session, store: store,
      transport: SignedWire(simulator: simulator, session: session), now: { clock.now })
    await router.markReady()
  }

  deinit {
    relay.stop()
    simulator.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  var clock: SimulatorClock { simulator.clock }

  func url(_ path: String) throws -> URL {
    try #require(URL(string: Self.server + path))
  }

  /// Sends a request to the simulator; `bearer` signs it, `control` adds the control token.
  func call(
    _ method: HTTPMethod, _ path: String, _ object: [String: Any]? = nil, bearer: String? = nil,
    control: Bool = false
  ) async throws -> (status: Int, json: JSONValue?) {
    var headers: HTTPHeaders = [:]
    if let bearer { headers["authorization"] = "Bearer " + bearer }
    if control { headers["x-simulator-token"] = "control-token" }
    var body = Data()
    if let object {
      body = try JSONSerialization.data(withJSONObject: object)
      headers["content-type"] = "application/json"
    }
    let response = await simulator.handle(
      HTTPRequest(method: method, url: try url(path), headers: headers, body: body))
    return (response.status, try? WireJSON.decode(JSONValue.self, from: response.body))
  }

  /// A control call under `/__simulator`.
  func control(_ method: HTTPMethod, _ path: String, _ object: [String: Any] = [:]) async throws
    -> JSONValue?
  {
    let answer = try await call(method, "/__simulator" + path, object, control: true)
    try #require(answer.status == 200, "control \(path): \(answer.status)")
    return answer.json
  }

  /// A signed-in login: its identity, token and key.
  struct Login {
    let identity: SessionIdentity
    let access: String
    let key: PushContentKey
  }

  /// Creates the user when needed, logs in (a new login, so a new scope), signs the session in,
  /// stores a new content key and registers it with every push kind on.
  @discardableResult
  func signIn(_ name: String, role: String = "admin", register: Bool = true) async throws -> Login {
    // A second login of the same user finds it already created (a conflict, ignored).
    _ = try? simulator.createUser(username: name, password: "pw", role: role)
    let login = try await call(
      .post, "/api/mobile/auth/login",
      [
        "username": name, "password": "pw", "installation_id": "INST-1",
        "device_name": "Integration device",
      ])
    try #require(login.status == 200)
    let data = try #require(login.json?["data"])
    let access = try #require(data["access_token"]?.stringValue)
    let userID = try #require(data["user"]?["id"]?.stringValue)
    let identity = SessionIdentity(
      loginID: UUID().uuidString.lowercased(), server: try ServerURL(Self.server),
      user: SessionUser(id: userID, username: name, role: role == "admin" ? .admin : .member),
      installationID: "INST-1", mobileSessionID: data["mobile_session_id"]?.stringValue)
    session.signIn(identity, token: access)
    let key = try PushContentKeyGenerator().makeKey(
      deploymentID: identity.server.url.absoluteString, userID: userID,
      installationID: identity.installationID, scope: identity.scope)
    if register {
      try store.setValue(key, forKey: TapRouter.contentKeyName, in: .sharedWithExtension)
      try await registerPush(access: access, key: key)
    }
    return Login(identity: identity, access: access, key: key)
  }

  /// Ends a login on the server (as a logout does), releasing the installation's registration.
  func revoke(_ login: Login) async throws {
    let id = try #require(login.identity.mobileSessionID)
    _ = try await control(.delete, "/mobile-sessions/\(id)")
  }

  private func registerPush(access: String, key: PushContentKey) async throws {
    let current = try await call(.get, "/api/mobile/push/settings", bearer: access)
    try #require(current.status == 200, "settings \(current.status)")
    let revision = current.json?["data"]?["revision"]?.number ?? 0
    let saved = try await call(
      .put, "/api/mobile/push/settings",
      [
        "expected_revision": revision,
        "preferences": [
          "enabled": true, "alerts": true, "security": true, "task_failure": true,
          "task_success": true,
        ],
      ], bearer: access)
    try #require(saved.status == 200, "put settings \(saved.status)")
    let registered = try await call(
      .post, "/api/mobile/push/encrypted-register",
      [
        "expected_revision": saved.json?["data"]?["revision"]?.number ?? revision + 1,
        "device_token": String(repeating: "ab", count: 32), "environment": "sandbox",
        "content_key_id": key.keyID, "content_key": key.key, "deployment_id": key.deploymentID,
      ], bearer: access)
    try #require(registered.status == 200, "register \(registered.status)")
  }

  /// Runs the outbox (the relay answers) and returns the APNs payload of the newest delivery.
  func deliver() async throws -> Data {
    let before = provider.received().count
    _ = try await simulator.runOutbox()
    let received = provider.received()
    try #require(received.count > before, "no push was delivered")
    return try #require(received.last).payload
  }

  /// Buffers the payload as a tap and consumes it.
  func tap(_ payload: Data) async -> TapOutcome? {
    await router.receive(PushTap(apnsPayload: payload))
    return await router.consume()
  }

  func newServer(_ name: String = "vps-a") async throws -> String {
    try #require(try await control(.post, "/servers", ["name": name])?["data"]?["id"]?.stringValue)
  }
}

extension JSONValue {
  /// The number, if this is a number.
  var number: Int64? {
    if case .number(let value) = self { return Int64(value) }
    return nil
  }
}
