import Foundation
import ServerBeeTestHarness
import Testing

/// What `serverbee` says about arguments it cannot use, without touching the network.
@Suite struct CommandLineUsageTests {
  @Test func bareServerbeeShowsTheHelp() async throws {
    let temporary = try TemporaryDirectory()
    let result = try await ChildProcess.run(
      try BuiltExecutables.url("serverbee"), [], scratch: temporary.url,
      environment: ["SERVERBEE_HOME": temporary.url.appendingPathComponent("home").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("serverbee: a ServerBee mobile client for the terminal"))
    #expect(result.stdout.contains("  demo "))
    #expect(result.stderr.isEmpty)
    // The commands that take an API key instead of a session are named in one place, derived
    // from their routes' credentials; `push listen` and `open` need this installation's key.
    let keyLine =
      "SERVERBEE_API_KEY  an API key instead of a session, with --server, for: servers, groups, "
      + "watch, alerts, devices, server, insights, traffic, cost, uptime, probes, traceroute, "
      + "ip-quality, monitors, docker, agent, account, users, channels, audit, tasks, maintenance, "
      + "incidents, status-page, ping-tasks, admin, security, firewall, pair-code"
    #expect(result.stdout.contains(keyLine))
  }

  @Test(arguments: [
    (
      ["login", "--server", "127.0.0.1:8080", "--username", "ada", "--password", "pw"],
      "the server URL '127.0.0.1:8080' has no scheme: add https:// (https://127.0.0.1:8080)"
    ),
    (
      ["login", "--server", "monitor.example.com", "--username", "ada", "--password", "pw"],
      "the server URL 'monitor.example.com' has no scheme: add https:// (https://monitor.example.com)"
    ),
    (
      ["login", "--server", "ftp://monitor.example.com", "--username", "ada", "--password", "pw"],
      "the server URL 'ftp://monitor.example.com' must start with https:// (or http://)"
    ),
  ])
  func aServerWithoutASchemeSaysToAddIt(arguments: [String], line: String) async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let result = try await serverbee(arguments, home: home)
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "serverbee: \(line)\n")
  }

  @Test func aPairingCodeForAnotherServerNamesBoth() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let payload =
      #"{"type":"serverbee_pair","server_url":"http://127.0.0.1:9","code":"sb_pair_abc"}"#
    let result = try await serverbee(
      ["--server", "https://Monitor.example.com/", "pair", payload], home: home)
    #expect(result.status == 64)
    #expect(
      result.stderr
        == "serverbee: this pairing code is for http://127.0.0.1:9, not for "
        + "https://monitor.example.com (--server)\n")
    #expect(!result.stderr.contains("sb_pair_abc"))
  }
}
