import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee ip-quality`, run as the built executable against the built simulator
/// (Protocol/AppRoutes.md §9): a server and the fleet, a recheck waited for, the services and
/// the settings, and the one-line refusals.
@Suite(.timeLimit(.minutes(5))) struct CommandLineIPQualityTests {
  @Test func aServerIsReadRecheckedAndItsServicesAndSettingsChanged() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1)
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")

    let one = try await serverbee(["ip-quality", "server-1"], home: home)
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.hasPrefix("server-1: 203.0.113."), "\(one.stdout)")
    let all = try await serverbee(["ip-quality"], home: home)
    #expect(all.stdout.contains("server-1"), "\(all.stdout)")

    let recheck = try await serverbee(["ip-quality", "server-1", "recheck", "--json"], home: home)
    #expect(recheck.status == 0, "\(recheck.stderr)")
    let fresh = try #require(
      try JSONSerialization.jsonObject(with: Data(recheck.stdout.utf8)) as? [String: Any])
    let before = try #require(
      try JSONSerialization.jsonObject(
        with: Data(
          try await serverbee(["ip-quality", "server-1", "--json"], home: home).stdout.utf8))
        as? [String: Any])
    #expect(
      (fresh["ip_quality"] as? [String: Any])?["checked_at"] as? String
        == (before["ip_quality"] as? [String: Any])?["checked_at"] as? String)

    let builtin = try await serverbee(
      ["ip-quality", "services", "delete", "netflix", "--yes"], home: home)
    #expect(builtin.status == 1)
    #expect(
      builtin.stderr == "serverbee: 'netflix' is a built-in service: disable it instead "
        + "('serverbee ip-quality services disable netflix')\n")
    let off = try await serverbee(["ip-quality", "services", "disable", "netflix"], home: home)
    #expect(off.stdout == "Netflix is disabled.\n", "\(off.stderr)")
    let deleted = try await serverbee(
      ["ip-quality", "services", "delete", "custom-status-page", "--yes"], home: home)
    #expect(deleted.stdout == "Deleted service custom-status-page.\n", "\(deleted.stderr)")
    let set = try await serverbee(["ip-quality", "settings", "set", "--hours", "24"], home: home)
    #expect(set.stdout == "IPs are checked every 24 hour(s).\n", "\(set.stderr)")
    let range = try await serverbee(["ip-quality", "settings", "set", "--hours", "0"], home: home)
    #expect(range.status == 64)
  }
}
