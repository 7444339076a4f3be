import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// A fresh relay on an ephemeral loopback port with a scripted provider and a manual clock.
final class RelayHarness: Sendable {
  static let start: Int64 = 1_800_000_000
  let relay: RelayServer
  let provider: ScriptedPushProvider
  let time = Locked<Int64>(RelayHarness.start)
  let logs = Locked<[String]>([])
  let port: UInt16
  let url: URL

  init(
    fallback: (any PushProvider)? = nil,
    configure: (inout RelayServer.Configuration) -> Void = { _ in }
  ) async throws {
    let time = time
    let logs = logs
    let clock = RelayClock(now: { time.withLock { $0 } })
    var configuration = RelayServer.Configuration(controlToken: "control-token")
    configuration.log = { line in logs.withLock { $0.append(line) } }
    // Generous, because the relay's budget runs while this test process's client waits for a
    // thread: on a loaded machine running every suite at once, a keep-alive client may take
    // seconds to send its next request. Tests of the 408 path set their own short budget. The
    // provider's limit likewise: a held provider is released only after the test's next steps,
    // which a loaded machine can stretch past the 10 s default. Timeout tests set their own.
    configuration.uploadTimeout = .seconds(60)
    configuration.providerTimeout = .seconds(60)
    configure(&configuration)
    provider = ScriptedPushProvider(fallback: fallback, clock: clock)
    let relay = RelayServer(configuration: configuration, provider: provider, clock: clock)
    self.relay = relay
    // A high-priority start: the accept loop and connection tasks inherit it, so CPU-bound
    // suites elsewhere do not starve the in-process server while a client waits.
    url = try await Task(priority: .high) { try relay.start() }.value
    port = UInt16(url.port ?? 0)
  }

  deinit { relay.stop() }

  var now: Int64 { time.withLock { $0 } }

  /// Waits (polling, at most `PeerProcess.patience`) until `condition` holds: for states a test
  /// cannot be told about, such as uploads the relay has counted as in flight.
  func waitUntil(_ condition: () -> Bool) async throws {
    if try await !PeerProcess.waitUntil(condition) {
      Issue.record("the relay never reached the expected state")
    }
  }

  /// Starts a `POST /v1/send` of `body` on a fresh connection and sends only its first
  /// `prefix` bytes (a slow upload); the test sends the rest with `client.send(_:)`.
  func startUpload(_ body: [UInt8], prefix: Int = 10) throws -> RelayClient {
    let client = try #require(RelayClient(port: port))
    client.request(
      "POST", "/v1/send", headers: [("Content-Type", "application/json")],
      body: Array(body.prefix(prefix)), contentLength: body.count)
    return client
  }

  func advance(by seconds: Int64) { time.withLock { $0 += seconds } }

  /// Sends one request on a fresh connection and reads the answer.
  func send(
    _ body: [UInt8], method: String = "POST", path: String = "/v1/send",
    headers: [(String, String)] = [("Content-Type", "application/json")]
  ) async -> RelayClient.Response? {
    guard let client = RelayClient(port: port) else { return nil }
    client.request(method, path, headers: headers, body: body)
    return await client.response()
  }

  /// Sends a body built by ``SendBody``.
  func send(_ body: SendBody) async -> RelayClient.Response? {
    await send(body.bytes)
  }

  /// Calls the control API.
  func control(
    _ method: String, _ path: String, body: String = "", token: String? = "control-token"
  ) async -> RelayClient.Response? {
    var headers: [(String, String)] = [("Content-Type", "application/json")]
    if let token { headers.append(("X-Relay-Token", token)) }
    return await send(Array(body.utf8), method: method, path: "/__relay" + path, headers: headers)
  }
}

extension RelayClient.Response {
  /// The verdict body decoded.
  var verdict: RelayVerdict? { try? WireJSON.decode(RelayVerdict.self, from: Data(body)) }

  /// Whether the answer is `status` with this verdict, the exact body and the Protocol/Relay.md
  /// headers.
  func isVerdict(
    _ status: Int, _ outcome: PushOutcome, _ reason: PushDeliveryReason, deviceInvalid: Bool = false
  ) -> Bool {
    self.status == status && headers["content-type"] == "application/json"
      && headers["cache-control"] == "no-store"
      && text == #"{"outcome":"\#(outcome.rawValue)","reason":"\#(reason.rawValue)","#
        + #""device_invalid":\#(deviceInvalid)}"#
  }
}

/// A `POST /v1/send` body as ordered JSON members, valid by default, to break one rule at a time.
struct SendBody: Sendable, CustomStringConvertible {
  static let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
  static let eventID = "0f8e3a52-5c1b-4d8e-9a7f-2b6c4d8e1f30"
  static let keyID = "6b1f9c2e-3d4a-4b5c-8d6e-7f8091a2b3c4"
  static let identity = "40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f"
  static let nonce = Data((1...12).map { UInt8($0) }).base64EncodedString()
  static let ciphertext = Data((0..<48).map { UInt8($0 * 5 % 256) }).base64EncodedString()

  static let placeholder = JSONValue.string("<the envelope>")

  var members: [(key: String, value: JSONValue)]
  var envelope: [(key: String, value: JSONValue)]
  var name = "valid"

  init(
    token: String = SendBody.token, environment: String = "sandbox",
    expiresAt: Int64 = RelayHarness.start + 600
  ) {
    envelope = [
      ("version", .number(1)), ("key_id", .string(Self.keyID)),
      ("identity", .string(Self.identity)), ("nonce", .string(Self.nonce)),
      ("ciphertext", .string(Self.ciphertext)),
    ]
    members = [
      ("device_token", .string(token)), ("environment", .string(environment)),
      ("event_id", .string(Self.eventID)), ("expires_at", .number(Double(expiresAt))),
      ("envelope", Self.placeholder),
    ]
  }

  var description: String { name }

  var bytes: [UInt8] {
    let object = members.map { member -> (key: String, value: JSONValue) in
      member.key == "envelope" && member.value == Self.placeholder
        ? (member.key, .object(envelope)) : member
    }
    return Array((try? WireJSON.encode(JSONValue.object(object))) ?? Data())
  }

  func named(_ name: String) -> SendBody {
    var copy = self
    copy.name = name
    return copy
  }

  func setting(_ key: String, _ value: JSONValue?) -> SendBody {
    var copy = self
    copy.members.removeAll { $0.key == key }
    if let value { copy.members.append((key, value)) }
    return copy.named("\(key) = \(value.map { "\($0)" } ?? "missing")")
  }

  func settingEnvelope(_ key: String, _ value: JSONValue?) -> SendBody {
    var copy = self
    copy.envelope.removeAll { $0.key == key }
    if let value { copy.envelope.append((key, value)) }
    return copy.named("envelope.\(key) = \(value.map { "\($0)" } ?? "missing")")
  }
}

extension PushDeliveryReason {
  // The relay-only reasons of Protocol/Relay.md (ServerBeeRelay keeps its own copies internal).
  static let notFound: Self = "NotFound"
  static let methodNotAllowed: Self = "MethodNotAllowed"
  static let requestTooLarge: Self = "RequestTooLarge"
  static let unsupportedMediaType: Self = "UnsupportedMediaType"
}
