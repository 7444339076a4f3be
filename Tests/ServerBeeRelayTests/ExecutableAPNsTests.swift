import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// The built `serverbee-relay` with APNs settings: start-up validation (exit 64, one line,
/// never the key) and sends through the relay to the mock APNs, local devices staying local.
@Suite(.timeLimit(.minutes(5)))
struct ExecutableAPNsTests {
  /// This process's environment without any `APNS_*` name, plus `extra`.
  static func environment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APNS_") }
    environment.merge(extra) { $1 }
    return environment
  }

  static func settings(_ mock: MockAPNs, _ changes: [String: String?] = [:]) -> [String: String] {
    var values: [String: String] = [
      "APNS_TEAM_ID": MockAPNs.team, "APNS_KEY_ID": MockAPNs.keyID, "APNS_TOPIC": "app.serverbee",
      "APNS_PRIVATE_KEY": mock.keyPEM,
    ]
    for (name, value) in changes { values[name] = value }
    return environment(values)
  }

  @Test func invalidSettingsStopTheStartWithOneLine() async throws {
    let mock = try await MockAPNs.start()
    let sec1 = mock.directory.url.appendingPathComponent("sec1.pem")
    try await TestPKI.openssl([
      "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", sec1.path,
    ])
    let sec1Text = try String(contentsOf: sec1, encoding: .utf8)
    let cases: [(changes: [String: String?], arguments: [String], expected: String)] = [
      (["APNS_TEAM_ID": nil], [], "APNS_TEAM_ID is not set"),
      (["APNS_KEY_ID": nil], [], "APNS_KEY_ID is not set"),
      (["APNS_TOPIC": nil], [], "APNS_TOPIC is not set"),
      (["APNS_PRIVATE_KEY": nil], [], "APNS_PRIVATE_KEY (or APNS_PRIVATE_KEY_FILE) is not set"),
      (["APNS_ENVIRONMENTS": "sandbox,staging"], [], "APNS_ENVIRONMENTS takes"),
      (["APNS_PRIVATE_KEY": sec1Text], [], "not a PKCS#8"),
      (
        ["APNS_PRIVATE_KEY": nil, "APNS_PRIVATE_KEY_FILE": "/nonexistent/AuthKey.p8"], [],
        "APNS_PRIVATE_KEY_FILE cannot be read"
      ),
      ([:], ["--apns-url", "staging=https://localhost:1"], "--apns-url takes"),
      ([:], ["--apns-url", "sandbox=http://localhost:1"], "needs https://HOST[:PORT]"),
      ([:], ["--apns-ca-file", "/nonexistent/ca.pem"], "--apns-ca-file cannot be read"),
    ]
    for (changes, arguments, expected) in cases {
      let result = try await Process.output(
        of: try ExecutableTests.executable(), ["--port", "0"] + arguments,
        environment: Self.settings(mock, changes))
      #expect(result.status == 64, "\(expected)")
      let lines = result.errorText.split(separator: "\n")
      #expect(lines.count == 1, "\(result.errorText)")
      #expect(result.errorText.contains(expected), "\(result.errorText)")
      #expect(result.stdout.isEmpty)
      for keyText in [mock.keyPEM, sec1Text] {
        for line in keyText.split(separator: "\n") where !line.hasPrefix("-----") {
          #expect(!result.errorText.contains(line))
        }
      }
    }
    // --apns-url without any APNS_* name is a configuration error too.
    let bare = try await Process.output(
      of: try ExecutableTests.executable(), ["--apns-url", "sandbox=https://localhost:1"],
      environment: Self.environment([:]))
    #expect(bare.status == 64)
  }

  @Test func sendsGoToTheMockAndLocalDevicesStayLocal() async throws {
    let gone = String(repeating: "e", count: 64)
    let mock = try await MockAPNs.start(tokens: [gone: ["status": 410, "reason": "Unregistered"]])
    let process = Process()
    process.executableURL = try ExecutableTests.executable()
    process.arguments = [
      "--port", "0", "--control-token", "ctl", "--apns-url",
      "sandbox=https://localhost:\(mock.port)",
      "--apns-ca-file", mock.pki.caFile.path,
    ]
    process.environment = Self.settings(mock, ["APNS_ENVIRONMENTS": "sandbox"])
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.runUnderWatchdog()
    defer { process.endGroup() }
    let errors = Task { try await offPool { stderr.fileHandleForReading.readDataToEndOfFile() } }
    let line = try await ExecutableTests.readLine(stdout)
    let announced = try WireJSON.decode(JSONValue.self, from: Data(line.utf8))
    let url = try #require(announced["url"]?.stringValue)
    let port = try #require(UInt16(url.split(separator: ":").last ?? ""))

    func send(_ body: SendBody) async throws -> RelayClient.Response {
      let client = try #require(RelayClient(port: port))
      client.request(
        "POST", "/v1/send", headers: [("Content-Type", "application/json")], body: body.bytes)
      return try #require(await client.response(timeout: 120))
    }
    let expiresAt = Int64(Date().timeIntervalSince1970) + 600
    let accepted = try await send(
      SendBody(token: String(repeating: "d", count: 64), expiresAt: expiresAt))
    #expect(accepted.isVerdict(200, .accepted, .accepted), "\(accepted)")
    let unregistered = try await send(SendBody(token: gone, expiresAt: expiresAt))
    #expect(
      unregistered.isVerdict(200, .permanent, .unregistered, deviceInvalid: true), "\(unregistered)"
    )
    let disabled = try await send(
      SendBody(
        token: String(repeating: "d", count: 64), environment: "production", expiresAt: expiresAt))
    #expect(disabled.isVerdict(400, .permanent, .environmentDisabled), "\(disabled)")
    // A relay-issued token goes to its device queue, never to APNs.
    let client = try #require(RelayClient(port: port))
    client.request("POST", "/v1/devices", headers: [], body: [])
    let issued = try #require(await client.response(timeout: 120))
    #expect(issued.status == 201)
    let document = try WireJSON.decode(JSONValue.self, from: Data(issued.body))
    let local = try #require(document["device_token"]?.stringValue)
    let held = try await send(SendBody(token: local, expiresAt: expiresAt))
    #expect(held.isVerdict(200, .accepted, .accepted), "\(held)")
    #expect(try mock.entries(token: local).isEmpty)
    #expect(try mock.entries().count == 2)
    process.terminate()
    await process.exited()
    let log = String(decoding: try await errors.value, as: UTF8.self)
    #expect(log.contains("apns sandbox: connected to localhost:\(mock.port)"))
    #expect(log.contains("apns sandbox: 410 Unregistered"))
    for token in [gone, local, String(repeating: "d", count: 64)] { #expect(!log.contains(token)) }
    #expect(!log.contains(SendBody.ciphertext))
  }
}
