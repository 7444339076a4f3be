import Foundation
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import RealtimeStream

/// Hands out `token-1`, `token-2`, … : a replacement is issued only for the current token.
actor CountingTokenProvider: AccessTokenProvider {
  private(set) var issued = 1
  private(set) var replacements: [String] = []

  func validAccessToken() -> String { "token-\(issued)" }

  func accessToken(afterRejectionOf rejected: String) -> String {
    replacements.append(rejected)
    if rejected == "token-\(issued)" { issued += 1 }
    return "token-\(issued)"
  }
}

@Suite(.timeLimit(.minutes(5))) struct MetricsStreamClientTests {
  let clock = ManualClock()
  let tokens = CountingTokenProvider()

  private func makeClient(_ transport: FakeWebSocketTransport, jitter: Double = 0.5)
    throws -> MetricsStreamClient
  {
    MetricsStreamClient(
      server: try ServerURL("https://monitor.example.com:9527"), tokens: tokens,
      transport: transport, configuration: .init(), clock: clock, random: { jitter })
  }

  private static let fullSync =
    #"{"type":"full_sync","servers":[{"id":"a","name":"alpha","online":true,"last_active":1,"uptime":2,"cpu":3.5,"mem_used":4,"mem_total":8,"swap_used":0,"swap_total":0,"disk_used":1,"disk_total":9,"net_in_speed":0,"net_out_speed":0,"net_in_transfer":0,"net_out_transfer":0,"load1":0.1,"load5":0.2,"load15":0.3,"tcp_conn":1,"udp_conn":1,"process_count":10,"cpu_name":null,"os":null,"region":null,"country_code":null,"group_id":null,"features":[],"disk_read_bytes_per_sec":0,"disk_write_bytes_per_sec":0,"tags":[],"cpu_cores":null,"agent_authority":{"status":"claimed","outstanding_offer":null},"has_token":true,"outstanding_enrollment":null}],"upgrades":[]}"#

  /// Reads the stream until an element satisfies `predicate`.
  private func first<Element>(
    _ iterator: inout AsyncStream<Element>.Iterator, where predicate: (Element) -> Bool
  ) async -> Element? {
    while let element = await iterator.next() {
      if predicate(element) { return element }
    }
    return nil
  }

  @Test func connectsWithTheBearerTokenAndPublishesLiveState() async throws {
    let transport = FakeWebSocketTransport()
    let client = try makeClient(transport)
    var snapshots = await client.snapshots().makeAsyncIterator()
    var peers = transport.peers.makeAsyncIterator()
    await client.start()
    let peer = try #require(await peers.next())
    #expect(
      transport.requests[0].url.absoluteString == "wss://monitor.example.com:9527/api/ws/servers")
    #expect(transport.requests[0].headers["authorization"] == "Bearer token-1")

    peer.send(Self.fullSync)
    let synced = await first(&snapshots) { $0.isSynchronized }
    #expect(synced?.server(id: "a")?.cpu == 3.5)

    peer.send(#"{"type":"update","servers":[{"id":"a","name":"alpha","cpu":77.0}]}"#)
    let updated = await first(&snapshots) { $0.server(id: "a")?.cpu == 77 }
    #expect(updated?.server(id: "a")?.memTotal == 8)
    await client.stop()
  }

  /// A started client subscribed to its events before it connected, and the server end of its
  /// connection.
  private func connectedWithEvents() async throws -> (
    MetricsStreamClient, AsyncStream<MetricsStreamClient.Event>.Iterator, FakeWebSocketPeer
  ) {
    let transport = FakeWebSocketTransport()
    let client = try makeClient(transport)
    let events = await client.events().makeAsyncIterator()
    var peers = transport.peers.makeAsyncIterator()
    await client.start()
    return (client, events, try #require(await peers.next()))
  }

  @Test func securityEventsAndPresenceArriveAsEvents() async throws {
    var (client, events, peer) = try await connectedWithEvents()
    peer.send(Self.fullSync)
    peer.send(#"{"type":"server_offline","server_id":"a"}"#)
    peer.send(
      #"{"type":"security_event","server_id":"a","event_id":"e1","event":{"event_type":"ssh_login","severity":"info","source_ip":"203.0.113.7","source_port":51234,"username":"root","started_at":1774692930,"ended_at":1774692930,"first_seen":true,"detector_source":"journal","evidence":{"kind":"ssh_login","auth_method":"publickey"}}}"#
    )
    let offline = await first(&events) { if case .serverOffline = $0 { true } else { false } }
    #expect(offline == .serverOffline(id: "a"))
    let security = await first(&events) { if case .securityEvent = $0 { true } else { false } }
    guard case .securityEvent(let event) = security else {
      Issue.record("no security event")
      return
    }
    #expect(event.eventID == "e1")
    await client.stop()
  }

  /// Authority changes and upgrade frames are events in order, also when they change the
  /// fleet (a known server, a job listed by `full_sync`): snapshots keep only the latest state.
  @Test func authorityAndUpgradeStepsArriveAsEventsInOrder() async throws {
    var (client, events, peer) = try await connectedWithEvents()
    let job =
      #"{"server_id":"a","job_id":"j1","target_version":"1.5.0","stage":"verifying","status":"running","error":null,"backup_path":null,"started_at":"2027-01-15T08:00:00Z","finished_at":null}"#
    peer.send(
      Self.fullSync.replacingOccurrences(of: #""upgrades":[]"#, with: #""upgrades":["# + job + "]"))
    let steps = [
      #"{"type":"agent_authority_changed","server_id":"a","agent_authority":{"status":"unclaimed","outstanding_offer":null}}"#,
      #"{"type":"upgrade_progress","server_id":"a","job_id":"j1","target_version":"1.5.0","stage":"pre_flight"}"#,
      #"{"type":"upgrade_result","server_id":"a","job_id":"j1","target_version":"1.5.0","status":"failed","stage":"pre_flight","error":"agent disconnected","backup_path":null}"#,
    ]
    for step in steps { peer.send(step) }
    var seen: [LiveStreamMessage] = []
    while seen.count < steps.count, let event = await events.next() {
      if case .message(let message) = event { seen.append(message) }
    }
    #expect(try seen == steps.map { try LiveFrameDecoder.decode($0) })
    let fleet = await client.currentFleet
    #expect(fleet.server(id: "a")?.hasToken == false)
    #expect(fleet.upgrades.first?.status == .failed && fleet.upgrades.first?.stage == .preFlight)
    await client.stop()
  }

  @Test func closeCode4001GetsAReplacementTokenAndReconnectsAtOnce() async throws {
    let transport = FakeWebSocketTransport()
    let client = try makeClient(transport)
    var peers = transport.peers.makeAsyncIterator()
    await client.start()
    let first = try #require(await peers.next())
    first.send(Self.fullSync)
    first.close(code: .tokenExpired, reason: "token expired")
    _ = try #require(await peers.next())
    #expect(await tokens.replacements == ["token-1"])
    #expect(
      transport.requests.map { $0.headers["authorization"] } == [
        "Bearer token-1", "Bearer token-2",
      ])
    #expect(clock.sleeperCount <= 1, "no backoff timer: only a keep-alive may sleep")
    await client.stop()
  }

  @Test func anUpgradeRejectedWith401RefreshesThenReconnects() async throws {
    let transport = FakeWebSocketTransport(script: [.reject(upgradeStatus: 401)])
    let client = try makeClient(transport)
    var peers = transport.peers.makeAsyncIterator()
    await client.start()
    _ = try #require(await peers.next())
    #expect(await tokens.replacements == ["token-1"])
    #expect(transport.requests.count == 2)
    await client.stop()
  }

  @Test func networkFailuresBackOffOnTheClockWithJitter() async throws {
    let failure = ServerBeeTransportError(.connectionRefused, "refused")
    let transport = FakeWebSocketTransport(script: [.fail(failure), .fail(failure)])
    let client = try makeClient(transport, jitter: 1.0)
    var events = await client.events().makeAsyncIterator()
    var peers = transport.peers.makeAsyncIterator()
    await client.start()
    let firstWait = await first(&events) {
      if case .connection(.waitingToReconnect) = $0 { true } else { false }
    }
    #expect(firstWait == .connection(.waitingToReconnect(seconds: 1.2)))
    await clock.waitForSleepers(1)
    clock.advance(by: .milliseconds(1199))
    #expect(transport.requests.count == 1, "not before the delay")
    clock.advance(by: .milliseconds(1))
    let secondWait = await first(&events) {
      if case .connection(.waitingToReconnect) = $0 { true } else { false }
    }
    #expect(secondWait == .connection(.waitingToReconnect(seconds: 2.4)))
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(3))
    _ = try #require(await peers.next())
    #expect(transport.requests.count == 3)
    await client.stop()
  }

  @Test func aMissingPongClosesTheConnectionAndReconnects() async throws {
    let transport = FakeWebSocketTransport()
    let client = try makeClient(transport)
    var peers = transport.peers.makeAsyncIterator()
    var events = await client.events().makeAsyncIterator()
    await client.start()
    let peer = try #require(await peers.next())
    peer.answersPings = false
    peer.send(Self.fullSync)
    _ = await first(&events) { $0 == .connection(.connected) }
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(25))
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(10))
    _ = await first(&events) {
      if case .connection(.waitingToReconnect) = $0 { true } else { false }
    }
    #expect(peer.clientClose?.code == .goingAway)
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(2))
    _ = try #require(await peers.next())
    await client.stop()
  }

  @Test func stopClosesTheSocketAndFinishesStreams() async throws {
    let transport = FakeWebSocketTransport()
    let client = try makeClient(transport)
    var peers = transport.peers.makeAsyncIterator()
    let snapshots = await client.snapshots()
    await client.start()
    let peer = try #require(await peers.next())
    peer.send(Self.fullSync)
    await client.stop()
    var count = 0
    for await _ in snapshots { count += 1 }
    #expect(count >= 1)
    #expect(peer.clientClose?.code == .normalClosure)
    #expect(await client.connectionStatus == .stopped)
  }
}
