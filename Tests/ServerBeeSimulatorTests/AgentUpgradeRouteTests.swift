import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Upgrading an agent (Protocol/Agents.md §11): the refusals in their documented order with
/// their exact statuses and texts, the run as a state machine on the simulator clock with its
/// `upgrade_progress` and `upgrade_result` frames, and the documented ways it fails. Each test
/// has a simulator of its own.
@Suite(.timeLimit(.minutes(5))) struct AgentUpgradeRouteTests {
  private struct World {
    let h: Harness
    let admin: String
    let member: String
    /// A seeded server: claimed, online, agent 1.4.0.
    let server: String
  }

  private func world() async throws -> World {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("mo", role: "member")
    let admin = try #require(await h.login("ada", installation: "INST-A").1).access
    let member = try #require(await h.login("mo", installation: "INST-M").1).access
    let server = try #require(
      await h.control(.post, "/servers", ["name": "vps-a"])?["data"]?["id"]?.stringValue)
    return World(h: h, admin: admin, member: member, server: server)
  }

  private func upgrade(_ w: World, _ body: String, server: String? = nil, as token: String? = nil)
    async -> Harness.Reply
  {
    await w.h.send(
      .post, "/api/servers/\(server ?? w.server)/upgrade", raw: Data(body.utf8),
      bearer: token ?? w.admin)
  }

  /// The frames broadcast since the last call, decoded.
  private func frames(_ subscriber: LiveHub.Subscriber) async throws -> [LiveStreamMessage] {
    let result = await subscriber.next(timeout: 1)
    return try result.frames.map { try WireJSON.decode(LiveStreamMessage.self, from: $0) }
  }

  @Test func theRefusalsComeInTheirDocumentedOrder() async throws {
    let w = try await world()
    let db = w.h.simulator.core.db

    let member = await upgrade(w, #"{"version":"1.5.0"}"#, as: w.member)
    #expect(member.status == 403 && member.body.isEmpty)
    let missing = await upgrade(w, "{}")
    #expect(missing.status == 422)
    #expect(missing.text.contains("missing field `version`"), "\(missing.text)")

    // 1: an unknown server, before the version is looked at.
    let unknown = await upgrade(w, #"{"version":"latest"}"#, server: "nope")
    #expect(unknown.status == 404 && unknown.code == "NOT_FOUND")
    #expect(unknown.message == "Not found: Server not found")

    // 2: the upgrade capability off, before the version; audited as denied.
    try db.execute("UPDATE servers SET capabilities = 1848 WHERE id = ?", [.text(w.server)])
    let disabled = await upgrade(w, #"{"version":"latest"}"#)
    #expect(disabled.status == 403 && disabled.code == "FORBIDDEN")
    #expect(disabled.message == "Forbidden: agent_capability_disabled")
    #expect(
      try db.scalar(
        "SELECT COUNT(*) FROM audit_logs WHERE action = 'server_upgrade_denied' AND detail = ?",
        [.text(w.server)]
      ).int == 1)
    try db.execute("UPDATE servers SET capabilities = 1852 WHERE id = ?", [.text(w.server)])

    // 3: not SemVer ("latest" included), before the agent's presence.
    try w.h.simulator.core.db.serial {
      try w.h.simulator.core.setPresence(serverID: w.server, online: false)
    }
    for version in ["latest", "1.5", "01.5.0", "1.5.0-", "v", "1.5.0+a..b"] {
      let bad = await upgrade(w, #"{"version":"\#(version)"}"#)
      #expect(bad.status == 400 && bad.code == "BAD_REQUEST", "\(version)")
      #expect(bad.message == "Bad request: Invalid version format", "\(version)")
    }

    // 4: the agent offline.
    let offline = await upgrade(w, #"{"version":"v1.5.0"}"#)
    #expect(offline.status == 404 && offline.code == "NOT_FOUND")
    #expect(offline.message == "Not found: Agent not connected")

    // 5: a job running already, named.
    try w.h.simulator.core.db.serial {
      try w.h.simulator.core.setPresence(serverID: w.server, online: true)
    }
    let started = await upgrade(w, #"{"version":"v1.5.0-rc.1+build.7"}"#)
    #expect(started.status == 200 && started.data?.stringValue == "ok", "\(started.text)")
    let job = try #require(w.h.simulator.core.runningUpgrade(w.server))
    #expect(job.targetVersion == "1.5.0-rc.1+build.7")
    let running = await upgrade(w, #"{"version":"1.5.0"}"#)
    #expect(running.status == 409 && running.code == "CONFLICT")
    #expect(
      running.message
        == "Conflict: Upgrade already running for server \(w.server) (job_id=\(job.jobID), "
        + "target_version=1.5.0-rc.1+build.7)")
    #expect(
      try db.scalar(
        "SELECT COUNT(*) FROM audit_logs WHERE action = 'server_upgrade' AND detail = ?",
        [.text(w.server)]
      ).int == 1)
  }

  @Test func anUpgradeMovesThroughItsStagesOnTheClock() async throws {
    let w = try await world()
    let subscriber = w.h.simulator.core.hub.subscribe()
    _ = try await frames(subscriber)
    let reply = await upgrade(w, #"{"version":"v1.5.0"}"#)
    #expect(reply.status == 200)

    // Started: `downloading` at once.
    var seen: [UpgradeStage] = []
    var jobs: Set<String> = []
    func collect() async throws -> UpgradeResult? {
      var result: UpgradeResult?
      for frame in try await frames(subscriber) {
        switch frame {
        case .upgradeProgress(let progress):
          #expect(progress.serverID == w.server && progress.targetVersion == "1.5.0")
          seen.append(progress.stage)
          jobs.insert(progress.jobID)
        case .upgradeResult(let final):
          jobs.insert(final.jobID)
          result = final
        default: break
        }
      }
      return result
    }
    #expect(try await collect() == nil)
    #expect(seen == [.downloading])
    // One stage a second.
    for _ in 0..<4 {
      w.h.clock.advance(by: 1)
      #expect(try await collect() == nil)
    }
    #expect(seen == [.downloading, .verifying, .preFlight, .installing, .restarting])
    let before = await w.h.send(.get, "/api/servers/\(w.server)", bearer: w.member)
    #expect(before.data?["agent_version"]?.stringValue == "1.4.0")

    // The result a second after `restarting`; the agent's version is the new one.
    w.h.clock.advance(by: 1)
    let result = try #require(try await collect())
    #expect(result.status == .succeeded && result.stage == .restarting)
    #expect(result.error == nil && result.backupPath == "/usr/local/bin/serverbee-agent.bak")
    #expect(jobs.count == 1)
    let after = await w.h.send(.get, "/api/servers/\(w.server)", bearer: w.member)
    #expect(after.data?["agent_version"]?.stringValue == "1.5.0")
    #expect(w.h.simulator.core.runningUpgrade(w.server) == nil)
    // A new upgrade may start now.
    #expect(await upgrade(w, #"{"version":"1.4.0"}"#).status == 200)
  }

  @Test func theFramesAreWrittenAsTheContractOrdersTheirKeys() async throws {
    let w = try await world()
    let subscriber = w.h.simulator.core.hub.subscribe()
    _ = await subscriber.next(timeout: 0.1)
    _ = await upgrade(w, #"{"version":"1.5.0"}"#)
    w.h.clock.advance(by: 10)
    let texts = await subscriber.next(timeout: 1).frames.map {
      String(decoding: $0, as: UTF8.self)
    }
    let job = try #require(
      try texts.compactMap { text -> String? in
        guard
          case .upgradeProgress(let p) = try WireJSON.decode(
            LiveStreamMessage.self, from: Data(text.utf8))
        else { return nil }
        return p.jobID
      }.first)
    #expect(
      texts.contains(
        #"{"type":"upgrade_progress","server_id":"\#(w.server)","job_id":"\#(job)","#
          + #""target_version":"1.5.0","stage":"pre_flight"}"#), "\(texts)")
    #expect(
      texts.contains(
        #"{"type":"upgrade_result","server_id":"\#(w.server)","job_id":"\#(job)","#
          + #""target_version":"1.5.0","status":"succeeded","stage":"restarting","error":null,"#
          + #""backup_path":"/usr/local/bin/serverbee-agent.bak"}"#), "\(texts)")
    #expect(
      texts.contains(
        #"{"type":"agent_info_updated","server_id":"\#(w.server)","protocol_version":3,"#
          + #""agent_version":"1.5.0"}"#), "\(texts)")
  }

  @Test func aFullSyncListsTheUpgradesInFlightAsFarAsTheClockMovedThem() async throws {
    let w = try await world()
    let core = w.h.simulator.core
    #expect(try core.fullSync().hasSuffix(#"],"upgrades":[]}"#))
    #expect(await upgrade(w, #"{"version":"v1.5.0"}"#).status == 200)
    let job = try #require(core.runningUpgrade(w.server)).jobID
    // Two seconds in: the job is at `pre_flight`, running, with no end yet.
    w.h.clock.advance(by: 2)
    let started = RFC3339Timestamp(w.h.clock.now.addingTimeInterval(-2)).formatted(.zulu)
    let frame = try core.fullSync()
    #expect(
      frame.hasSuffix(
        #"],"upgrades":[{"server_id":"\#(w.server)","job_id":"\#(job)","#
          + #""target_version":"1.5.0","stage":"pre_flight","status":"running","error":null,"#
          + #""backup_path":null,"started_at":"\#(started)","finished_at":null}]}"#), "\(frame)")
    // The SDK's models read it back as the job in flight.
    guard
      case .fullSync(let sync) = try WireJSON.decode(LiveStreamMessage.self, from: Data(frame.utf8))
    else {
      Issue.record("not a full_sync: \(frame)")
      return
    }
    #expect(sync.upgrades.map(\.jobID) == [job])
    #expect(sync.upgrades.first?.stage == .preFlight && sync.upgrades.first?.status == .running)
    #expect(sync.upgrades.first?.finishedAt == nil)
    // A second job on another server comes after it; a finished job is gone.
    let other = try #require(
      await w.h.control(.post, "/servers", ["name": "vps-b"])?["data"]?["id"]?.stringValue)
    #expect(await upgrade(w, #"{"version":"1.4.0"}"#, server: other).status == 200)
    let both = try WireJSON.decode(LiveStreamMessage.self, from: Data(try core.fullSync().utf8))
    guard case .fullSync(let two) = both else {
      Issue.record("not a full_sync")
      return
    }
    #expect(two.upgrades.map(\.serverID) == [w.server, other])
    #expect(two.upgrades.map(\.stage) == [.preFlight, .downloading])
    w.h.clock.advance(by: 10)
    #expect(try core.fullSync().hasSuffix(#"],"upgrades":[]}"#))
  }

  @Test func aVersionTheReleaseSourceLacksFailsAtDownloading() async throws {
    let w = try await world()
    let subscriber = w.h.simulator.core.hub.subscribe()
    _ = try await frames(subscriber)
    #expect(await upgrade(w, #"{"version":"9.9.9"}"#).status == 200)
    w.h.clock.advance(by: 1)
    let results = try await frames(subscriber).compactMap { frame -> UpgradeResult? in
      if case .upgradeResult(let result) = frame { return result }
      return nil
    }
    let result = try #require(results.first)
    #expect(result.status == .failed && result.stage == .downloading)
    #expect(result.error == "release v9.9.9 not found")
    let server = await w.h.send(.get, "/api/servers/\(w.server)", bearer: w.member)
    #expect(server.data?["agent_version"]?.stringValue == "1.4.0")
  }

  @Test func anAgentCutOffMidwayEndsTheJobFailed() async throws {
    let w = try await world()
    let subscriber = w.h.simulator.core.hub.subscribe()
    _ = try await frames(subscriber)
    #expect(await upgrade(w, #"{"version":"1.5.0"}"#).status == 200)
    w.h.clock.advance(by: 2)
    let revoked = await w.h.send(
      .delete, "/api/servers/\(w.server)/agent-authority", bearer: w.admin)
    #expect(revoked.data?["changed"] == .bool(true))
    w.h.clock.advance(by: 1)
    let results = try await frames(subscriber).compactMap { frame -> UpgradeResult? in
      if case .upgradeResult(let result) = frame { return result }
      return nil
    }
    #expect(results.count == 1)
    #expect(results.first?.status == .failed && results.first?.stage == .preFlight)
    #expect(results.first?.error == "agent disconnected")
  }
}
