import Foundation
import ServerBeeModels
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

  /// A server's authority as `serverbee servers --json` prints it: `agent_authority.status`,
  /// `has_token`, the open offer, and whether `outstanding_enrollment` is that same offer.
  private func authority(of serverID: String, home: URL) async throws -> (
    status: String?, hasToken: Bool?, offer: [String: Any]?, sameOffer: Bool
  ) {
    let listed = try await serverbee(["servers", "--json"], home: home)
    #expect(listed.status == 0, "\(listed.stderr)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    let row = try #require(rows.first { $0["id"] as? String == serverID }, "\(listed.stdout)")
    let authority = try #require(row["agent_authority"] as? [String: Any], "\(row)")
    let offer = authority["outstanding_offer"] as? [String: Any]
    let enrollment = row["outstanding_enrollment"] as? [String: Any]
    let same =
      offer.map { NSDictionary(dictionary: $0) } == enrollment.map { NSDictionary(dictionary: $0) }
    return (authority["status"] as? String, row["has_token"] as? Bool, offer, same)
  }

  /// One step a watcher of the live stream follows, as the test expects it.
  private enum Step: Equatable, CustomStringConvertible {
    /// `agent_authority_changed`: claimed or not, and the open code's prefix.
    case authority(claimed: Bool, offer: String?)
    /// `upgrade_progress` at a stage.
    case progress(UpgradeStage)
    /// `upgrade_result`: status, stage and error.
    case result(UpgradeStatus, UpgradeStage?, String?)
    /// A frame of another server.
    case elsewhere(String)

    var description: String {
      switch self {
      case .authority(let claimed, let offer):
        "authority(\(claimed ? "claimed" : "unclaimed"), \(offer ?? "no offer"))"
      case .progress(let stage): "progress(\(stage.rawValue))"
      case .result(let status, let stage, let error):
        "result(\(status.rawValue), \(stage?.rawValue ?? "-"), \(error ?? "-"))"
      case .elsewhere(let frame): "elsewhere(\(frame))"
      }
    }
  }

  /// The steps as a watcher saw them, for `serverID` only (a frame for another server fails
  /// the comparison), with each upgrade's job id and target.
  private func steps(_ frames: [LiveStreamMessage], serverID: String) -> (
    [Step], jobs: [String], versions: [String]
  ) {
    var steps: [Step] = []
    var jobs: [String] = []
    var versions: [String] = []
    for frame in frames {
      switch frame {
      case .agentAuthorityChanged(let change) where change.serverID == serverID:
        steps.append(
          .authority(
            claimed: change.agentAuthority.status == .claimed,
            offer: change.agentAuthority.outstandingOffer?.codePrefix))
      case .upgradeProgress(let progress) where progress.serverID == serverID:
        steps.append(.progress(progress.stage))
        if jobs.last != progress.jobID { jobs.append(progress.jobID) }
        versions.append(progress.targetVersion)
      case .upgradeResult(let result) where result.serverID == serverID:
        steps.append(.result(result.status, result.stage, result.error))
        if jobs.last != result.jobID { jobs.append(result.jobID) }
        versions.append(result.targetVersion)
      default:
        steps.append(.elsewhere("\(frame)"))
      }
    }
    return (steps, jobs, versions)
  }

  /// A server's whole life through the command line (Protocol/Agents.md §2–§11), watched by a
  /// second client: added with a short code, the same request replayed (no new code), the code
  /// replaced and revoked, a code that lapses on the simulator clock (advanced through the
  /// control API) and is then refused, a new code, the agent enrolling, re-enrolment, an
  /// upgrade followed live to its result and one that fails, the open code revoked without
  /// naming it, the agent revoked, the server deleted. Meanwhile the SDK's live stream, signed
  /// in with an API key, records every `agent_authority_changed`, `upgrade_progress` and
  /// `upgrade_result`: after each command the next frames must be exactly that command's, for
  /// that server, in order.
  @Test func aServersLifecycleFromAddingToAnUpgradeToDeletingAsASecondClientSeesIt()
    async throws
  {
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

    // The second client: the SDK's stream on an API key, connected before the first step.
    let keyFile = temporary.url.appendingPathComponent("observer.key").path
    let created = try await run(["account", "api-keys", "create", "observer", "--output", keyFile])
    #expect(created.status == 0, "\(created.stderr)")
    let key = try String(contentsOfFile: keyFile, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let observer = try await LiveStepRecorder(server: simulator.url, apiKey: key)
    var serverID = ""
    var jobs: [String] = []
    /// The next frames the observer saw are exactly `expected`, for the server.
    func observed(
      _ expected: [Step], version: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
      let frames = await observer.next(expected.count)
      let seen = steps(frames, serverID: serverID)
      #expect(seen.0 == expected, sourceLocation: sourceLocation)
      jobs += seen.jobs
      if let version {
        #expect(seen.versions.allSatisfy { $0 == version }, sourceLocation: sourceLocation)
      }
    }

    let added = try await run(
      ["servers", "add", "edge-9", "--request-id", "req-9", "--ttl", "60"])
    #expect(added.status == 0, "\(added.stderr)")
    let first = try code(in: added.stdout)
    let idLine = try #require(added.stdout.split(separator: "\n").first)
    serverID = String(idLine.dropFirst("Added edge-9 (id ".count).dropLast(2))
    await observed([.authority(claimed: false, offer: String(first.prefix(8)))])
    // `servers --json` (the live stream merged with the REST list) shows the authority.
    let pending = try await authority(of: serverID, home: home)
    #expect(pending.status == "unclaimed" && pending.hasToken == false)
    #expect(pending.offer?["code_prefix"] as? String == String(first.prefix(8)))
    #expect(pending.offer?["id"] is String && pending.offer?["expires_at"] is String)
    #expect(pending.sameOffer, "outstanding_enrollment is agent_authority.outstanding_offer")

    // The same request again adds nothing, shows no code and changes nothing (the next frame
    // the observer sees is the replacement's).
    let again = try await run(
      ["servers", "add", "edge-9", "--request-id", "req-9", "--ttl", "60"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("was added before by this request"), "\(again.stdout)")
    #expect(!again.stdout.contains(first))
    let replaced = try await run(["agent", "replace", "edge-9"])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let second = try code(in: replaced.stdout)
    #expect(second != first)
    await observed([.authority(claimed: false, offer: String(second.prefix(8)))])

    // The list names the open code, so revoke-code needs no --offer; then none is open.
    let revokedFirst = try await run(["agent", "revoke-code", "edge-9"])
    #expect(revokedFirst.status == 0, "\(revokedFirst.stderr)")
    #expect(revokedFirst.stdout.hasPrefix("Revoked code "), "\(revokedFirst.stdout)")
    #expect(!revokedFirst.stdout.contains(second))
    await observed([.authority(claimed: false, offer: nil)])
    let none = try await run(["agent", "revoke-code", "edge-9"])
    #expect(none.status != 0)
    #expect(
      none.stderr.contains("edge-9 shows no open code; give its id with --offer if you have it"),
      "\(none.stderr)")

    // A code that lapses on the simulator clock: the lapse is broadcast; the code is refused
    // to the agent and gone from the list.
    let short = try await run(["agent", "code", "edge-9", "--ttl", "30"])
    #expect(short.status == 0, "\(short.stderr)")
    let lapsing = try code(in: short.stdout)
    await observed([.authority(claimed: false, offer: String(lapsing.prefix(8)))])
    _ = try await simulator.control("POST", "/__simulator/clock/advance", ["seconds": 31])
    await observed([.authority(claimed: false, offer: nil)])
    await #expect(throws: (any Error).self) {
      _ = try await simulator.control(
        "POST", "/__simulator/servers/\(serverID)/enroll", ["code": lapsing])
    }
    let expired = try await run(["agent", "revoke-code", "edge-9"])
    #expect(expired.stderr.contains("edge-9 shows no open code"), "\(expired.stderr)")

    // A new code (allowed: the lapsed one is not open); the agent uses it.
    let fresh = try await run(["agent", "code", "edge-9"])
    #expect(fresh.status == 0, "\(fresh.stderr)")
    let freshCode = try code(in: fresh.stdout)
    await observed([.authority(claimed: false, offer: String(freshCode.prefix(8)))])
    _ = try await simulator.control(
      "POST", "/__simulator/servers/\(serverID)/enroll", ["code": freshCode])
    await observed([.authority(claimed: true, offer: nil)])

    // Re-enrolment keeps the agent; its code is the open one until revoked.
    let reenrolled = try await run(["agent", "reenrol", "edge-9"])
    #expect(reenrolled.status == 0, "\(reenrolled.stderr)")
    let reenrolCode = try code(in: reenrolled.stdout)
    await observed([.authority(claimed: true, offer: String(reenrolCode.prefix(8)))])
    let holding = try await authority(of: serverID, home: home)
    #expect(holding.status == "claimed" && holding.hasToken == true)
    #expect(holding.offer?["code_prefix"] as? String == String(reenrolCode.prefix(8)))
    #expect(holding.sameOffer)

    // The upgrade, followed live: each stage, then the result, as the observer saw them too.
    let upgraded = try await run(["servers", "upgrade", "edge-9", "--watch", "--timeout", "60"])
    #expect(upgraded.status == 0, "\(upgraded.stderr)")
    #expect(
      upgraded.stdout == """
        Upgrading the agent of edge-9 to 1.5.0…
          [1/5] downloading
          [2/5] verifying
          [3/5] pre_flight
          [4/5] installing
          [5/5] restarting
        Upgraded the agent of edge-9 to 1.5.0.

        """, "\(upgraded.stdout)")
    await observed(
      [
        .progress(.downloading), .progress(.verifying), .progress(.preFlight),
        .progress(.installing), .progress(.restarting),
        .result(.succeeded, .restarting, nil),
      ], version: "1.5.0")
    let unknown = try await run(["servers", "upgrade", "edge-9", "--version", "9.9.9", "--watch"])
    #expect(unknown.status != 0)
    #expect(
      unknown.stderr.hasSuffix(
        "the upgrade of edge-9 to 9.9.9 failed at downloading: release v9.9.9 not found\n"),
      "\(unknown.stderr)")
    await observed(
      [.progress(.downloading), .result(.failed, .downloading, "release v9.9.9 not found")],
      version: "9.9.9")
    #expect(jobs.count == 2 && Set(jobs).count == 2, "one job per upgrade: \(jobs)")
    let latest = try await run(["servers", "upgrade", "edge-9", "--version", "latest"])
    #expect(latest.status == 64)
    #expect(latest.stderr.contains("'latest' is not a version the server accepts"))

    // The re-enrolment's code, revoked without --offer; the agent revoked; the server deleted.
    let revokedCode = try await run(["agent", "revoke-code", "edge-9"])
    #expect(revokedCode.status == 0, "\(revokedCode.stderr)")
    await observed([.authority(claimed: true, offer: nil)])
    let revoked = try await run(["agent", "revoke", "edge-9", "--yes"])
    #expect(revoked.stdout == "Revoked the agent of edge-9: it is unclaimed, with no open code.\n")
    await observed([.authority(claimed: false, offer: nil)])
    let offline = try await run(["servers", "upgrade", "edge-9", "--watch"])
    #expect(offline.status != 0)
    #expect(
      offline.stderr.contains("the agent of edge-9 is not connected, so it cannot upgrade"),
      "\(offline.stderr)")
    let deleted = try await run(["servers", "delete", "edge-9", "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout.hasPrefix("Deleted edge-9 (id \(serverID))"), "\(deleted.stdout)")

    // Nothing more for edge-9: the next frame the observer sees is another server's, added
    // after the refusals and the deletion.
    let barrier = try await run(["servers", "add", "edge-10"])
    #expect(barrier.status == 0, "\(barrier.stderr)")
    let next = await observer.next(1)
    guard case .agentAuthorityChanged(let change) = next.first else {
      Issue.record("no frame for edge-10: \(next)")
      await observer.stop()
      return
    }
    #expect(change.serverID != serverID)
    #expect(barrier.stdout.hasPrefix("Added edge-10 (id \(change.serverID))."), "\(barrier.stdout)")
    await observer.stop()
  }
}
