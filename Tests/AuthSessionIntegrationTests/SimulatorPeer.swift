import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import ServerBeeURLSessionTransport
import Testing

@testable import AuthSession
@testable import ServerBeeSimulator

/// The client's wire, between `AuthClient` and a real loopback connection: counts requests per
/// path, and can lose a response after the server handled it, or make old login answers look
/// like a v1 server's (no `mobile_session_id`, no `revocation_token`).
actor WireTap: HTTPTransport {
  private let base: any HTTPTransport = URLSessionHTTPTransport(
    configuration: .init(timeout: .seconds(30)))
  private var counts: [String: Int] = [:]
  private var loseNextResponse: Set<String> = []
  private var stripV2Fields = false

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let path = request.url.path
    counts[path, default: 0] += 1
    var response = try await base.send(request)
    if loseNextResponse.remove(path) != nil {
      throw ServerBeeTransportError(.connectionLost, "the response was lost on the way")
    }
    if stripV2Fields, path == "/api/mobile/auth/login", response.status == 200 {
      response.body = Self.strippingV2Fields(response.body)
    }
    return response
  }

  func count(_ path: String) -> Int { counts[path, default: 0] }
  func loseNextResponse(to path: String) { loseNextResponse.insert(path) }
  func answerLoginsLikeAV1Server(_ enabled: Bool = true) { stripV2Fields = enabled }

  private static func strippingV2Fields(_ body: Data) -> Data {
    guard var object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      var data = object["data"] as? [String: Any]
    else { return body }
    data["mobile_session_id"] = nil
    data["revocation_token"] = nil
    object["data"] = data
    return (try? JSONSerialization.data(withJSONObject: object)) ?? body
  }
}

/// A simulator on an ephemeral loopback port with a manual clock, and a client wired to it.
final class SimulatorPeer: Sendable {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)
  let simulator: Simulator
  let serverClock = SimulatorClock(start: SimulatorPeer.start)
  let clientClock = ManualClock(startDate: SimulatorPeer.start)
  let wire = WireTap()
  let baseURL: URL
  let port: UInt16
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("auth-it-\(UUID().uuidString)", isDirectory: true)
    var configuration = Simulator.Configuration(
      dataDirectory: directory.appendingPathComponent("sim"))
    configuration.metricsInterval = nil
    configuration.controlToken = "control-token"
    simulator = try Simulator(configuration: configuration, clock: serverClock)
    baseURL = try simulator.start(port: 0)
    port = UInt16(baseURL.port ?? 0)
  }

  deinit {
    simulator.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  var server: String { baseURL.absoluteString }

  /// A client on its own encrypted store (or the given one) speaking over the wire tap.
  func makeClient(store: (any CredentialStore)? = nil) throws -> AuthClient {
    let clock = clientClock
    let credentialStore =
      try store
      ?? EncryptedSQLiteCredentialStore(directory: directory.appendingPathComponent("client"))
    return AuthClient(
      configuration: .init(deviceName: "Integration phone", refreshesProactively: false),
      store: credentialStore, transport: wire, clock: clock, now: { clock.currentDate },
      randomBytes: { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
      },
      makeUUID: { UUID() })
  }

  /// Moves both the server's and the client's clocks.
  func advance(seconds: Int) {
    serverClock.advance(by: TimeInterval(seconds))
    clientClock.advance(by: .seconds(seconds))
  }

  /// Calls the control API in process.
  @discardableResult
  func control(_ method: HTTPMethod, _ path: String, _ object: [String: Any] = [:]) async throws
    -> JSONValue
  {
    let url = try #require(URL(string: server + "/__simulator" + path))
    let body = try JSONSerialization.data(withJSONObject: object)
    let response = await simulator.handle(
      HTTPRequest(
        method: method, url: url,
        headers: ["x-simulator-token": "control-token", "content-type": "application/json"],
        body: body))
    #expect(response.status == 200, "control \(path): \(response.status)")
    return try WireJSON.decode(JSONValue.self, from: response.body)
  }

  /// The pairing QR text for a user, as the web dialog would show it.
  func pairingQRText(userID: String) async throws -> String {
    try #require(try await control(.post, "/users/\(userID)/pair-code")["qr_text"]?.stringValue)
  }

  /// `GET /api/mobile/auth/devices` with a raw bearer token (no refresh).
  func devicesStatus(bearer: String) async throws -> Int {
    let url = try #require(URL(string: server + "/api/mobile/auth/devices"))
    let response = try await URLSessionHTTPTransport().send(
      HTTPRequest(url: url, headers: ["authorization": "Bearer " + bearer]))
    return response.status
  }

  /// The device list of the signed-in user, through the authorised transport.
  func devices(_ client: AuthClient) async throws -> [MobileDevice] {
    let api = AuthorizedHTTPTransport(wrapping: wire, client: client)
    let url = try #require(URL(string: server + "/api/mobile/auth/devices"))
    let response = try await api.send(HTTPRequest(url: url))
    return try APIResponse<[MobileDevice]>.payload(status: response.status, body: response.body)
  }

  /// The TOTP code the server accepts now.
  func totpCode(secret: String) throws -> String {
    let key = try #require(TOTP.decodeBase32(secret))
    return TOTP.code(secret: key, step: Int64(serverClock.now.timeIntervalSince1970) / 30)
  }
}
