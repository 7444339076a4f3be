import AuthSession
import Foundation
import ServerBeeTestHarness
import Testing

@testable import ServerBeeCommandLine

/// Signing out while the server is down, run as built executables against the built simulator.
@Suite struct CommandLineSignOutTests {
  @Test func aQueuedSignOutThatKeepsFailingShowsItsErrorAndCanBeForgotten() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let paired = try await serverbee(["pair", try await simulator.pairingPayload()], home: home)
    #expect(paired.status == 0, "\(paired.stderr)")
    await simulator.stop()
    let logout = try await serverbee(["logout", "--json"], home: home)
    #expect(logout.stdout == #"{"outcome":"pending_cleanup"}"# + "\n")

    let status = try await serverbee(["status"], home: home)
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains("pending cleanups:  1"), "\(status.stdout)")
    #expect(status.stdout.contains("last error: cannot reach the server"), "\(status.stdout)")
    #expect(status.stdout.contains("serverbee logout --forget-pending ID"))
    let json = try await serverbee(["status", "--json"], home: home)
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
    let entries = try #require(
      (document as? [String: Any])?["pending_cleanups"] as? [[String: Any]])
    let id = try #require(entries.first?["id"] as? String)
    #expect((entries.first?["last_error"] as? String)?.hasPrefix("cannot reach the server") == true)

    let unknown = try await serverbee(["logout", "--forget-pending", "nope"], home: home)
    #expect(unknown.status == 64)
    #expect(
      unknown.stderr == "serverbee: no queued sign-out has the id 'nope' (see 'serverbee status')\n"
    )
    let forgotten = try await serverbee(["logout", "--forget-pending", id], home: home)
    #expect(forgotten.status == 0, "\(forgotten.stderr)")
    #expect(forgotten.stdout.hasPrefix("Forgot the queued sign-out of session "))
    let after = try await serverbee(["status", "--json"], home: home)
    #expect(after.stdout.contains(#""pending_cleanups":[]"#), "\(after.stdout)")
  }

  @Test func aSignInWithoutAnAnswerIsListedByStatus() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let login = try await serverbee(
      ["login", "--server", "http://127.0.0.1:9", "--username", "ada", "--password", "pw"],
      home: home)
    #expect(login.status == 1)
    let status = try await serverbee(["status"], home: home)
    #expect(status.stdout.contains("interrupted sign-ins:  1"), "\(status.stdout)")
    #expect(status.stdout.contains("http://127.0.0.1:9 as ada at "))
    #expect(status.stdout.contains("removed after the next sign-in there to the same account"))
    let json = try await serverbee(["status", "--json"], home: home)
    #expect(json.stdout.contains(#""interrupted_sign_ins":[{"server":"http://127.0.0.1:9""#))
    #expect(!json.stdout.contains("pw\""))
  }

  @Test func offlineLogoutWithoutAConfirmedProofSaysItNeedsTheServer() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    do {
      // A login that never refreshed: no deletion proof the server confirmed.
      let console = Console(
        stdoutIsTerminal: false, stderrIsTerminal: false, stdinIsTerminal: false, json: true)
      let session = try ClientSession.open(home: home, console: console)
      _ = try await session.auth.login(
        server: simulator.url, username: "admin", password: "admin-password")
    }
    await simulator.stop()
    let logout = try await serverbee(["logout"], home: home)
    #expect(logout.status == 1)
    #expect(logout.stderrLines.count == 1)
    #expect(
      logout.stderr.hasPrefix(
        "serverbee: this session can only be signed out online: the server never confirmed a "
          + "deletion proof for it"), "\(logout.stderr)")
    #expect(
      logout.stderr.contains("run 'serverbee logout' again when \(simulator.url) is reachable"))
    let status = try await serverbee(["status", "--json"], home: home)
    #expect(status.stdout.contains(#""session":"signed_in""#), "kept, as the message says")
  }
}
