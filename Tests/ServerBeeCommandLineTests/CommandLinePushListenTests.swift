import Foundation
import ServerBeeRelay
import ServerBeeTestSupport
import Testing

/// `serverbee push listen`: the real end-to-end path on Linux. The simulator executable fires
/// an alert, its outbox sends the sealed push to a relay with local devices, and the listening
/// `serverbee` decrypts it with its own content key and prints the notification.
@Suite(.timeLimit(.minutes(1))) struct CommandLinePushListenTests {
  @Test func anAlertArrivesDecryptedAndRenderedOnTheListeningTerminal() async throws {
    let devices = LocalDevicePushProvider()
    let world = try await CommandLineWorld(
      provider: ScriptedPushProvider(fallback: devices), servers: 1)  // records, then delivers
    try await world.logInAsAdmin()
    let enabled = try await world.serverbee(["notifications", "enable", "--alerts", "on"])
    #expect(enabled.status == 0, "\(enabled.stderr)")

    let listener = Task {
      try await world.serverbee(
        ["push", "listen", "--relay", world.relayURL.absoluteString, "--count", "1", "--json"],
        timeout: 40)
    }
    // Fire only once the listener's device is online at the relay.
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !devices.devices().contains(where: \.isOnline), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    let servers = try await world.serverbee(["servers", "--json"])
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(servers.stdout.utf8)) as? [[String: Any]])
    let serverID = try #require(rows.first?["id"] as? String)
    _ = try await world.simulator.control(
      "POST", "/__simulator/alerts/fire", ["server_id": serverID, "rule_name": "Disk full"])
    let listened = try await listener.value
    #expect(listened.status == 0, "\(listened.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(listened.stdout.utf8)) as? [String: Any])
    #expect(object["kind"] as? String == "alert")
    #expect(object["title"] as? String == "Alert triggered")
    #expect((object["body"] as? String)?.hasPrefix("Disk full on ") == true)

    // The extension step alone on the same APNs payload, then on one it cannot open.
    let file = try world.file("payload.json", try await world.payload(number: 1))
    let decrypted = try await world.serverbee(["push", "decrypt", file.path, "--lang", "zh-Hans"])
    #expect(decrypted.status == 0, "\(decrypted.stderr)")
    #expect(decrypted.stdout.hasPrefix("告警已触发: Disk full（"), "\(decrypted.stdout)")
    let bogus = try world.file(
      "bogus.json", Data(#"{"aps":{},"serverbee_envelope":{"version":1}}"#.utf8))
    let fallback = try await world.serverbee(["push", "decrypt", bogus.path, "--lang", "en"])
    #expect(fallback.stdout == "ServerBee: Open ServerBee to view this notification.\n")
  }
}
