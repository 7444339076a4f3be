import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// A simulator on an ephemeral loopback port with a seeded world: an admin signed in on a
/// mobile session, a server with a group and metrics. The public routes are sent over loopback
/// (raw HTTP/1.1, as any client would); the control API is called in process.
///
/// Sessions are made from pairing codes (`/__simulator/users/{id}/pair-code`, then
/// `POST /api/mobile/auth/pair`), which counts against no rate limit, so every recipe that ends
/// or changes a session (refresh, revoke, recover, revoking a device, a password change) gets
/// one of its own and the admin's session survives them all.
final class SimulatorWorld: Sendable {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)
  let simulator: Simulator
  let clock = SimulatorClock(start: SimulatorWorld.start)
  let directory: URL
  let port: UInt16

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("wire-fixture-\(UUID().uuidString)", isDirectory: true)
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = nil
    configuration.outboxWorkers = 0
    configuration.controlToken = "control-token"
    simulator = try Simulator(configuration: configuration, clock: clock)
    let url = try simulator.start(port: 0)
    guard let port = url.port.flatMap(UInt16.init(exactly:)) else {
      throw FixtureProblem("no port in \(url)")
    }
    self.port = port
  }

  deinit {
    simulator.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  struct Reply {
    var status: Int
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: OrderedJSON? { try? OrderedJSON.parse(body) }
  }

  /// Sends one request over loopback on a fresh connection.
  func send(
    _ method: String, _ path: String, body: Data? = nil, bearer: String? = nil
  ) async throws -> Reply {
    guard let client = LoopbackClient(port: port) else {
      throw FixtureProblem("cannot connect to 127.0.0.1:\(port)")
    }
    var headers: [(String, String)] = [("Accept", "application/json"), ("Connection", "close")]
    if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
    if body != nil { headers.append(("Content-Type", "application/json")) }
    client.request(method, path, headers: headers, body: Array(body ?? Data()))
    guard let response = await client.response() else {
      throw FixtureProblem("\(method) \(path): no answer")
    }
    return Reply(status: response.status, body: Data(response.body))
  }

  /// Calls the control API in process; the answer's JSON (its `data` when it has one).
  @discardableResult
  func control(_ method: String, _ path: String, _ object: [String: any Sendable] = [:])
    async throws -> OrderedJSON
  {
    guard let url = URL(string: "http://127.0.0.1:\(port)/__simulator\(path)") else {
      throw FixtureProblem("bad control path \(path)")
    }
    let response = await simulator.handle(
      HTTPRequest(
        method: HTTPMethod(rawValue: method), url: url,
        headers: ["x-simulator-token": "control-token", "content-type": "application/json"],
        body: try JSONSerialization.data(withJSONObject: object)))
    let json = try OrderedJSON.parse(response.body)
    guard response.status == 200 else {
      throw FixtureProblem("control \(method) \(path): \(response.status) \(json.text)")
    }
    return json["data"] ?? json
  }

  /// A control answer's string member.
  func controlString(
    _ method: String, _ path: String, _ object: [String: any Sendable] = [:], key: String
  ) async throws -> String {
    let json = try await control(method, path, object)
    guard let value = json[key]?.stringValue else {
      throw FixtureProblem("control \(path): no \(key) in \(json.text)")
    }
    return value
  }

  /// A user made through the control API; its id.
  func user(_ name: String, role: String = "admin", password: String = "password-1") async throws
    -> String
  {
    try await controlString(
      "POST", "/users", ["username": name, "password": password, "role": role], key: "id")
  }

  /// A mobile session's credentials.
  struct Session: Sendable {
    var userID: String
    var installation: String
    var sessionID: String
    var access: String
    var refresh: String
    var revocation: String
  }

  /// A new mobile session of `userID` on `installation`, from a pairing code.
  func session(_ userID: String, installation: String) async throws -> Session {
    let code = try await controlString("POST", "/users/\(userID)/pair-code", key: "code")
    let reply = try await send(
      "POST", "/api/mobile/auth/pair",
      body: json([
        "code": code, "installation_id": installation, "device_name": "Fixture iPhone",
      ]))
    guard reply.status == 200, let data = reply.json?["data"],
      let access = data["access_token"]?.stringValue,
      let refresh = data["refresh_token"]?.stringValue,
      let revocation = data["revocation_token"]?.stringValue,
      let sessionID = data["mobile_session_id"]?.stringValue
    else { throw FixtureProblem("pair on \(installation): \(reply.status) \(reply.text)") }
    return Session(
      userID: userID, installation: installation, sessionID: sessionID, access: access,
      refresh: refresh, revocation: revocation)
  }

  /// A JSON request body.
  func json(_ object: [String: any Sendable]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
  }

  /// The current TOTP code of a base32 secret at the simulator's clock.
  func totp(_ secret: String) throws -> String {
    guard let bytes = TOTP.decodeBase32(secret) else { throw FixtureProblem("bad secret") }
    return TOTP.code(secret: bytes, step: Int64(clock.now.timeIntervalSince1970) / 30)
  }
}

/// The world every recipe starts from.
struct Seed: Sendable {
  let world: SimulatorWorld
  let adminID: String
  let admin: SimulatorWorld.Session
  let serverID: String
  let groupID: String

  static func make() async throws -> Seed {
    let world = try SimulatorWorld()
    let adminID = try await world.user("ada")
    let admin = try await world.session(adminID, installation: "INST-ADMIN")
    let groupID = try await world.controlString(
      "POST", "/server-groups", ["name": "Production", "weight": 5], key: "id")
    let serverID = try await world.controlString(
      "POST", "/servers", ["name": "vps-a", "cpu_cores": 4, "group_id": groupID, "online": true],
      key: "id")
    try await world.control("POST", "/servers/\(serverID)/metrics", ["cpu": 12.5])
    world.clock.advance(by: 60)
    try await world.control("POST", "/servers/\(serverID)/metrics", ["cpu": 50.0])
    return Seed(
      world: world, adminID: adminID, admin: admin, serverID: serverID, groupID: groupID)
  }
}
