import Foundation
import ServerBeeRelay
import ServerBeeTestHarness
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

    let enabled = try await world.serverbee(["notifications", "enable", "--yes", "--alerts", "on"])
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
    let lines = test.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.dropLast().last
        == "Delivery stopped. Retry notification setup before sending a new test.",
      "\(test.stdout)")
    // The status line is followed by its cause (TestPushStatusText.reasonLine).
    #expect(lines.last?.hasPrefix("APNs refused the device token") == true, "\(test.stdout)")
    #expect(test.stderr == "serverbee: the test push ended permanent\n")
  }

  /// The relay refuses a push that expires more than 30 minutes after its own now;
  /// a server whose clock runs ahead makes every push such a push. The status says so.
  @Test func aRelayRefusingTheServersPushIsExplainedByTheClocks() async throws {
    let world = try await CommandLineWorld()
    try await world.logInWithNotifications()
    _ = try await world.simulator.control(
      "POST", "/__simulator/clock/advance", ["seconds": 300])
    let test = try await world.serverbee(["notifications", "test", "--wait", "--lang", "en"])
    #expect(test.status == 1, "\(test.stderr)")
    #expect(
      test.stdout.contains(
        "Delivery stopped. Retry notification setup before sending a new test.\n"
          + "The relay refused the server's request. Check that the server's clock agrees with "
          + "the relay's: a push may expire at most 30 minutes after the relay's current time. "
          + "(RelayPayloadRejected)\n"), "\(test.stdout)")
    #expect(world.provider.received().isEmpty, "nothing reached the push provider")

    let status = try await world.serverbee(
      ["notifications", "test", "--status", "--json", "--lang", "zh-Hans"])
    #expect(status.status == 1)
    let document = try JSONOutput.object(status.stdout)
    #expect(document["reason"] as? String == "RelayPayloadRejected")
    let line = try #require(document["reason_line"] as? String)
    #expect(line.hasPrefix("Relay 拒绝了 Server 的请求。"), "\(line)")
  }

  /// Following a test never outlives a server that went away: every read is bounded
  /// and a server that cannot be reached twice in a row ends the command with one line, with
  /// or without a terminal.
  @Test(arguments: [
    ["notifications", "test", "--status", "--wait"], ["notifications", "test", "--status"],
    ["notifications", "test", "--status", "--wait", "--json"],
  ])
  func followingATestEndsWithOneLineWhenTheServerIsDown(_ arguments: [String]) async throws {
    let world = try await CommandLineWorld()
    try await world.logInWithNotifications()
    let sent = try await world.serverbee(["notifications", "test", "--lang", "en"])
    #expect(sent.status == 0, "\(sent.stderr)")
    await world.simulator.stop()

    let started = Date()
    let followed = try await world.serverbee(arguments, timeout: 90)
    #expect(Date().timeIntervalSince(started) < 60, "bounded by the request timeout")
    #expect(followed.status == 1)
    #expect(followed.stdout.isEmpty, "\(followed.stdout)")
    #expect(followed.stderrLines.count == 1, "\(followed.stderr)")
    #expect(
      followed.stderr.hasPrefix("serverbee: the server could not be reached"), "\(followed.stderr)")
    #expect(
      followed.stderr.hasSuffix(
        "is kept: 'serverbee notifications test --status --wait' follows it\n"))
  }

  /// The privacy notice comes before notifications are first turned on, and once.
  @Test func theFirstEnableNeedsThePrivacyNoticeReadAndASecondDoesNotAsk() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()

    let refused = try await world.serverbee(["notifications", "enable"])
    #expect(refused.status == 64)
    #expect(refused.stdout.isEmpty)
    #expect(
      refused.stderr
        == "serverbee: notifications are turned on here for the first time: read what the relay "
        + "and Apple can see ('serverbee notifications privacy' prints it), then pass --yes\n")
    let unchanged = try await world.serverbee(["notifications"]).stdout
    #expect(unchanged.contains("revision 0): disabled"), "nothing was sent: \(unchanged)")
    #expect(unchanged.contains("registration: not registered"), "\(unchanged)")

    // On a terminal the notice is shown and a "no" changes nothing.
    let executable = try BuiltExecutables.url("serverbee").path
    // The prompt is the notice itself (the question follows it in the same write); the
    // transcript is what came after the answer.
    let (declined, transcript) = try await PseudoTerminal.run(
      "'\(executable)' --home '\(world.home().path)' notifications enable --lang en",
      answers: [("It never receives the content key or the plain text.", "n")])
    #expect(declined == 1, "\(transcript)")
    #expect(
      transcript.contains("serverbee: nothing was changed (the privacy notice was not accepted)"))

    let enabled = try await world.serverbee(["notifications", "enable", "--yes"])
    #expect(enabled.status == 0, "\(enabled.stderr)")
    #expect(enabled.stdout.contains("registration: registered"), "\(enabled.stdout)")
    #expect(enabled.stderr.contains("'serverbee notifications privacy' prints it"))

    // Recorded for this installation: the next enable asks nothing, even without a terminal.
    #expect(try await world.serverbee(["notifications", "disable"]).status == 0)
    let again = try await world.serverbee(["notifications", "enable"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.isEmpty, "\(again.stderr)")
    #expect(again.stdout.contains("registration: registered"))
  }

  @Test func thePrivacyNoticePrintsBothLanguagesOrTheOneChosen() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let both = try await serverbee(["notifications", "privacy"], home: home)
    #expect(both.status == 0, "\(both.stderr)")
    #expect(both.stdout.hasPrefix("Before you turn on notifications: what the relay and Apple"))
    #expect(both.stdout.contains("\n\n开启通知前：Relay 和 Apple 能看到什么\n"))
    #expect(both.stdout.contains("It never receives the content key or the plain text."))
    let chinese = try await serverbee(
      ["notifications", "privacy", "--lang", "zh-Hans"], home: home)
    #expect(chinese.stdout.hasPrefix("开启通知前"))
    #expect(!chinese.stdout.contains("Before you turn on"))
    let json = try JSONOutput.object(
      try await serverbee(["notifications", "privacy", "--json"], home: home).stdout)
    #expect((json["en"] as? [String])?.count == 6 && (json["zh-Hans"] as? [String])?.count == 6)
  }
}
