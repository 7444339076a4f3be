import Foundation
import ServerBeeModels
import Testing

@Suite struct RealtimeStreamMessageTests {
  @Test func fullSyncBenchSliceDecodesEveryServerAndUpgrade() throws {
    let message = try LiveStreamMessage(
      decoding: Fixtures.data("realtime/full_sync_bench_slice.json"))
    guard case .fullSync(let sync) = message else {
      Issue.record("expected full_sync, got \(message)")
      return
    }
    #expect(sync.servers.count == 4)
    #expect(sync.upgrades.count == 2)
    let first = try #require(sync.servers.first)
    #expect(first.id == "652b142a-bca8-45f5-97f1-1a8ac4abf0ad")
    #expect(first.name == "新加坡-BGP-000")
    #expect(first.online == true)
    #expect(first.lastActive == 1_774_692_930)
    #expect(first.cpu == 28.528587341308594)
    #expect(first.memTotal == 529_199_104)
    #expect(first.features == ["docker"])
    #expect(first.tags == ["monitoring", "web"])
    #expect(first.agentAuthority == AgentAuthority(status: .claimed))
    #expect(first.hasToken == true)

    let unclaimed = sync.servers[1]
    #expect(unclaimed.agentAuthority?.status == .unclaimed)
    let offer = try #require(unclaimed.agentAuthority?.outstandingOffer)
    #expect(offer.codePrefix == "sb_enr_6c3u")
    #expect(offer.expiresAt.formatted(.utcOffset) == "2026-03-28T10:31:43.899524057+00:00")
    #expect(unclaimed.outstandingEnrollment == offer)

    let offline = sync.servers[3]
    #expect(offline.online == false)
    #expect(offline.cpu == 0)

    #expect(sync.upgrades[0].status == .failed)
    #expect(sync.upgrades[0].stage == .installing)
    #expect(sync.upgrades[0].error == "sha256 mismatch")
    #expect(sync.upgrades[1].status == .running)
    #expect(sync.upgrades[1].finishedAt == nil)
  }

  @Test func fullSyncBenchSliceReencodesToTheSameBytes() throws {
    let path = "realtime/full_sync_bench_slice.json"
    #expect(try Fixtures.reencoded(LiveStreamMessage.self, path) == Fixtures.text(path))
  }

  @Test func emptyFullSyncIsAnEmptyFleet() throws {
    let message = try LiveStreamMessage(decoding: Fixtures.data("realtime/full_sync_empty.json"))
    #expect(message == .fullSync(FullSync(servers: [], upgrades: [])))
    #expect(
      try Fixtures.reencoded(LiveStreamMessage.self, "realtime/full_sync_empty.json")
        == Fixtures.text("realtime/full_sync_empty.json"))
  }

  @Test func repeatedFullSyncFramesDecodeIndependently() throws {
    // A lagging client gets another full_sync; each one is a whole, authoritative snapshot.
    let first = try LiveStreamMessage(
      decoding: Fixtures.data("realtime/full_sync_bench_slice.json"))
    let second = try LiveStreamMessage(decoding: Fixtures.data("realtime/full_sync_empty.json"))
    guard case .fullSync(let a) = first, case .fullSync(let b) = second else {
      Issue.record("expected two full_sync frames")
      return
    }
    #expect(a.servers.count == 4)
    #expect(b.servers.isEmpty)
  }

  @Test func fullSyncWithoutUpgradesReadsAsNoUpgrades() throws {
    let message = try LiveStreamMessage(decoding: #"{"type":"full_sync","servers":[]}"#)
    #expect(message == .fullSync(FullSync(servers: [])))
  }

  @Test func nullFloatsInFullSyncDecodeAsNaNAndWriteBackAsNull() throws {
    let path = "realtime/full_sync_edge.json"
    guard case .fullSync(let sync) = try LiveStreamMessage(decoding: Fixtures.data(path)) else {
      Issue.record("expected full_sync")
      return
    }
    let server = try #require(sync.servers.first)
    #expect(server.cpu?.isNaN == true)
    #expect(server.load1?.isNaN == true)
    #expect(server.load5 == 0)
    #expect(server.cpuName == nil)
    #expect(server.cpuCores == nil)
    #expect(try Fixtures.reencoded(LiveStreamMessage.self, path) == Fixtures.text(path))
  }

  @Test func alertEventIsModelledNotDroppedAsUnknown() throws {
    let path = "realtime/alert_event.json"
    let message = try LiveStreamMessage(decoding: Fixtures.data(path))
    #expect(message == .alertEvent(LiveAlertEvent(alertKey: "r1:s1", status: .firing)))
    #expect(message.type == "alert_event")
    #expect(try Fixtures.reencoded(LiveStreamMessage.self, path) == Fixtures.text(path))
  }

  @Test func unknownTypeBecomesUnknownMessage() throws {
    let message = try LiveStreamMessage(
      decoding: #"{"type":"future_thing","alert_key":"r1:s1","status":"firing"}"#)
    guard case .unknown(let unknown) = message else {
      Issue.record("expected .unknown, got \(message)")
      return
    }
    #expect(unknown.type == "future_thing")
    #expect(message.type == "future_thing")
    #expect(unknown.raw["alert_key"] == .string("r1:s1"))
  }

  @Test(arguments: [
    #"{"servers":[],"upgrades":[]}"#,
    #"{"type":null,"servers":[]}"#,
    #"{"type":7}"#,
    #"{}"#,
    #"[1,2,3]"#,
    #""full_sync""#,
  ])
  func missingOrUnusableTypeBecomesUnknownWithoutType(frame: String) throws {
    let message = try LiveStreamMessage(decoding: frame)
    guard case .unknown(let unknown) = message else {
      Issue.record("expected .unknown, got \(message)")
      return
    }
    #expect(unknown.type == nil)
    #expect(unknown.raw == (try WireJSON.decode(JSONValue.self, from: Data(frame.utf8))))
  }

  @Test func missingTypeFixtureIsUnknown() throws {
    let message = try LiveStreamMessage(decoding: Fixtures.data("realtime/missing_type.json"))
    #expect(message.type == nil)
    if case .unknown = message {} else { Issue.record("expected .unknown, got \(message)") }
  }

  @Test func unknownMessageEncodesItsRawJSON() throws {
    let message = LiveStreamMessage.unknown(
      UnknownLiveStreamMessage(
        type: "future", raw: .object([("type", .string("future")), ("n", .number(1))])))
    #expect(
      String(decoding: try WireJSON.encode(message), as: UTF8.self) == #"{"type":"future","n":1}"#)
  }

  @Test func everyOtherMessageTypeDecodesToItsCase() throws {
    let expected: [String] = [
      "server_online", "server_offline", "agent_authority_changed", "agent_authority_changed",
      "capabilities_changed", "capabilities_changed", "security_event", "security_event",
      "agent_info_updated", "agent_info_updated", "upgrade_progress", "upgrade_result",
      "upgrade_result", "network_probe_update", "traceroute_update", "docker_update",
      "docker_event", "docker_availability_changed", "server_ip_changed", "blocklist_changed",
      "firewall_apply_state_changed", "ip_quality_update",
    ]
    let lines = try Fixtures.lines("realtime/messages.jsonl")
    #expect(lines.count == expected.count)
    for (line, type) in zip(lines, expected) {
      let message = try LiveStreamMessage(decoding: line)
      #expect(message.type == type)
      if case .unknown = message { Issue.record("\(type) decoded as .unknown") }
    }
  }

  @Test func typedMessagesReencodeToTheSameBytes() throws {
    // Frames whose payload holds open JSON (Docker, IP quality, traceroute hops) are compared as
    // JSON instead: decoded objects do not keep member order.
    let openPayloads: Set<String> = [
      "docker_update", "docker_event", "ip_quality_update", "traceroute_update",
    ]
    for line in try Fixtures.lines("realtime/messages.jsonl") {
      let message = try LiveStreamMessage(decoding: line)
      let reencoded = String(decoding: try WireJSON.encode(message), as: UTF8.self)
      if openPayloads.contains(message.type ?? "") {
        let a = try WireJSON.decode(JSONValue.self, from: Data(line.utf8))
        let b = try WireJSON.decode(JSONValue.self, from: Data(reencoded.utf8))
        #expect(a == b, "\(line)")
        #expect(reencoded.hasPrefix(#"{"type":"\#(message.type ?? "")","server_id":"#))
      } else {
        #expect(reencoded == line)
      }
    }
  }

  @Test func messagePayloadsCarryTheirFields() throws {
    let lines = try Fixtures.lines("realtime/messages.jsonl")
    let messages = try lines.map { try LiveStreamMessage(decoding: $0) }

    guard case .agentAuthorityChanged(let authority) = messages[2] else {
      Issue.record("expected agent_authority_changed")
      return
    }
    #expect(
      authority.agentAuthority.outstandingOffer?.createdAt.formatted(.utcOffset)
        == "2026-03-28T09:31:43+00:00")

    guard case .capabilitiesChanged(let caps) = messages[4],
      case .capabilitiesChanged(let offlineCaps) = messages[5]
    else {
      Issue.record("expected capabilities_changed")
      return
    }
    #expect(
      caps.temporary == [
        TemporaryCapabilityGrant(cap: "exec", grantedAt: 1_774_692_930, expiresAt: 1_774_694_730)
      ])
    #expect(caps.resolvedCapabilities == Capabilities.defaultMask)
    #expect(offlineCaps.resolvedCapabilities == Capabilities.all)

    guard case .securityEvent(let brute) = messages[6], case .securityEvent(let login) = messages[7]
    else {
      Issue.record("expected security_event")
      return
    }
    #expect(brute.eventID == "8b0e4c1a-51f7-4c33-a4f2-0b7de3c9a6e2")
    #expect(brute.event.startedAt == 1_774_692_900)
    #expect(brute.event.endedAt == 1_774_692_960)
    #expect(brute.event.eventType == .sshBruteForce)
    guard case .sshBruteForce(let evidence)? = brute.event.evidence else {
      Issue.record("expected brute-force evidence")
      return
    }
    #expect(evidence.failedCount == 42)
    #expect(login.event.evidence == nil)
    #expect(login.event.sourcePort == 52144)

    guard case .upgradeResult(let result) = messages[12] else {
      Issue.record("expected upgrade_result")
      return
    }
    #expect(result.status == .succeeded)
    #expect(result.stage == nil)

    guard case .networkProbeUpdate(let probes) = messages[13] else {
      Issue.record("expected network_probe_update")
      return
    }
    #expect(probes.results[1].avgLatency == nil)
    #expect(probes.results[1].packetLoss == 100)

    guard case .tracerouteUpdate(let trace) = messages[14] else {
      Issue.record("expected traceroute_update")
      return
    }
    #expect(trace.protocol == .icmp)
    #expect(trace.startedAt == 1_774_692_930_123)
    #expect(trace.hops.first?["ip"] == .string("10.0.0.1"))

    guard case .dockerUpdate(let docker) = messages[15] else {
      Issue.record("expected docker_update")
      return
    }
    #expect(docker.body["containers"]?[0]?["name"] == .string("web"))
    #expect(docker.body["stats"] == .null)
    #expect(docker.body["type"] == nil)

    guard case .blocklistChanged(let block) = messages[19],
      case .firewallApplyStateChanged(let apply) = messages[20]
    else {
      Issue.record("expected firewall frames")
      return
    }
    #expect(block.kind == .created)
    #expect(apply.state == .failed)
    #expect(apply.reason == "nft: permission denied")
  }

  @Test func knownTypeWithMissingFieldThrowsNamingTheField() throws {
    let frame = #"{"type":"full_sync","upgrades":[]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: frame)
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("servers"))
    #expect(error.message.hasPrefix("full_sync frame: "))
  }

  @Test func knownTypeWithWrongTypeThrowsNamingTheField() throws {
    let frame = #"{"type":"server_online","server_id":42}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: frame)
    }
    #expect(error.code == .invalidField)
    #expect(error.message.contains("server_id"))
  }

  @Test func badTimestampInUpgradeJobThrowsInvalidTimestamp() throws {
    let frame =
      #"{"type":"full_sync","servers":[],"upgrades":[{"server_id":"s","job_id":"j","target_version":"1","stage":"downloading","status":"running","error":null,"backup_path":null,"started_at":"yesterday","finished_at":null}]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: frame)
    }
    #expect(error.code == .invalidTimestamp)
    #expect(error.message.contains("upgrades[0].started_at"))
  }

  @Test func notJSONThrowsMalformedJSON() throws {
    let error = try #require(throws: ServerBeeModelsError.self) {
      try LiveStreamMessage(decoding: "{\"type\":")
    }
    #expect(error.code == .malformedJSON)
  }

  @Test func unknownEnumLikeValuesSurviveARoundTrip() throws {
    let frame =
      #"{"type":"upgrade_progress","server_id":"s","job_id":"j","target_version":"2.0.0","stage":"rolling_back"}"#
    let message = try LiveStreamMessage(decoding: frame)
    guard case .upgradeProgress(let progress) = message else {
      Issue.record("expected upgrade_progress")
      return
    }
    #expect(progress.stage == UpgradeStage(rawValue: "rolling_back"))
    #expect(String(decoding: try WireJSON.encode(message), as: UTF8.self) == frame)
  }

  @Test func clientMessagesEncodeWithTypeFirst() throws {
    let subscribe = try WireJSON.encode(LiveStreamClientMessage.dockerSubscribe(serverID: "s1"))
    let unsubscribe = try WireJSON.encode(LiveStreamClientMessage.dockerUnsubscribe(serverID: "s1"))
    #expect(
      String(decoding: subscribe, as: UTF8.self) == #"{"type":"docker_subscribe","server_id":"s1"}"#
    )
    #expect(
      String(decoding: unsubscribe, as: UTF8.self)
        == #"{"type":"docker_unsubscribe","server_id":"s1"}"#)
    #expect(
      try WireJSON.decode(LiveStreamClientMessage.self, from: subscribe)
        == .dockerSubscribe(serverID: "s1"))
  }

  @Test func unknownClientMessageTypeIsRejected() throws {
    let error = try #require(throws: ServerBeeModelsError.self) {
      try WireJSON.decode(LiveStreamClientMessage.self, from: Data(#"{"type":"ping"}"#.utf8))
    }
    #expect(error.code == .invalidField)
    #expect(error.message.contains("type"))
  }
}
