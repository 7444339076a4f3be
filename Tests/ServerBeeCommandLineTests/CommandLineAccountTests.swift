import AuthSession
import Foundation
import ServerBeeTestHarness
import ServerBeeTransport
import Testing

@testable import ServerBeeCommandLine

/// `serverbee pair-code`, `recover` and terminal prompts, run as built executables against the built
/// simulator.
@Suite struct CommandLineAccountTests {
  @Test func aPairCodeFromOneClientPairsAnother() async throws {
    let temporary = try TemporaryDirectory()
    let first = temporary.url.appendingPathComponent("first")
    let second = temporary.url.appendingPathComponent("second")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let paired = try await serverbee(["pair", try await simulator.pairingPayload()], home: first)
    #expect(paired.status == 0, "\(paired.stderr)")

    let code = try await serverbee(["pair-code", "--json"], home: first)
    #expect(code.status == 0, "\(code.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(code.stdout.utf8))
    let qrText = try #require((document as? [String: Any])?["qr_text"] as? String)
    #expect(qrText.hasPrefix(#"{"type":"serverbee_pair","server_url":"\#(simulator.url)""#))

    let other = try await serverbee(["pair", qrText], home: second)
    #expect(other.status == 0, "\(other.stderr)")
    #expect(other.stdout.contains("Paired as ada (member)"))
    let devices = try await serverbee(["devices", "--json"], home: second)
    let list = try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [Any]
    #expect(list?.count == 2)
  }

  @Test func recoverWithThePasswordClearsASessionTheServerRejected() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    // A login that never refreshed holds no confirmed deletion proof, so a rejection moves it to
    // recovery (the command line itself always confirms one right after signing in).
    let console = Console(
      stdoutIsTerminal: false, stderrIsTerminal: false, stdinIsTerminal: false, json: true)
    do {
      let session = try ClientSession.open(home: home, console: console)
      let outcome = try await session.auth.login(
        server: simulator.url, username: "admin", password: "admin-password")
      guard case .signedIn(let identity) = outcome else {
        Issue.record("login answered \(outcome)")
        return
      }
      let sessionID = try #require(identity.mobileSessionID)
      _ = try await simulator.control("DELETE", "/__simulator/mobile-sessions/\(sessionID)")
      await #expect(throws: AuthSessionError.self) { try await session.auth.refresh() }
      #expect(session.auth.currentState == .recoveryRequired(identity))
    }

    let refused = try await serverbee(["servers"], home: home)
    #expect(refused.status == 1)
    #expect(
      refused.stderr == "serverbee: the server rejected this session: run 'serverbee recover'\n")

    let recovered = try await serverbee(
      ["recover", "--password", "admin-password", "--json"], home: home)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(recovered.stdout == #"{"outcome":"already_absent"}"# + "\n")
    let status = try await serverbee(["status", "--json"], home: home)
    #expect(status.stdout.hasPrefix(#"{"home":"\#(home.path)","session":"signed_out""#))
  }

  @Test func recoverWithNothingToRecoverSaysSoAndExitsZero() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let text = try await serverbee(["recover"], home: home)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout == "Nothing to recover: no session is stored here.\n")
    let json = try await serverbee(["recover", "--json"], home: home)
    #expect(json.status == 0)
    #expect(json.stdout == #"{"outcome":"nothing_to_recover"}"# + "\n")
  }

  @Test func loginOnATerminalAsksForTheMissingPasswordWithoutEcho() async throws {
    let temporary = try TemporaryDirectory()
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let executable = try BuiltExecutables.url("serverbee").path
    let home = temporary.url.appendingPathComponent("home").path
    let (status, transcript) = try await PseudoTerminal.run(
      "'\(executable)' --home '\(home)' login --server \(simulator.url)",
      answers: [("User name: ", "admin"), ("Password: ", "admin-password")])
    #expect(status == 0, "\(transcript)")
    #expect(transcript.contains("Signed in as admin (admin)"))
    #expect(!transcript.contains("admin-password"))
  }

  @Test func anAccountWithTwoFactorNeedsTheCodeWhenThereIsNoTerminal() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    _ = try await simulator.control(
      "POST", "/__simulator/users",
      [
        "username": "grace", "password": "pw", "role": "member",
        "totp_secret": "JBSWY3DPEHPK3PXP",
      ])
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "grace", "--password", "pw"], home: home)
    #expect(login.status == 64)
    #expect(login.stderr == "serverbee: missing --totp (no terminal to ask on)\n")
    let wrongCode = try await serverbee(
      [
        "login", "--server", simulator.url, "--username", "grace", "--password", "pw", "--totp",
        "000000",
      ], home: home)
    #expect(wrongCode.status == 1)
    #expect(wrongCode.stderrLines.count == 1)
    #expect(wrongCode.stderr == "serverbee: the user name, password or TOTP code is wrong\n")
    let status = try await serverbee(["status", "--json"], home: home)
    #expect(status.stdout.contains(#""session":"signed_out""#))
  }
}
