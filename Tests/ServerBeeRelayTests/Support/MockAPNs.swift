import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// The mock APNs of `Tests/Peers/apns_peer.py` (Python `h2` over TLS with a test CA), with a
/// fresh P-256 signing key whose public half the mock checks every JWT against.
final class MockAPNs: Sendable {
  static let team = "TEAM123456"
  static let keyID = "KEY1234567"
  let pki: TestPKI
  let directory: TemporaryDirectory
  let keyPEM: String
  let publicKey: URL
  let process: PeerProcess
  let port: UInt16
  let log: URL

  /// Starts the mock.
  /// - Parameters:
  ///   - tokens: The answer per device token (`{"status":…,"reason":…,"delay":…}`).
  ///   - arguments: More mock options (`--drop-after N`, `--max-streams N`,
  ///     `--unanswered-pings`).
  /// - Returns: The running mock, its port read.
  /// - Throws: `PeerError` when openssl, python3, `h2` or `cryptography` is missing.
  static func start(
    tokens: [String: [String: Any]] = [:], arguments: [String] = []
  ) async throws -> MockAPNs {
    let pki = try await TestPKI()
    let directory = try TemporaryDirectory()
    let key = directory.url.appendingPathComponent("AuthKey.p8")
    let publicKey = directory.url.appendingPathComponent("public.pem")
    try await TestPKI.openssl([
      "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path,
    ])
    try await TestPKI.openssl(["pkey", "-in", key.path, "-pubout", "-out", publicKey.path])
    let script = directory.url.appendingPathComponent("script.json")
    try JSONSerialization.data(withJSONObject: ["tokens": tokens, "default": ["status": 200]])
      .write(to: script)
    let log = directory.url.appendingPathComponent("log.jsonl")
    let process = try await PeerProcess.pythonHTTP2(
      "apns_peer.py",
      [
        "--cert", pki.leafCertificate.path, "--key", pki.leafKey.path, "--public-key",
        publicKey.path, "--team", team, "--key-id", keyID, "--topic", "app.serverbee",
        "--script", script.path, "--log", log.path,
      ] + arguments)
    let port = try await process.port()
    return MockAPNs(
      pki: pki, directory: directory, keyPEM: try String(contentsOf: key, encoding: .utf8),
      publicKey: publicKey, process: process, port: port, log: log)
  }

  init(
    pki: TestPKI, directory: consuming TemporaryDirectory, keyPEM: String, publicKey: URL,
    process: PeerProcess, port: UInt16, log: URL
  ) {
    self.pki = pki
    self.directory = directory
    self.keyPEM = keyPEM
    self.publicKey = publicKey
    self.process = process
    self.port = port
    self.log = log
  }

  /// A provider whose sandbox endpoint is this mock.
  func provider(
    host: String = "localhost", trustingCA: Bool = true, clock: RelayClock = .system,
    sendTimeout: Duration = .seconds(60), idlePingInterval: Duration? = .seconds(60),
    pingTimeout: Duration = .seconds(10), logs: Locked<[String]>? = nil
  ) throws -> APNsPushProvider {
    let key = try APNsSigningKey(pem: keyPEM, keyID: Self.keyID, teamID: Self.team)
    let endpoint = try #require(URL(string: "https://\(host):\(port)"))
    var log: (@Sendable (String) -> Void)?
    if let logs {
      log = { line in logs.withLock { $0.append(line) } }
    }
    let configuration = APNsPushProvider.Configuration(
      signingKey: key, endpoints: [.sandbox: endpoint],
      additionalCAFile: trustingCA ? pki.caFile : nil, sendTimeout: sendTimeout,
      idlePingInterval: idlePingInterval, pingTimeout: pingTimeout, log: log)
    return APNsPushProvider(configuration: configuration, clock: clock)
  }

  /// The mock's log lines so far.
  func entries() throws -> [[String: Any]] {
    guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
    return try text.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  /// The log lines of requests for `token`.
  func entries(token: String) throws -> [[String: Any]] {
    try entries().filter { ($0["path"] as? String) == "/3/device/\(token)" }
  }

  /// A delivery to `token` in the sandbox, with a fresh event id.
  static func delivery(token: String, expiresAt: Int64 = 1_800_000_600) -> RelayDelivery {
    let envelope = PushEnvelope(
      keyID: "3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5f", identity: String(repeating: "ab", count: 32),
      nonce: "AAECAwQFBgcICQoL", ciphertext: "c2VjcmV0IGNpcGhlcnRleHQgYnl0ZXM=")
    let request = RelaySendRequest(
      deviceToken: token, environment: .sandbox, eventID: UUID().uuidString.lowercased(),
      expiresAt: expiresAt, envelope: envelope)
    return RelayDelivery(request: request, topic: "app.serverbee")
  }

  /// A token of 32 random-looking bytes that starts with `tag` (hex).
  static func token(_ tag: String) -> String {
    tag + String(repeating: "0", count: 64 - tag.count)
  }
}
