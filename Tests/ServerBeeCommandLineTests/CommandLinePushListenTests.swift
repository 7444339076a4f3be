import Foundation
import ServerBeeRelay
import ServerBeeTestSupport
import Testing

/// `serverbee push listen`: the real end-to-end path on Linux. The simulator executable fires
/// an alert, its outbox sends the sealed push to a relay with local devices, and the listening
/// `serverbee` decrypts it with its own content key and prints the notification.
@Suite(.timeLimit(.minutes(1))) struct CommandLinePushListenTests {
  @Test func anAlertArrivesDecryptedAndRenderedOnTheListeningTerminal() async throws {
    let temporary = try TemporaryDirectory()
    let devices = LocalDevicePushProvider()
    let recorder = ScriptedPushProvider(fallback: devices)  // records, then delivers
    let relay = RelayServer(provider: recorder)
    let relayURL = try await Task(priority: .high) { try relay.start() }.value
    defer { relay.stop() }
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1,
      extra: ["--relay-url", relayURL.absoluteString])
    defer { simulator.terminate() }
    let home = temporary.url.appendingPathComponent("home").path
    let scratch = temporary.url
    @Sendable func serverbee(_ arguments: [String], timeout: Double = 60) async throws
      -> RunResult
    {
      try await ChildProcess.run(
        try BuiltExecutables.url("serverbee"), ["--home", home] + arguments,
        scratch: scratch, timeout: timeout)
    }
    let login = try await serverbee([
      "login", "--server", simulator.url, "--username", "admin", "--password", "admin-password",
    ])
    #expect(login.status == 0, "\(login.stderr)")
    let enabled = try await serverbee(["notifications", "enable", "--alerts", "on"])
    #expect(enabled.status == 0, "\(enabled.stderr)")

    let listener = Task {
      try await serverbee(
        ["push", "listen", "--relay", relayURL.absoluteString, "--count", "1", "--json"],
        timeout: 40)
    }
    // Fire only once the listener's device is online at the relay.
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !devices.devices().contains(where: \.isOnline), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    let servers = try await serverbee(["servers", "--json"])
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(servers.stdout.utf8)) as? [[String: Any]])
    let serverID = try #require(rows.first?["id"] as? String)
    _ = try await simulator.control(
      "POST", "/__simulator/alerts/fire", ["server_id": serverID, "rule_name": "Disk full"])
    let listened = try await listener.value
    #expect(listened.status == 0, "\(listened.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(listened.stdout.utf8)) as? [String: Any])
    #expect(object["kind"] as? String == "alert")
    #expect(object["title"] as? String == "Alert triggered")
    #expect((object["body"] as? String)?.hasPrefix("Disk full on ") == true)

    // The extension step alone on the same APNs payload, then on one it cannot open.
    let payload = try #require(recorder.received().first?.payload)
    let file = temporary.url.appendingPathComponent("payload.json")
    try payload.write(to: file)
    let decrypted = try await serverbee(["push", "decrypt", file.path, "--lang", "zh-Hans"])
    #expect(decrypted.status == 0, "\(decrypted.stderr)")
    #expect(decrypted.stdout.hasPrefix("告警已触发: Disk full（"), "\(decrypted.stdout)")
    let bogus = temporary.url.appendingPathComponent("bogus.json")
    try Data(#"{"aps":{},"serverbee_envelope":{"version":1}}"#.utf8).write(to: bogus)
    let fallback = try await serverbee(["push", "decrypt", bogus.path, "--lang", "en"])
    #expect(fallback.stdout == "ServerBee: Open ServerBee to view this notification.\n")
  }
}
