import Foundation
import ServerBeeRelay
import Testing

/// The push half at its edges, run as a user would: built executables, fresh homes, the
/// simulator executable and a relay on loopback.
@Suite(.timeLimit(.minutes(5))) struct CommandLinePushLifecycleTests {
  /// Signs in as the admin, enables notifications and returns the APNs payload of one test.
  static func adminWithATestPayload(_ world: CommandLineWorld) async throws -> URL {
    try await world.logInWithNotifications()
    let test = try await world.serverbee(["notifications", "test", "--lang", "en"])
    #expect(test.status == 0, "\(test.stderr)")
    return try world.file("test.json", try await world.payload(number: 1))
  }

  @Test func aLogoutTakesTheContentKeyWithItSoAnotherAccountReadsNothing() async throws {
    let world = try await CommandLineWorld()
    let payload = try await Self.adminWithATestPayload(world)
    let opened = try await world.serverbee(["push", "decrypt", payload.path, "--lang", "en"])
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(opened.stdout.hasPrefix("Test notification:"), "\(opened.stdout)")

    let logout = try await world.serverbee(["logout"])
    #expect(logout.status == 0, "\(logout.stderr)")
    let afterLogout = try await world.serverbee(["push", "decrypt", payload.path, "--lang", "en"])
    #expect(afterLogout.status == 1)
    #expect(afterLogout.stdout == "ServerBee: Open ServerBee to view this notification.\n")
    #expect(
      afterLogout.stderr
        == "serverbee: the payload did not open: no content key of the current login is stored\n")

    let memberQR = try await world.simulator.pairingPayload(username: "mallory")
    let paired = try await world.serverbee(["pair", memberQR])
    #expect(paired.status == 0, "\(paired.stderr)")
    let asMember = try await world.serverbee(["push", "decrypt", payload.path, "--lang", "en"])
    #expect(asMember.status == 1)
    #expect(!asMember.stdout.contains("Test notification"))
  }

  @Test func anOfflineLogoutAlsoTakesTheKey() async throws {
    let world = try await CommandLineWorld()
    let payload = try await Self.adminWithATestPayload(world)
    await world.simulator.stop()
    let logout = try await world.serverbee(["logout"])
    #expect(logout.status == 0, "\(logout.stderr)")
    let decrypted = try await world.serverbee(["push", "decrypt", payload.path])
    #expect(decrypted.status == 1)
    #expect(decrypted.stdout.contains("Open ServerBee"))
  }

  @Test func aMemberAskingForAdminCategoriesIsRefusedAndNothingChanges() async throws {
    let world = try await CommandLineWorld()
    let memberQR = try await world.simulator.pairingPayload(username: "mallory")
    #expect(try await world.serverbee(["pair", memberQR]).status == 0)
    let before = try JSONOutput.object(
      try await world.serverbee(["notifications", "--json"]).stdout)
    let refused = try await world.serverbee(["notifications", "set", "--security", "on"])
    #expect(refused.status == 1)
    #expect(refused.stdout.isEmpty)
    #expect(
      refused.stderr == "serverbee: only admins can receive security notifications; this "
        + "account is not an admin\n", "\(refused.stderr)")
    let after = try JSONOutput.object(
      try await world.serverbee(["notifications", "--json"]).stdout)
    #expect(after["revision"] as? Int == before["revision"] as? Int)
  }

  @Test func everyNotificationsSubcommandPrintsOneJSONDocument() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()
    for arguments in [
      ["notifications", "--json"], ["notifications", "enable", "--json"],
      ["notifications", "set", "--alerts", "on", "--json"],
      ["notifications", "test", "--wait", "--json"],
      ["notifications", "test", "--status", "--json"],
      ["notifications", "disable", "--json"],
    ] {
      let run = try await world.serverbee(arguments)
      #expect(run.status == 0, "\(arguments): \(run.stderr)")
      let object = try JSONOutput.object(run.stdout)
      #expect(!object.isEmpty, "\(arguments): \(run.stdout)")
    }
    let show = try JSONOutput.object(try await world.serverbee(["notifications", "--json"]).stdout)
    #expect(show["registration"] as? String == "not_registered")
    #expect((show["preferences"] as? [String: Bool])?["enabled"] == false)
  }

  @Test func aServerThatIsDownIsSaidSoAndFails() async throws {
    let world = try await CommandLineWorld()
    try await world.logInWithNotifications()
    await world.simulator.stop()
    let show = try await world.serverbee(["notifications"])
    #expect(show.status == 1)
    #expect(show.stdout.contains("settings: could not be loaded"), "\(show.stdout)")
    #expect(show.stderr.hasPrefix("serverbee: the server could not be reached"), "\(show.stderr)")
    let test = try await world.serverbee(["notifications", "test"])
    #expect(test.status == 1)
    #expect(!test.stderr.contains("not registered"), "\(test.stderr)")
    #expect(!test.stderr.contains("ServerBeeError"), "\(test.stderr)")
  }

  @Test func theLastTestCanBeFollowedAgainWithTheSameEventID() async throws {
    let world = try await CommandLineWorld()
    try await world.logInWithNotifications()
    let sent = try JSONOutput.object(
      try await world.serverbee(["notifications", "test", "--json"]).stdout)
    let eventID = try #require(sent["event_id"] as? String)
    let followed = try await world.serverbee([
      "notifications", "test", "--status", "--wait", "--json",
    ])
    #expect(followed.status == 0, "\(followed.stderr)")
    let status = try JSONOutput.object(followed.stdout)
    #expect(status["event_id"] as? String == eventID)
    #expect(status["outcome"] as? String == "accepted")
    // No new test was sent.
    #expect(world.provider.received().count == 1)
  }

  @Test func withNoTestSentTheStatusSaysSo() async throws {
    let world = try await CommandLineWorld()
    try await world.logInWithNotifications()
    let status = try await world.serverbee(["notifications", "test", "--status"])
    #expect(status.status == 1)
    #expect(
      status.stderr == "serverbee: this login has sent no test notification: run 'serverbee "
        + "notifications test'\n")
  }

  @Test func eightConcurrentEnablesLeaveTheServerWithThisInstallationsKey() async throws {
    let world = try await CommandLineWorld()
    try await world.logInAsAdmin()
    let runs = try await withThrowingTaskGroup(of: RunResult.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try await world.serverbee(["notifications", "enable", "--yes"], timeout: 120)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for run in runs { #expect(run.status == 0, "\(run.stderr)") }
    let show = try JSONOutput.object(try await world.serverbee(["notifications", "--json"]).stdout)
    #expect(show["registration"] as? String == "registered", "\(show)")
    // The server's registration opens with the key this home holds: a test push decrypts.
    #expect(try await world.serverbee(["notifications", "test"]).status == 0)
    let payload = try world.file("test.json", try await world.payload(number: 1))
    let decrypted = try await world.serverbee(["push", "decrypt", payload.path, "--lang", "en"])
    #expect(decrypted.status == 0, "\(decrypted.stderr)")
    #expect(decrypted.stdout.hasPrefix("Test notification:"))
  }
}
