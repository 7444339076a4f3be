import Foundation
import ServerBeeRelay
import Testing

/// `serverbee notifications` end to end: the built executable against the simulator
/// executable, whose outbox delivers through a real relay on loopback.
@Suite(.timeLimit(.minutes(5))) struct CommandLineNotificationTests {
  @Test func enableShowsTheServerConfirmedSettingsAndATestWithoutWaitReportsItsAdmission()
    async throws
  {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()

    let before = try await world.serverbee(["notifications"])
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.contains("revision 0): disabled"))

    let enabled = try await world.serverbee(["notifications", "enable", "--alerts", "on"])
    #expect(enabled.status == 0, "\(enabled.stderr)")
    #expect(enabled.stdout.contains("revision 2): enabled"), "\(enabled.stdout)")
    #expect(enabled.stdout.contains("alerts on"))
    #expect(enabled.stdout.contains("registration: registered"))

    // Without --wait: the server's first answer, one line, and the test is still delivered.
    let test = try await world.serverbee(["notifications", "test", "--lang", "en"])
    #expect(test.status == 0, "\(test.stderr)")
    #expect(test.stdout.split(separator: "\n").count == 1, "\(test.stdout)")
    #expect(
      test.stdout.hasPrefix("Encrypted test queued on the Server.")
        || test.stdout.hasPrefix("APNs accepted the notification."), "\(test.stdout)")
    await world.provider.waitUntilReceived(count: 1)

    let member = try await world.serverbee(["notifications", "set", "--alerts", "maybe"])
    #expect(member.status == 64)
  }

  @Test func testWithWaitPrintsEachOutcomeUntilAcceptedInTheChosenLanguage() async throws {
    let world = try await CommandLineWorld()
    try await world.logInWithNotifications()

    let english = try await world.serverbee(["notifications", "test", "--wait", "--lang", "en"])
    #expect(english.status == 0, "\(english.stderr)")
    let lines = english.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.last == "APNs accepted the notification. Device presentation has not been observed.",
      "\(english.stdout)")
    // Each outcome is printed once, in the order it was observed; the first is the admission.
    #expect(Set(lines).count == lines.count)
    if lines.count > 1 {
      #expect(
        lines.first == "Encrypted test queued on the Server. Provider acceptance is pending.")
    }
    #expect(world.provider.received().count == 1)

    let chinese = try await world.serverbee(
      ["notifications", "test", "--wait", "--lang", "zh-Hans"])
    #expect(chinese.status == 0, "\(chinese.stderr)")
    #expect(
      chinese.stdout.hasSuffix("APNs 已接受该通知。尚未观察到设备展示。\n"), "\(chinese.stdout)")

    let json = try await world.serverbee(["notifications", "test", "--wait", "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    // One document: the final outcome and every outcome it went through.
    let document = try JSONOutput.object(json.stdout)
    #expect(document["outcome"] as? String == "accepted")
    let updates = try #require(document["updates"] as? [[String: Any]])
    #expect(updates.last?["outcome"] as? String == "accepted")
    #expect(document["event_id"] as? String != nil)
  }

  @Test func testWithWaitEndsNonZeroWhenDeliveryStops() async throws {
    let world = try await CommandLineWorld(
      provider: ScriptedPushProvider(defaultAnswer: ScriptedAnswer(.badDeviceToken)))
    try await world.logInWithNotifications()
    let test = try await world.serverbee(["notifications", "test", "--wait", "--lang", "en"])
    #expect(test.status == 1)
    #expect(
      test.stdout.hasSuffix(
        "Delivery stopped. Retry notification setup before sending a new test.\n"),
      "\(test.stdout)")
    #expect(test.stderr == "serverbee: the test push ended permanent\n")
  }
}
