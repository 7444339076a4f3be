import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// A fresh simulator on a temporary directory with a manual clock, driven in process.
///
/// The directory is removed when the harness goes away unless `keepDirectory` is set (restart
/// tests open a second harness on the same directory).
final class Harness: Sendable {
  let simulator: Simulator
  let directory: URL
  let clock: SimulatorClock
  let ip = "10.0.0.1"
  private let keepDirectory: Bool

  init(
    directory: URL? = nil, keepDirectory: Bool = false,
    start: Date = Date(timeIntervalSince1970: 1_800_000_000), clock: SimulatorClock? = nil,
    configure: (inout Simulator.Configuration) -> Void = { _ in }
  ) throws {
    self.keepDirectory = keepDirectory
    let directory =
      directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("sim-test-\(UUID())")
    self.directory = directory
    self.clock = clock ?? SimulatorClock(start: start)
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = nil
    configuration.controlToken = "control-token"
    configure(&configuration)
    simulator = try Simulator(configuration: configuration, clock: self.clock)
  }

  /// Starts the listener from a high-priority task: its accept loop and connection tasks inherit
  /// that priority, so they are not queued behind the CPU-bound tests of other suites on the
  /// small cooperative pool while a raw client waits for an answer with a deadline.
  func listen(port: UInt16 = 0, tls: Simulator.TLSFiles? = nil) async throws -> URL {
    try await Task(priority: .high) { try self.simulator.start(port: port, tls: tls) }.value
  }

  deinit {
    simulator.stop()
    if !keepDirectory { try? FileManager.default.removeItem(at: directory) }
  }

  struct Reply {
    let status: Int
    let body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { try? WireJSON.decode(JSONValue.self, from: body) }
    var data: JSONValue? { json?["data"] }
    var message: String? { json?["error"]?["message"]?.stringValue }
    var code: String? { json?["error"]?["code"]?.stringValue }
  }

  func send(
    _ method: HTTPMethod, _ path: String, json: [String: String?]? = nil, raw: Data? = nil,
    bearer: String? = nil, cookie: String? = nil, apiKey: String? = nil, control: Bool = false,
    ip: String? = nil
  ) async -> Reply {
    var headers: HTTPHeaders = [:]
    if let apiKey { headers["X-API-Key"] = apiKey }
    var body = Data()
    if let json {
      var object: [String: Any] = [:]
      for (key, value) in json { object[key] = value ?? NSNull() }
      body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
      headers["Content-Type"] = "application/json"
    }
    if let raw {
      body = raw
      headers["Content-Type"] = "application/json"
    }
    if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
    if let cookie { headers["Cookie"] = "session_token=\(cookie)" }
    if control { headers["X-Simulator-Token"] = "control-token" }
    guard let url = URL(string: "http://127.0.0.1" + path) else {
      return Reply(status: 0, body: Data())
    }
    let response = await simulator.handle(
      HTTPRequest(method: method, url: url, headers: headers, body: body),
      remoteAddress: ip ?? self.ip)
    return Reply(status: response.status, body: response.body)
  }

  func control(_ method: HTTPMethod, _ path: String, _ object: Any = [String: Any]()) async
    -> JSONValue?
  {
    let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    let reply = await send(method, "/__simulator" + path, raw: body, control: true)
    return reply.json
  }

  @discardableResult
  func user(_ name: String, role: String = "admin", password: String = "pw", totp: String? = nil)
    async -> String
  {
    var object: [String: Any] = ["username": name, "password": password, "role": role]
    if let totp { object["totp_secret"] = totp }
    return await control(.post, "/users", object)?["id"]?.stringValue ?? ""
  }

  struct Tokens {
    let session: String
    let access: String
    let refresh: String
    let revocation: String?
    let userID: String
  }

  func login(
    _ name: String, password: String = "pw", installation: String = "INST-1", totp: String? = nil,
    ip: String? = nil
  ) async -> (Reply, Tokens?) {
    var json: [String: String?] = [
      "username": name, "password": password, "installation_id": installation,
      "device_name": "Test iPhone",
    ]
    if let totp { json["totp_code"] = totp }
    let reply = await send(.post, "/api/mobile/auth/login", json: json, ip: ip)
    return (reply, Self.tokens(reply))
  }

  static func tokens(_ reply: Reply) -> Tokens? {
    guard reply.status == 200, let data = reply.data,
      let access = data["access_token"]?.stringValue,
      let refresh = data["refresh_token"]?.stringValue
    else { return nil }
    return Tokens(
      session: data["mobile_session_id"]?.stringValue ?? "", access: access, refresh: refresh,
      revocation: data["revocation_token"]?.stringValue,
      userID: data["user"]?["id"]?.stringValue ?? "")
  }

  func refresh(_ refresh: String, installation: String = "INST-1", proof: String? = nil) async
    -> Reply
  {
    var json: [String: String?] = ["refresh_token": refresh, "installation_id": installation]
    if let proof { json["revocation_proof"] = proof }
    return await send(.post, "/api/mobile/auth/refresh", json: json)
  }

  func devices(_ access: String) async -> Reply {
    await send(.get, "/api/mobile/auth/devices", bearer: access)
  }

  static func proof(_ byte: UInt8) -> String {
    "sb-revoke-v1."
      + Data(repeating: byte, count: 32).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
