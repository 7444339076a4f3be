import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeSimulator
import ServerBeeTransport

/// The embedded simulator of `serverbee demo`, seeded through its control API: an admin, a
/// dozen servers with live metrics (two offline), firing and resolved alerts — and an embedded
/// `serverbee-relay` (local devices) that the simulator's outbox delivers pushes to over HTTP.
struct DemoWorld: Sendable {
  /// The running simulator.
  let simulator: Simulator
  /// The running push relay; devices of this machine subscribe to `/v1/devices/stream`.
  let relay: RelayServer
  /// Its base URL, `http://127.0.0.1:<port>`, the simulator's `[push_relay].url`.
  let relayURL: URL
  /// Its base URL, `http://127.0.0.1:<port>`.
  let url: URL
  /// The admin's user id.
  let adminID: String
  /// The admin's password (random; never printed).
  let adminPassword: String
  /// The ids of ``fleet``'s servers, in the same order.
  var serverIDs: [String] = []

  /// The demo fleet: name, region, country code, OS.
  static let fleet: [(String, String, String, String)] = [
    ("web-fra-1", "Frankfurt", "DE", "Debian GNU/Linux 12"),
    ("web-fra-2", "Frankfurt", "DE", "Debian GNU/Linux 12"),
    ("web-iad-1", "Virginia", "US", "Ubuntu 24.04 LTS"),
    ("web-sin-1", "Singapore", "SG", "Ubuntu 24.04 LTS"),
    ("api-fra-1", "Frankfurt", "DE", "Debian GNU/Linux 12"),
    ("api-iad-1", "Virginia", "US", "Ubuntu 24.04 LTS"),
    ("db-primary", "Frankfurt", "DE", "Debian GNU/Linux 12"),
    ("db-replica", "Amsterdam", "NL", "Debian GNU/Linux 12"),
    ("cache-1", "Amsterdam", "NL", "Alpine Linux 3.20"),
    ("ci-runner", "Tokyo", "JP", "Ubuntu 22.04 LTS"),
    ("backup-nas", "Zurich", "CH", "TrueNAS SCALE 24.10"),
    ("edge-syd-1", "Sydney", "AU", "Alpine Linux 3.20"),
  ]

  /// Starts a simulator with its data in `directory`, seeded for the demo.
  /// - Throws: ``CommandLineError`` with `.localFailure` when it cannot start or be seeded.
  static func start(dataDirectory directory: URL) async throws -> DemoWorld {
    // The relay reads the simulator's clock, so pushes sent after a clock advance are not
    // refused as expiring too far ahead of the relay's own now.
    let simulatorClock = SimulatorClock()
    let relayClock = RelayClock(now: {
      Int64(simulatorClock.now.timeIntervalSince1970.rounded(.down))
    })
    let relay = RelayServer(
      provider: LocalDevicePushProvider(clock: relayClock), clock: relayClock)
    let relayURL: URL
    do {
      relayURL = try relay.start(port: 0)
    } catch {
      throw CommandLineError(.localFailure, "the embedded push relay did not start: \(error)")
    }
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = 1
    configuration.relayURL = relayURL.absoluteString
    let simulator: Simulator
    let url: URL
    let adminID: String
    let password = UUID().uuidString  // never printed
    do {
      simulator = try Simulator(configuration: configuration, clock: simulatorClock)
      adminID = try simulator.createUser(username: "admin", password: password, role: "admin")
      url = try simulator.start(port: 0)
    } catch {
      relay.stop()
      throw error
    }
    var world = DemoWorld(
      simulator: simulator, relay: relay, relayURL: relayURL, url: url, adminID: adminID,
      adminPassword: password)
    do {
      world.serverIDs = try await world.seed()
    } catch {
      world.stop()
      throw error
    }
    return world
  }

  private func seed() async throws -> [String] {
    var ids: [String] = []
    for (name, region, country, os) in Self.fleet {
      let answer = try await control(
        "POST", "/__simulator/servers",
        ["name": name, "region": region, "country_code": country, "os": os])
      guard let id = answer["data"]?["id"]?.stringValue else {
        throw CommandLineError(.localFailure, "the simulator did not create \(name)")
      }
      ids.append(id)
    }
    for index in [9, 10] {
      _ = try await control("POST", "/__simulator/servers/\(ids[index])/offline", [:])
    }
    try simulator.tick()
    for (index, rule) in [(6, "High CPU"), (3, "High CPU"), (7, "Replication lag")] {
      _ = try await control(
        "POST", "/__simulator/alerts/fire", ["server_id": ids[index], "rule_name": rule])
    }
    for (index, rule) in [(0, "Disk almost full"), (8, "Memory pressure")] {
      let fired = try await control(
        "POST", "/__simulator/alerts/fire", ["server_id": ids[index], "rule_name": rule])
      guard let ruleID = fired["rule_id"]?.stringValue else { continue }
      _ = try await control(
        "POST", "/__simulator/alerts/resolve", ["rule_id": ruleID, "server_id": ids[index]])
    }
    return ids
  }

  /// The id of the fleet's server with that name.
  func serverID(named name: String) throws -> String {
    guard let index = Self.fleet.firstIndex(where: { $0.0 == name }),
      serverIDs.indices.contains(index)
    else { throw CommandLineError(.localFailure, "the demo fleet has no server \(name)") }
    return serverIDs[index]
  }

  /// Fires an alert rule on a server (the rule is created on first use).
  /// - Returns: The rule id, for ``resolveAlert(ruleID:server:)``.
  func fireAlert(_ rule: String, on server: String) async throws -> String {
    let fired = try await control(
      "POST", "/__simulator/alerts/fire",
      ["server_id": try serverID(named: server), "rule_name": rule])
    guard let ruleID = fired["rule_id"]?.stringValue else {
      throw CommandLineError(.localFailure, "the simulator did not fire \(rule)")
    }
    return ruleID
  }

  /// Resolves a firing alert.
  func resolveAlert(ruleID: String, server: String) async throws {
    _ = try await control(
      "POST", "/__simulator/alerts/resolve",
      ["rule_id": ruleID, "server_id": try serverID(named: server)])
  }

  /// Runs a scheduled task of the admin on `servers` once; the targets in `failing` exit 1.
  func runTask(_ name: String, on servers: [String], failing: Set<String>) async throws {
    let ids = try servers.map(serverID(named:))
    let task = try await control(
      "POST", "/__simulator/tasks",
      .object([
        (key: "name", value: .string(name)), (key: "command", value: .string("apt-get -y upgrade")),
        (key: "task_type", value: .string("scheduled")),
        (key: "created_by", value: .string(adminID)),
        (key: "server_ids", value: .array(ids.map(JSONValue.string))),
      ]))
    guard let taskID = task["data"]?["id"]?.stringValue else {
      throw CommandLineError(.localFailure, "the simulator did not create the task \(name)")
    }
    let outcomes: [JSONValue] = zip(servers, ids).map { name, id in
      .object([
        (key: "server_id", value: .string(id)),
        (key: "exit_code", value: .number(failing.contains(name) ? 1 : 0)),
      ])
    }
    _ = try await control(
      "POST", "/__simulator/tasks/\(taskID)/runs",
      .object([(key: "outcomes", value: .array(outcomes))]))
  }

  /// An SSH login from a new IP address on `server`, watched by a security rule (created here).
  func raiseSecurityEvent(on server: String) async throws {
    _ = try await control(
      "POST", "/__simulator/alert-rules",
      ["name": "SSH login from a new IP", "rule_type": "ssh_new_ip_login"])
    _ = try await control(
      "POST", "/__simulator/security-events",
      .object([
        (key: "server_id", value: .string(try serverID(named: server))),
        (key: "event_type", value: .string("ssh_login")),
        (key: "username", value: .string("deploy")),
        (key: "source_ip", value: .string("198.51.100.23")),
        (key: "first_seen", value: .bool(true)),
      ]))
  }

  /// Generates a pairing code as the web app does for the admin.
  /// - Returns: The QR payload text.
  func pairingPayload() async throws -> String {
    let answer = try await control("POST", "/__simulator/users/\(adminID)/pair-code", [:])
    guard let text = answer["qr_text"]?.stringValue else {
      throw CommandLineError(.localFailure, "the simulator gave no pairing code")
    }
    return text
  }

  /// An API key of the admin, to look at the account from outside the signed-in session.
  func apiKey() async throws -> String {
    let answer = try await control("POST", "/__simulator/users/\(adminID)/api-key", [:])
    guard let key = answer["api_key"]?.stringValue else {
      throw CommandLineError(.localFailure, "the simulator gave no API key")
    }
    return key
  }

  /// Stops the simulator and the relay.
  func stop() {
    simulator.stop()
    relay.stop()
  }

  /// Calls the control API in process with a body of strings.
  private func control(_ method: String, _ path: String, _ body: [String: String]) async throws
    -> JSONValue
  {
    try await control(
      method, path,
      .object(body.sorted { $0.key < $1.key }.map { (key: $0.key, value: .string($0.value)) }))
  }

  /// Calls the control API in process.
  private func control(_ method: String, _ path: String, _ body: JSONValue) async throws
    -> JSONValue
  {
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: method), url: url.appendingPathComponent(path),
      headers: ["x-simulator-token": simulator.controlToken, "content-type": "application/json"],
      body: try WireJSON.encode(body))
    let response = await simulator.handle(request)
    guard (200..<300).contains(response.status) else {
      throw CommandLineError(
        .localFailure, "the simulator refused \(method) \(path) (HTTP \(response.status))")
    }
    if response.body.isEmpty { return .null }
    return try WireJSON.decode(JSONValue.self, from: response.body)
  }
}
