import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee monitors`, run as the built executable against the built simulator
/// (Protocol/AppRoutes.md §11): the list and its type filter, one monitor named by its id or
/// its name with its checks, a check run now by an admin and refused to a member, and the
/// one-line errors.
@Suite(.timeLimit(.minutes(5))) struct CommandLineServiceMonitorTests {
  @Test func monitorsAreListedShownAndCheckedNow() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1)
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")

    let list = try await serverbee(["monitors"], home: home)
    #expect(list.status == 0, "\(list.stderr)")
    let lines = list.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("NAME") == true, "\(list.stdout)")
    #expect(lines.count == 7, "\(list.stdout)")
    #expect(lines.last?.contains("never checked (disabled)") == true, "\(list.stdout)")
    let ssl = try await serverbee(["monitors", "--type", "ssl", "--json"], home: home)
    let only = try #require(
      try JSONSerialization.jsonObject(with: Data(ssl.stdout.utf8)) as? [[String: Any]])
    #expect(only.map { $0["id"] as? String } == ["ssl-example"])
    let badType = try await serverbee(["monitors", "--type", "icmp"], home: home)
    #expect(badType.status == 64)
    #expect(
      badType.stderr
        == "serverbee: --type takes ssl, dns, http_keyword, tcp or whois, got 'icmp'\n")

    let limitAlone = try await serverbee(["monitors", "--limit", "5"], home: home)
    #expect(limitAlone.status == 64)
    #expect(
      limitAlone.stderr
        == "serverbee: --limit needs a MONITOR ('serverbee monitors MONITOR --limit N')\n")
    let typeAndOne = try await serverbee(["monitors", "tcp-database", "--type", "tcp"], home: home)
    #expect(typeAndOne.status == 64, "\(typeAndOne.stderr)")

    // By name (any case), with its checks newest first.
    let one = try await serverbee(["monitors", "database port", "--limit", "5"], home: home)
    #expect(one.status == 0, "\(one.stderr)")
    let shown = one.stdout.split(separator: "\n").map(String.init)
    #expect(
      shown.first?.hasPrefix("Database port (tcp db.example.net:5432): ") == true, "\(one.stdout)")
    #expect(shown.contains { $0.hasPrefix("TIME") }, "\(one.stdout)")
    #expect(shown.last?.hasSuffix(" check(s) passed") == false, "\(one.stdout)")
    #expect(shown.last?.contains("of 5 check(s) passed") == true, "\(one.stdout)")
    let json = try await serverbee(["monitors", "tcp-database", "--json"], home: home)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let monitor = try #require(object["monitor"] as? [String: Any])
    let records = try #require(object["records"] as? [[String: Any]])
    #expect(monitor["id"] as? String == "tcp-database")
    #expect(records.count == 20)
    #expect(
      (monitor["latest_record"] as? [String: Any])?["id"] as? Int == records.first?["id"] as? Int)

    // A check now: the admin's record becomes the latest.
    let check = try await serverbee(["monitors", "tcp-database", "check", "--json"], home: home)
    #expect(check.status == 0, "\(check.stderr)")
    let record = try #require(
      try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
    #expect(record["monitor_id"] as? String == "tcp-database")
    let after = try await serverbee(["monitors", "tcp-database", "--json"], home: home)
    let shownAfter = try #require(
      try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
    let latest = try #require(shownAfter["monitor"] as? [String: Any])
    let recordID = try #require(record["id"] as? Int)
    // The simulator's own schedule (its clock follows the wall clock) may check the monitor
    // again at a minute's turn between the two commands: the latest is then newer still, and
    // the admin's check is among the records.
    let latestID = try #require((latest["latest_record"] as? [String: Any])?["id"] as? Int)
    #expect(latestID >= recordID)
    let recordsAfter = try #require(shownAfter["records"] as? [[String: Any]])
    #expect(recordsAfter.contains { $0["id"] as? Int == recordID }, "\(recordsAfter)")
    let text = try await serverbee(["monitors", "check", "Status page"], home: home)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.hasPrefix("Status page (http_keyword https://status.example.com/): "),
      "\(text.stdout)")

    let unknown = try await serverbee(["monitors", "nope"], home: home)
    #expect(unknown.status == 1)
    #expect(unknown.stderr == "serverbee: no monitor 'nope' (see 'serverbee monitors')\n")

    // A member reads but may not check.
    _ = try await simulator.control(
      "POST", "/__simulator/users", ["username": "bob", "password": "pw", "role": "member"])
    let memberHome = temporary.url.appendingPathComponent("member")
    let memberLogin = try await serverbee(
      ["login", "--server", simulator.url, "--username", "bob", "--password", "pw"],
      home: memberHome)
    #expect(memberLogin.status == 0, "\(memberLogin.stderr)")
    #expect(try await serverbee(["monitors"], home: memberHome).status == 0)
    let denied = try await serverbee(["monitors", "tcp-database", "check"], home: memberHome)
    #expect(denied.status != 0)
    #expect(denied.stderr == "serverbee: only an admin may run a check now\n", "\(denied.stderr)")
  }
}
