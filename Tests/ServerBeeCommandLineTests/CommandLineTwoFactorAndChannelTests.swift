import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee account 2fa …` and `serverbee channels …`, run as built executables
/// against the built simulator. The TOTP codes are computed by Python's standard library, a
/// peer independent of the simulator's own TOTP.
@Suite(.timeLimit(.minutes(5))) struct CommandLineTwoFactorAndChannelTests {
  /// The RFC 6238 code of `secret` now (SHA-1, 6 digits, 30 s), by Python's `hmac`.
  private func totp(_ secret: String, scratch: URL) async throws -> String {
    let script = """
      import base64, hmac, struct, sys, time
      key = base64.b32decode(sys.argv[1] + "=" * (-len(sys.argv[1]) % 8))
      digest = hmac.new(key, struct.pack(">Q", int(time.time()) // 30), "sha1").digest()
      offset = digest[19] & 15
      print("%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1000000))
      """
    let run = try await ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, secret], scratch: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func setupEnableWithATOTPThenSignInNeedsTheCodeThenDisable() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let other = temporary.url.appendingPathComponent("other")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let login = ["login", "--server", simulator.url, "--username", "admin"]
    let first = try await serverbee(login + ["--password", "admin-password"], home: home)
    #expect(first.status == 0, "\(first.stderr)")

    let off = try await serverbee(["account", "2fa", "status"], home: home)
    #expect(off.stdout == "Two-factor sign-in is off for this account.\n")

    // Setup draws the otpauth:// QR and prints the secret; --json gives both to a script.
    let drawn = try await serverbee(["account", "2fa", "setup"], home: home)
    #expect(drawn.status == 0, "\(drawn.stderr)")
    #expect(drawn.stdout.contains("▀") || drawn.stdout.contains("█"))
    #expect(drawn.stdout.contains("Then, within 10 minutes: serverbee account 2fa enable"))
    let setup = try await serverbee(["--json", "account", "2fa", "setup"], home: home)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(setup.stdout.utf8)) as? [String: Any])
    let secret = try #require(object["secret"] as? String)
    #expect(
      object["otpauth_url"] as? String
        == "otpauth://totp/ServerBee:admin?secret=\(secret)&issuer=ServerBee")

    // A wrong code is the code's fault, never the session's: the login stays.
    let wrong = try await serverbee(["account", "2fa", "enable", "--code", "000000"], home: home)
    #expect(wrong.status == 1)
    #expect(wrong.stderr.hasPrefix("serverbee: the code is not the current one"))
    #expect(try await serverbee(["status"], home: home).stdout.contains("signed in"))

    let code = try await totp(secret, scratch: temporary.url)
    let enabled = try await serverbee(["account", "2fa", "enable", "--code", code], home: home)
    #expect(enabled.status == 0, "\(enabled.stderr)")
    #expect(enabled.stdout == "Two-factor sign-in is on: every new sign-in now asks for a code.\n")

    // A new sign-in needs the code now.
    let refused = try await serverbee(login + ["--password", "admin-password"], home: other)
    #expect(refused.status != 0)
    let withCode = try await serverbee(
      login + [
        "--password", "admin-password", "--totp", try await totp(secret, scratch: temporary.url),
      ],
      home: other)
    #expect(withCode.status == 0, "\(withCode.stderr)")

    let disabled = try await serverbee(
      ["account", "2fa", "disable", "--password", "admin-password", "--yes"], home: home)
    #expect(disabled.stdout == "Two-factor sign-in is off.\n", "\(disabled.stderr)")
    let again = try await serverbee(
      login + ["--password", "admin-password"],
      home: temporary.url.appendingPathComponent("third"))
    #expect(again.status == 0, "\(again.stderr)")
  }

  @Test func channelsListWithoutSecretsToggleAndTestWithTheChannelsOwnFailure() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let secretURL = "https://hooks.example.com/T0k3n-SECRET"
    _ = try await simulator.control(
      "POST", "/__simulator/notification-channels",
      ["id": "c1", "name": "Ops", "config_json": #"{"url":"\#(secretURL)"}"#])
    _ = try await simulator.control(
      "POST", "/__simulator/notification-channels",
      [
        "id": "c2", "name": "Pager", "enabled": false,
        "test_failure": "Webhook request failed: connection refused\u{1B}[2J",
      ])
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")

    let list = try await serverbee(["channels"], home: home)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Ops") && list.stdout.contains("webhook"))
    let json = try await serverbee(["--json", "channels"], home: home)
    #expect(json.stdout.contains(#""notify_type":"webhook""#))
    // The configuration holds secrets: never printed, in either form.
    #expect(!list.stdout.contains("T0k3n") && !json.stdout.contains("T0k3n"))
    #expect(!json.stdout.contains("config_json"))

    let enabled = try await serverbee(["channels", "enable", "c2"], home: home)
    #expect(enabled.stdout == "Channel Pager is enabled (id c2).\n", "\(enabled.stderr)")
    let tested = try await serverbee(["channels", "test", "c1"], home: home)
    #expect(tested.stdout == "Test notification sent through channel c1.\n", "\(tested.stderr)")
    #expect(
      try await simulator.control("GET", "/__simulator/notification-channels/c1")["tests"] as? Int
        == 1)

    // The delivery failure is the channel's own sentence, without control characters.
    let failed = try await serverbee(["channels", "test", "c2"], home: home)
    #expect(failed.status == 1)
    #expect(
      failed.stderr.hasPrefix(
        "serverbee: the channel could not deliver the test: Webhook request failed: "
          + "connection refused"))
    #expect(!failed.stderr.contains("\u{1B}"))
    let unknown = try await serverbee(["channels", "disable", "nope", "--yes"], home: home)
    #expect(
      unknown.stderr == "serverbee: no notification channel 'nope' (see 'serverbee channels')\n")
  }
}
