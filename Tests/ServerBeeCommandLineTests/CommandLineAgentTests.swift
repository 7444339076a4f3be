import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee servers add`, `agent code|replace|revoke-code`, `agent latest` and `servers
/// delete`, run as built executables against the built simulator (Protocol/Agents.md): the
/// code is printed once, by the command that minted it, and never again.
@Suite(.timeLimit(.minutes(5))) struct CommandLineAgentTests {
  /// The code on the line after "Enrollment code", and the install line's copy of it.
  private func code(in output: String) throws -> String {
    let lines = output.split(separator: "\n").map(String.init)
    let index = try #require(lines.firstIndex { $0.hasPrefix("Enrollment code (shown this once") })
    let code = lines[index + 1].trimmingCharacters(in: .whitespaces)
    #expect(code.count == 43, "\(output)")
    #expect(lines.contains { $0.contains("--enrollment-code '\(code)'") }, "\(output)")
    return code
  }

  @Test func anAdminAddsAServerReplacesItsCodeAndDeletesIt() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")
    func run(_ arguments: [String]) async throws -> RunResult {
      try await serverbee(arguments, home: home)
    }

    let added = try await run(["servers", "add", "edge-1", "--request-id", "req-1"])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.hasPrefix("Added edge-1 (id "), "\(added.stdout)")
    #expect(added.stdout.contains("--server-url '\(simulator.url)"), "\(added.stdout)")
    let first = try code(in: added.stdout)

    // The same request again adds nothing and shows no code.
    let again = try await run(["servers", "add", "edge-1", "--request-id", "req-1"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("was added before by this request"), "\(again.stdout)")
    #expect(again.stdout.contains("Its open code starts \(first.prefix(8))…"), "\(again.stdout)")
    #expect(!again.stdout.contains(first))
    let conflict = try await run(["servers", "add", "edge-2", "--request-id", "req-1"])
    #expect(conflict.status != 0)
    #expect(
      conflict.stderr.hasSuffix(
        "onboarding_request_id was already used with different input (HTTP 409)\n"),
      "\(conflict.stderr)")

    // A code is open: issuing another is refused, naming it; replace makes a fresh one.
    let refused = try await run(["agent", "code", "edge-1"])
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("edge-1 has an open code (\(first.prefix(8))…)"))
    #expect(!refused.stderr.contains(first))
    let replaced = try await run(["agent", "replace", "edge-1"])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(replaced.stdout.hasPrefix("New enrollment code for edge-1 (id "))
    let second = try code(in: replaced.stdout)
    #expect(second != first)

    // The agent uses the code (the simulator's stand-in); a plain code is refused now, and
    // re-enrolment gives one while the agent keeps running; revoking asks, then cuts it off.
    let idLine = try #require(added.stdout.split(separator: "\n").first)
    let serverID = String(idLine.dropFirst("Added edge-1 (id ".count).dropLast(2))
    _ = try await simulator.control(
      "POST", "/__simulator/servers/\(serverID)/enroll", ["code": second])
    let claimed = try await run(["agent", "code", "edge-1"])
    #expect(claimed.status != 0)
    #expect(
      claimed.stderr.contains(
        "an agent holds edge-1 already; 'serverbee agent reenrol edge-1' gives it a new code"),
      "\(claimed.stderr)")
    let reenrolled = try await run(["agent", "reenrol", "edge-1"])
    #expect(reenrolled.status == 0, "\(reenrolled.stderr)")
    #expect(
      reenrolled.stdout.hasPrefix(
        "edge-1's agent keeps running until the new code is used.\n"), "\(reenrolled.stdout)")
    #expect(try code(in: reenrolled.stdout) != second)
    let unasked = try await run(["agent", "revoke", "edge-1"])
    #expect(unasked.status != 0)
    let revoked = try await run(["agent", "revoke", "edge-1", "--yes"])
    #expect(
      revoked.stdout == "Revoked the agent of edge-1: it is unclaimed, with no open code.\n",
      "\(revoked.stderr)")
    let twice = try await run(["agent", "revoke", "edge-1", "--yes"])
    #expect(twice.stdout == "edge-1 was unclaimed already, with no open code.\n")
    let unclaimed = try await run(["agent", "reenrol", "edge-1", "--emergency"])
    #expect(unclaimed.status != 0)
    #expect(
      unclaimed.stderr.contains(
        "no agent holds edge-1; 'serverbee agent code edge-1' issues a code"),
      "\(unclaimed.stderr)")

    let latest = try await run(["agent", "latest"])
    #expect(latest.stdout == "The latest agent is 1.5.0, released 2025-11-24T16:00:00Z.\n")

    // Deleting needs --yes without a terminal; then the server is gone.
    let unconfirmed = try await run(["servers", "delete", "edge-1"])
    #expect(unconfirmed.status != 0)
    let deleted = try await run(["servers", "delete", "edge-1", "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout.hasPrefix("Deleted edge-1 (id "), "\(deleted.stdout)")
    let gone = try await run(["servers", "delete", "edge-1", "--yes"])
    #expect(gone.status != 0)
    #expect(gone.stderr.contains("edge-1"), "\(gone.stderr)")
  }
}
