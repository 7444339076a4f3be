// `push-pipeline-bench [N]`: encrypted pushes through the whole pipeline, in one
// process over loopback: the simulator admits and seals them (SQLite outbox), its 4 workers
// send them over HTTP to a `serverbee-relay`, whose local-device provider hands each APNs
// payload to a device subscribed over a WebSocket, which decrypts it (Documentation/Performance.md
// §1: ≥ 500 pushes/s, event → device < 50 ms).
//
// Baseline in the same run: the same device fed by `POST /v1/send` straight to the relay (no
// simulator) over the native client (SocketHTTPTransport, kept connections, as the simulator's
// outbox workers use; URLSession's libcurl made this lane slower than the pipeline itself),
// the ceiling the relay → device loop allows in this process. The relay's public
// rate limits (600 requests/min) are raised for the run; with them no server sends more than
// 10 pushes/s to one relay.
import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeRelay
import ServerBeeSimulator
import ServerBeeSocketTransport
import ServerBeeTransport

func runPipelineBenchmark() async throws {
  let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 2000
  let world = try await PipelineWorld.make()
  defer { world.stop() }
  print("push pipeline: \(count) pushes, simulator (4 outbox workers) → relay → 1 device")

  let baseline = try await world.measureThroughput(count: count, label: "baseline") {
    try await world.sendDirect(eventID: $0)
  }
  let pipeline = try await world.measureThroughput(count: count, label: "pipeline") {
    try await world.admitTest(eventID: $0)
  }
  print(
    String(
      format: "throughput: pipeline %.0f pushes/s, baseline (relay only) %.0f pushes/s",
      pipeline, baseline))

  var latencies: [Double] = []
  for _ in 0..<100 {
    let id = UUID().uuidString.lowercased()
    let start = ContinuousClock.now
    try await world.admitTest(eventID: id)
    try await world.device.waitFor(id)
    latencies.append(seconds(ContinuousClock.now - start))
  }
  printLatency("test push admitted → device decrypted", latencies)

  // An alert rule firing (a new cycle each time: fire, then resolve) to the device.
  let server = try world.simulator.createServers(count: 1)[0]
  var fired: [Double] = []
  for round in 0..<50 {
    let before = world.device.count
    let start = ContinuousClock.now
    try await world.control("/__simulator/alerts/fire", ["server_id": server, "rule_id": "bench"])
    await world.device.waitForCount(before + 1)
    fired.append(seconds(ContinuousClock.now - start))
    try await world.control(
      "/__simulator/alerts/resolve", ["server_id": server, "rule_id": "bench"])
    await world.device.waitForCount(before + 2)
    _ = round
  }
  printLatency("alert fired → device decrypted", fired)
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func printLatency(_ label: String, _ samples: [Double]) {
  let sorted = samples.sorted()
  print(
    String(
      format: "latency, %@: median %.2f ms, p90 %.2f ms, max %.2f ms (%d sequential)", label,
      sorted[sorted.count / 2] * 1e3, sorted[sorted.count * 9 / 10] * 1e3,
      (sorted.last ?? 0) * 1e3, sorted.count))
}

/// The simulator, the relay and one subscribed device, wired as a user would.
struct PipelineWorld {
  let simulator: Simulator
  let relay: RelayServer
  let relayURL: URL
  let device: BenchDevice
  let access: String
  let revision: Int64
  let direct = SocketHTTPTransport()

  static func make() async throws -> PipelineWorld {
    var limits = RelayServer.Limits()
    limits.requestsPerClient = .max
    limits.requestsPerRelay = .max
    limits.sendsPerDevice = .max
    limits.maximumInFlight = 64
    let relay = RelayServer(
      configuration: .init(limits: limits), provider: LocalDevicePushProvider())
    let relayURL = try relay.start()
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    configuration.relayURL = relayURL.absoluteString
    configuration.accessTTL = 86_400
    let simulator = try Simulator(configuration: configuration)
    _ = try simulator.createUser(username: "bench", password: "pw", role: "admin")
    let serverURL = try simulator.start()

    let login = try await call(
      simulator, .post, "/api/mobile/auth/login",
      ["username": "bench", "password": "pw", "installation_id": "bench-1", "device_name": "b"])
    guard let access = login["data"]?["access_token"]?.stringValue,
      let userID = login["data"]?["user"]?["id"]?.stringValue
    else { throw BenchError("login failed") }
    let preferences: [String: Any] = [
      "enabled": true, "alerts": true, "security": false, "task_failure": false,
      "task_success": false,
    ]
    _ = try await call(
      simulator, .put, "/api/mobile/push/settings",
      ["expected_revision": 0, "preferences": preferences], bearer: access)
    let key = try PushContentKeyGenerator().makeKey(
      deploymentID: serverURL.absoluteString, userID: userID, installationID: "bench-1",
      scope: "bench")
    let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    let device = try await BenchDevice.subscribe(relay: relayURL, token: token, key: key)
    let registered = try await call(
      simulator, .post, "/api/mobile/push/encrypted-register",
      [
        "expected_revision": 1, "device_token": token, "environment": "sandbox",
        "content_key_id": key.keyID, "content_key": key.key, "deployment_id": key.deploymentID,
      ], bearer: access)
    guard registered["data"]?["registered"] == .bool(true) else {
      throw BenchError("encrypted-register failed")
    }
    return PipelineWorld(
      simulator: simulator, relay: relay, relayURL: relayURL, device: device, access: access,
      revision: 2)
  }

  func stop() {
    simulator.stop()
    relay.stop()
  }

  /// `POST /api/mobile/push/test` as an app sends it. The body is written and the answer
  /// checked as bytes: this client shares the process (and the 2 cores) with the simulator, the
  /// relay and the device, and `JSONSerialization` plus a `JSONValue` decode per push cost it
  /// more than the request itself.
  func admitTest(eventID: String) async throws {
    guard let url = URL(string: "http://127.0.0.1/api/mobile/push/test") else {
      throw BenchError("bad path")
    }
    let body = #"{"event_id":"\#(eventID)","expected_revision":\#(revision)}"#
    let response = await simulator.handle(
      HTTPRequest(
        method: .post, url: url,
        headers: ["Content-Type": "application/json", "Authorization": "Bearer \(access)"],
        body: Data(body.utf8)))
    guard response.status == 200, Self.contains(response.body, Self.pending) else {
      throw BenchError("test push not admitted: \(response.status)")
    }
  }

  private static let pending = Array(#""outcome":"pending""#.utf8)

  /// Whether `needle` occurs in `haystack`.
  private static func contains(_ haystack: Data, _ needle: [UInt8]) -> Bool {
    let bytes = Array(haystack)
    guard bytes.count >= needle.count else { return false }
    return (0...(bytes.count - needle.count)).contains { start in
      bytes[start..<(start + needle.count)].elementsEqual(needle)
    }
  }

  /// A control-API call (the simulator's evaluator stand-in).
  func control(_ path: String, _ object: [String: Any]) async throws {
    guard let url = URL(string: "http://127.0.0.1" + path) else { throw BenchError("bad path") }
    let response = await simulator.handle(
      HTTPRequest(
        method: .post, url: url,
        headers: [
          "Content-Type": "application/json", "X-Simulator-Token": simulator.controlToken,
        ],
        body: try JSONSerialization.data(withJSONObject: object)))
    guard response.status == 200 else { throw BenchError("\(path) answered \(response.status)") }
  }

  /// One relay request as a server would send it, sealed for the same device.
  func sendDirect(eventID: String) async throws {
    let now = Int64(Date().timeIntervalSince1970)
    let content = PushContent(
      kind: .test, deploymentID: device.key.deploymentID, userID: device.key.userID,
      installationID: device.key.installationID, eventID: eventID, createdAt: now,
      expiresAt: now + 1800)
    let envelope = try PushEnvelopeSealer().seal(content, with: device.key)
    let body = try WireJSON.encode(
      RelaySendRequest(
        deviceToken: device.token, environment: .sandbox, eventID: eventID,
        expiresAt: now + 1800, envelope: envelope))
    let response = try await direct.send(
      HTTPRequest(
        method: .post, url: relayURL.appendingPathComponent("v1/send"),
        headers: ["Content-Type": "application/json"], body: body))
    guard response.status == 200 else { throw BenchError("relay answered \(response.status)") }
  }

  /// Sends `count` pushes with `send` (8 at a time) and returns pushes per second from the
  /// first send to the last decrypted arrival.
  func measureThroughput(
    count: Int, label: String, _ send: @escaping @Sendable (String) async throws -> Void
  ) async throws -> Double {
    let ids = (0..<count).map { _ in UUID().uuidString.lowercased() }
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for lane in 0..<8 {
        group.addTask {
          for index in stride(from: lane, to: ids.count, by: 8) { try await send(ids[index]) }
        }
      }
      try await group.waitForAll()
    }
    let sent = ContinuousClock.now
    for id in ids { try await device.waitFor(id) }
    let done = ContinuousClock.now
    let rate = Double(count) / seconds(done - start)
    print(
      String(
        format: "  %@: sent in %.3f s, all %d received and decrypted after %.3f s",
        label, seconds(sent - start), count, seconds(done - start)))
    return rate
  }

  static func call(
    _ simulator: Simulator, _ method: HTTPMethod, _ path: String, _ object: [String: Any],
    bearer: String? = nil
  ) async throws -> JSONValue {
    guard let url = URL(string: "http://127.0.0.1" + path) else { throw BenchError("bad path") }
    var headers: HTTPHeaders = ["Content-Type": "application/json"]
    if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
    let body = try JSONSerialization.data(withJSONObject: object)
    let response = await simulator.handle(
      HTTPRequest(method: method, url: url, headers: headers, body: body))
    return try WireJSON.decode(JSONValue.self, from: response.body)
  }
}

/// A device subscribed to the relay's local-device stream: decrypts every payload and records
/// which event ids arrived.
final class BenchDevice: Sendable {
  let token: String
  let key: PushContentKey
  private let connection: any WebSocketConnection
  private let arrived = Locked(Arrivals())
  private let reader = Locked<Task<Void, Never>?>(nil)

  private struct Arrivals {
    var ids: Set<String> = []
    var count = 0
    var waiters: [String: CheckedContinuation<Void, Never>] = [:]
    var countWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
  }

  /// How many pushes arrived and decrypted so far.
  var count: Int { arrived.withLock { $0.count } }

  /// Waits until at least `target` pushes arrived.
  func waitForCount(_ target: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = arrived.withLock { state -> Bool in
        if state.count >= target { return true }
        state.countWaiters.append((target, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private init(token: String, key: PushContentKey, connection: any WebSocketConnection) {
    self.token = token
    self.key = key
    self.connection = connection
  }

  static func subscribe(relay: URL, token: String, key: PushContentKey) async throws -> BenchDevice
  {
    guard let url = URL(string: "ws://127.0.0.1:\(relay.port ?? 0)/v1/devices/stream") else {
      throw BenchError("bad relay URL")
    }
    let connection = try await SocketWebSocketTransport().connect(
      to: url, headers: ["X-ServerBee-Device-Token": token])
    let device = BenchDevice(token: token, key: key, connection: connection)
    let opener = PushEnvelopeOpener()
    device.reader.withLock {
      $0 = Task {
        do {
          for try await message in connection.inbound {
            guard case .text(let text) = message,
              let opened = try? opener.open(
                apnsPayload: Data(text.utf8), with: key, for: .delivery)
            else { continue }
            device.arrive(opened.content.eventID)
          }
        } catch {}
      }
    }
    return device
  }

  private func arrive(_ id: String) {
    let waiters = arrived.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.ids.insert(id)
      state.count += 1
      let count = state.count
      var ready = state.waiters.removeValue(forKey: id).map { [$0] } ?? []
      ready += state.countWaiters.filter { $0.0 <= count }.map(\.1)
      state.countWaiters.removeAll { $0.0 <= count }
      return ready
    }
    for waiter in waiters { waiter.resume() }
  }

  func waitFor(_ id: String) async throws {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = arrived.withLock { state -> Bool in
        if state.ids.contains(id) { return true }
        state.waiters[id] = continuation
        return false
      }
      if ready { continuation.resume() }
    }
  }
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
