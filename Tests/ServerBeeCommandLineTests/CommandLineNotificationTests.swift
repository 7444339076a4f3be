import Foundation
import ServerBeeRelay
import ServerBeeTestSupport
import Testing

/// `serverbee notifications` end to end: the built executable against the simulator
/// executable, whose outbox delivers through a real relay on loopback.
@Suite(.timeLimit(.minutes(1))) struct CommandLineNotificationTests {
  @Test func enableShowsTheServerConfirmedSettingsAndATestIsAccepted() async throws {
    let temporary = try TemporaryDirectory()
    let provider = ScriptedPushProvider()
    let relay = RelayServer(provider: provider)
    let relayURL = try await Task(priority: .high) { try relay.start() }.value
    defer { relay.stop() }
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"),
      extra: ["--relay-url", relayURL.absoluteString])
    defer { simulator.terminate() }
    let home = temporary.url.appendingPathComponent("home").path
    func serverbee(_ arguments: [String]) async throws -> RunResult {
      try await ChildProcess.run(
        try BuiltExecutables.url("serverbee"), ["--home", home] + arguments,
        scratch: temporary.url)
    }
    let login = try await serverbee([
      "login", "--server", simulator.url, "--username", "admin", "--password", "admin-password",
    ])
    #expect(login.status == 0, "\(login.stderr)")

    let before = try await serverbee(["notifications"])
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.contains("revision 0): disabled"))

    let enabled = try await serverbee(["notifications", "enable", "--alerts", "on"])
    #expect(enabled.status == 0, "\(enabled.stderr)")
    #expect(enabled.stdout.contains("revision 2): enabled"), "\(enabled.stdout)")
    #expect(enabled.stdout.contains("alerts on"))
    #expect(enabled.stdout.contains("registration: registered"))

    let test = try await serverbee(["notifications", "test", "--lang", "en"])
    #expect(test.status == 0, "\(test.stderr)")
    #expect(
      test.stdout.contains(
        "APNs accepted the notification. Device presentation has not been observed."),
      "\(test.stdout)")
    #expect(provider.received().count == 1)

    let chinese = try await serverbee(["notifications", "test", "--lang", "zh-Hans"])
    #expect(chinese.stdout.contains("APNs 已接受该通知。"), "\(chinese.stdout)")

    let member = try await serverbee(["notifications", "set", "--alerts", "maybe"])
    #expect(member.status == 64)
  }
}
