import Foundation
import ServerBeeTestHarness
import Testing

/// Runs the built `serverbee` against the built `serverbee-simulator`, as a user would.
@Suite struct CommandLineEndToEndTests {
  /// Runs `serverbee` with `--home` and the given arguments.

  /// Whether a `serverbee` output file in `directory` holds a JSON frame whose `connection` is
  /// `state` (`ChildProcess` writes each run's standard output to a file there).
  private static func someOutput(in directory: URL, showsConnection state: String) -> Bool {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".out") }.contains { file in
      let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))
      return (text ?? "").split(separator: "\n").contains { line in
        let frame = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return frame?["connection"] as? String == state
      }
    }
  }

  private func jsonArray(_ text: String) throws -> [[String: Any]] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [[String: Any]])
  }

  @Test func pairServersWatchAlertsAndLogoutAgainstTheSimulator() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 3)
    defer { simulator.terminate() }

    let paired = try await serverbee(["pair", try await simulator.pairingPayload()], home: home)
    #expect(paired.status == 0, "\(paired.stderr)")
    #expect(paired.stdout.contains("Paired as ada (member) on \(simulator.url)"))

    let servers = try await serverbee(["servers", "--json"], home: home)
    #expect(servers.status == 0, "\(servers.stderr)")
    let rows = try jsonArray(servers.stdout)
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { $0["online"] as? Bool == true && ($0["mem_total"] as? Int ?? 0) > 0 })
    let serverID = try #require(rows.first?["id"] as? String)

    let watch = try await serverbee(["watch", "--once", "--json"], home: home)
    #expect(watch.status == 0, "\(watch.stderr)")
    let lines = watch.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    let snapshot = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8))
    let snapshotServers = (snapshot as? [String: Any])?["servers"] as? [[String: Any]]
    #expect(snapshotServers?.count == 3)

    _ = try await simulator.control(
      "POST", "/__simulator/alerts/fire", ["server_id": serverID, "rule_name": "High CPU"])
    let alerts = try await serverbee(["alerts", "--json"], home: home)
    #expect(alerts.status == 0, "\(alerts.stderr)")
    let events = try jsonArray(alerts.stdout)
    #expect(events.map { $0["rule_name"] as? String } == ["High CPU"])
    #expect(events.first?["status"] as? String == "firing")

    let devices = try await serverbee(["devices", "--json"], home: home)
    #expect(try jsonArray(devices.stdout).count == 1)

    let logout = try await serverbee(["logout", "--json"], home: home)
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stdout == #"{"outcome":"completed"}"# + "\n")

    let afterwards = try await serverbee(["servers"], home: home)
    #expect(afterwards.status == 1)
    #expect(afterwards.stderrLines.count == 1)
    #expect(afterwards.stderr.hasPrefix("serverbee: not signed in"))
  }

  @Test func watchWithADurationAppendsJSONSnapshotsAndStops() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 2)
    defer { simulator.terminate() }
    let paired = try await serverbee(["pair", try await simulator.pairingPayload()], home: home)
    #expect(paired.status == 0, "\(paired.stderr)")

    let watch = try await serverbee(
      ["watch", "--duration", "2", "--interval", "1", "--json"], home: home)
    #expect(watch.status == 0, "\(watch.stderr)")
    let lines = watch.stdout.split(separator: "\n")
    #expect((2...3).contains(lines.count), "\(watch.stdout)")
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect((object?["servers"] as? [Any])?.count == 2)
      #expect(object?["server"] as? String == simulator.url)
    }
  }

  @Test func watchShowsTheConnectionGoingFromLiveToReconnecting() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 1)
    defer { simulator.terminate() }
    let paired = try await serverbee(["pair", try await simulator.pairingPayload()], home: home)
    #expect(paired.status == 0, "\(paired.stderr)")
    let watch = Task {
      try await serverbee(["watch", "--duration", "10", "--interval", "1", "--json"], home: home)
    }
    // Stop the server once the watch has shown it live (a first frame in its output file), not
    // after a fixed wait that a loaded machine can outlast before the watch even connects.
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !Self.someOutput(in: temporary.url, showsConnection: "live"),
      ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(50))
    }
    await simulator.stop()
    let result = try await watch.value
    #expect(result.status == 0, "\(result.stderr)")
    let frames = try result.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(frames.first?["connection"] as? String == "live")
    #expect(!(frames.first?["offline_since"] is String))
    let last = try #require(frames.last)
    #expect(["reconnecting", "offline"].contains(last["connection"] as? String), "\(last)")
    #expect(last["offline_since"] is String)

    let text = try await serverbee(["watch", "--once"], home: home)
    #expect(text.status == 1, "the server is gone: no first sync")
  }

  @Test func logoutWhileTheServerIsDownIsFinishedAfterItRestarts() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let data = temporary.url.appendingPathComponent("data")
    let first = try await SimulatorProcess(data: data, servers: 1)
    defer { first.terminate() }
    let paired = try await serverbee(["pair", try await first.pairingPayload()], home: home)
    #expect(paired.status == 0, "\(paired.stderr)")
    let port = first.port
    await first.stop(releasingPort: true)

    let logout = try await serverbee(["logout", "--json"], home: home)
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stdout == #"{"outcome":"pending_cleanup"}"# + "\n")
    let queued = try await serverbee(["status", "--json"], home: home)
    #expect(queued.stdout.contains(#""session":"signed_out""#))
    #expect(queued.stdout.contains(#""mobile_session_id""#))

    let second = try await SimulatorProcess(port: port, data: data)
    defer { second.terminate() }
    let status = try await serverbee(["status", "--json"], home: home)
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains(#""pending_cleanups":[]"#))
    #expect(status.stderr.contains("finished the queued sign-out from \(second.url)"))
  }

  @Test func demoRunsEveryStepAndExitsZero() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let demo = try await serverbee(["demo", "--duration", "3"], home: home, timeout: 120)
    #expect(demo.status == 0, "\(demo.stderr)")
    #expect(demo.stdout.contains(#""type":"serverbee_pair""#))
    #expect(demo.stdout.contains("12 servers, 10 online"))
    #expect(demo.stdout.contains("Signed out: the server revoked the session."))
    #expect(demo.stdout.contains("✓ a request with the old access token now gets HTTP 401"))
    #expect(demo.stdout.contains("✓ the account's devices: 2 → 1"))
    // The push path: each push received through the relay's device stream, decrypted here.
    let expected = [
      "    Before you turn on notifications: what the relay and Apple can see",
      "    ✓ recorded as read (ServerBeeClient.pushPrivacyNotice)",
      "    APNs accepted the notification. Device presentation has not been observed.",
      "      en  Test notification: Your encrypted ServerBee notification is ready.",
      "      en  Alert triggered: Load above 8 on api-iad-1",
      "      zh  告警已触发: Load above 8（api-iad-1）",
      "      en  Alert recovered: Load above 8 on api-iad-1",
      "      zh  告警已恢复: Load above 8（api-iad-1）",
      "      en  Task run failed: Targets: 3. Failed: 1. Timed out: 0. Offline: 0. Denied: 0.",
      "      zh  任务运行失败: 目标：3。失败：1。超时：0。离线：0。拒绝执行：0。",
      "      en  Security rule matched: An SSH login from a new IP matched a security rule.",
      "      zh  安全规则已匹配: 来自新 IP 的 SSH 登录匹配了安全规则。",
      "    → opens the alert detail: Load above 8 on api-iad-1, resolved, triggered 1×",
      "    ✓ the relay saw ciphertext only: 5 payloads, ",
    ]
    for line in expected {
      #expect(demo.stdout.contains(line), "\(line)")
    }
    #expect(!demo.stdout.contains("sb-"), "no credential is printed")
  }

  @Test func usageErrorsExit64WithOneLineOnStderr() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    for arguments in [
      ["watch", "--bogus"], ["pair"], ["frobnicate"], ["--json"], ["login", "--server"],
    ] {
      let result = try await serverbee(arguments, home: home)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
    }
  }

  @Test func loginWithoutATerminalAndWithoutAPasswordIsAUsageError() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let result = try await serverbee(
      ["login", "--server", "http://127.0.0.1:9", "--username", "ada"], home: home)
    #expect(result.status == 64)
    #expect(result.stderr == "serverbee: missing --password (no terminal to ask on)\n")
  }

  @Test func aRefusedConnectionIsOneReadableLineWithoutSecrets() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let result = try await serverbee(
      ["login", "--server", "http://127.0.0.1:9", "--username", "ada", "--password", "hunter2"],
      home: home)
    #expect(result.status == 1)
    #expect(result.stderrLines.count == 1)
    #expect(result.stderr.hasPrefix("serverbee: cannot reach the server"))
    #expect(!result.stderr.contains("hunter2"))
  }

  @Test func helpIsAvailableForEveryCommand() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let global = try await serverbee(["--help"], home: home)
    #expect(global.status == 0)
    for command in [
      "demo", "login", "pair", "servers", "watch", "alerts", "devices", "tasks", "security",
      "open", "logout", "recover", "status", "notifications", "push",
    ] {
      #expect(global.stdout.contains("  \(command) "))
      let help = try await serverbee([command, "--help"], home: home)
      #expect(help.status == 0)
      #expect(help.stdout.hasPrefix("usage: serverbee \(command)"))
    }
  }

  @Test func aClosedStdoutEndsTheProgramQuietly() async throws {
    let temporary = try TemporaryDirectory()
    let stdout = Pipe()
    try stdout.fileHandleForReading.close()
    let process = Process()
    process.executableURL = try BuiltExecutables.url("serverbee")
    process.arguments = ["--home", temporary.url.path, "--help"]
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    await process.exited()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
  }
}
