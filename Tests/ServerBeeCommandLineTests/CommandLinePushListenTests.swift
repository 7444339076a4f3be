import Foundation
import ServerBeeRelay
import Testing

/// `serverbee push listen`: the real end-to-end path on Linux. The simulator executable fires
/// an alert, its outbox sends the sealed push to a relay with local devices, and the listening
/// `serverbee` decrypts it with its own content key and prints the notification.
@Suite(.timeLimit(.minutes(5))) struct CommandLinePushListenTests {
  @Test func anAlertArrivesDecryptedAndRenderedOnTheListeningTerminal() async throws {
    let devices = LocalDevicePushProvider()
    let world = try await CommandLineWorld(
      provider: ScriptedPushProvider(fallback: devices), servers: 1)  // records, then delivers
    try await world.logInAsAdmin()
    let enabled = try await world.serverbee(["notifications", "enable", "--yes", "--alerts", "on"])
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

  @Test func listenJSONDecryptsAnAlertATaskFailureAndASecurityPushAndOpenTapsEach() async throws {
    let devices = LocalDevicePushProvider()
    let world = try await CommandLineWorld(provider: ScriptedPushProvider(fallback: devices))
    try await world.logInWithNotifications()
    let server = try await world.newServer("bastion")
    let status = try JSONOutput.object(try await world.serverbee(["status", "--json"]).stdout)
    let admin = try #require((status["identity"] as? [String: Any])?["user_id"] as? String)

    let listener = Task {
      try await world.serverbee(
        [
          "push", "listen", "--relay", world.relayURL.absoluteString, "--count", "3", "--json",
          "--open",
        ], timeout: 50)
    }
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !devices.devices().contains(where: \.isOnline), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    // One of each kind, each waited for at the relay so they arrive in this order.
    _ = try await world.simulator.control(
      "POST", "/__simulator/alerts/fire", ["server_id": server, "rule_name": "Disk full"])
    _ = try await world.payload(number: 1)
    let created = try await world.simulator.control(
      "POST", "/__simulator/tasks",
      [
        "command": "apt-get -y upgrade", "server_ids": [server], "task_type": "scheduled",
        "name": "nightly", "created_by": admin,
      ])
    let task = try #require((created["data"] as? [String: Any])?["id"] as? String)
    let outcomes: [[String: Any]] = [["server_id": server, "exit_code": 1]]
    _ = try await world.simulator.control(
      "POST", "/__simulator/tasks/\(task)/runs", ["outcomes": outcomes])
    _ = try await world.payload(number: 2)
    _ = try await world.simulator.control(
      "POST", "/__simulator/alert-rules",
      ["name": "SSH login from a new IP", "rule_type": "ssh_new_ip_login"])
    _ = try await world.simulator.control(
      "POST", "/__simulator/security-events",
      [
        "server_id": server, "event_type": "ssh_login", "username": "deploy",
        "source_ip": "198.51.100.23", "first_seen": true,
      ])

    let listened = try await listener.value
    #expect(listened.status == 0, "\(listened.stderr)")
    let objects = try listened.stdout.split(separator: "\n").map {
      try JSONOutput.object(String($0))
    }
    // Each notification object is followed by the object of its tap.
    let notifications = objects.filter { $0["kind"] != nil }
    let taps = objects.filter { $0["destination"] != nil }
    #expect(
      notifications.compactMap { $0["kind"] as? String } == ["alert", "task_failure", "security"])
    #expect(notifications.first?["title"] as? String == "Alert triggered")
    #expect((notifications.dropFirst().first?["title"] as? String)?.isEmpty == false)
    #expect(
      taps.compactMap { $0["destination"] as? String }
        == ["alert_detail", "task_run_results", "security_event"], "\(listened.stdout)")
    let privacy = world.provider.received().map { String(decoding: $0.payload, as: UTF8.self) }
    #expect(privacy.count >= 3)
    #expect(!privacy.contains { $0.contains("nightly") || $0.contains("bastion") })
  }
}
