import AuthSession
import Foundation
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeTestHarness
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import RealtimeStream
@testable import ServerBeeSocketTransport

/// The SDK's live stream against ServerBeeSimulator over real loopback sockets.
@Suite(.timeLimit(.minutes(5))) struct LiveFleetIntegrationTests {
  @Test func liveUpdatesArriveAndAServerGoesOfflineAndBack() async throws {
    let h = try await LiveFleetHarness(servers: 3)
    let stream = try h.makeStream()
    var snapshots = await stream.snapshots().makeAsyncIterator()
    await stream.start()
    let synced = try #require(await first(&snapshots) { $0.isSynchronized })
    #expect(Set(synced.servers.map(\.id)) == Set(h.serverIDs))
    let target = h.serverIDs[0]
    let memTotal = try #require(synced.server(id: target)?.memTotal)

    try await h.control("/servers/\(target)/metrics", ["cpu": 42.5, "mem_used": 1234])
    let updated = await first(&snapshots) { $0.server(id: target)?.cpu == 42.5 }
    #expect(updated?.server(id: target)?.memUsed == 1234)
    #expect(updated?.server(id: target)?.memTotal == memTotal, "a partial frame keeps totals")

    try await h.control("/servers/\(target)/offline")
    #expect(await first(&snapshots) { $0.server(id: target)?.online == false } != nil)
    try await h.control("/servers/\(target)/online")
    #expect(await first(&snapshots) { $0.server(id: target)?.online == true } != nil)
    await stream.stop()
  }

  /// A client that connects while an agent upgrades (Protocol/Agents.md §11) finds the job in
  /// its first `full_sync`, at the stage it reached, and follows it by `job_id` to its result.
  @Test func aClientConnectingMidUpgradeSeesTheJobInItsFullSync() async throws {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let h = try await LiveFleetHarness(servers: 2, clock: SimulatorClock(start: start))
    let target = h.serverIDs[1]
    #expect(try await h.api(.post, "/api/servers/\(target)/upgrade", ["version": "1.5.0"]) == 200)
    h.serverClock.advance(by: 3)

    let stream = try h.makeStream()
    var snapshots = await stream.snapshots().makeAsyncIterator()
    await stream.start()
    let synced = try #require(await first(&snapshots) { $0.isSynchronized })
    let job = try #require(synced.upgrades.first, "no job in the full_sync")
    #expect(synced.upgrades.count == 1)
    #expect(job.serverID == target && job.targetVersion == "1.5.0")
    #expect(job.stage == .installing && job.status == .running)
    #expect(job.error == nil && job.backupPath == nil && job.finishedAt == nil)
    #expect(job.startedAt == RFC3339Timestamp(start))
    #expect(!job.jobID.isEmpty)

    // The frames after it move the same job on.
    h.serverClock.advance(by: 2)
    let done = try #require(
      await first(&snapshots) { $0.upgrades.first?.status == .succeeded }, "no result")
    #expect(done.upgrades.map(\.jobID) == [job.jobID])
    #expect(done.upgrades.first?.stage == .restarting)
    #expect(done.upgrades.first?.backupPath == "/usr/local/bin/serverbee-agent.bak")
    await stream.stop()
  }

  @Test func theTokenExpiringMidStreamRefreshesAndResumes() async throws {
    let h = try await LiveFleetHarness(servers: 2)
    let stream = try h.makeStream()
    var events = await stream.events().makeAsyncIterator()
    var snapshots = await stream.snapshots().makeAsyncIterator()
    await stream.start()
    _ = await first(&snapshots) { $0.isSynchronized }
    let before = try await h.auth.validAccessToken()

    // The access token's fixed 15-minute life ends on the server: it closes with 4001.
    h.serverClock.advance(by: 901)
    _ = await first(&events) { $0 == .connection(.refreshingToken) }
    _ = await first(&events) { $0 == .connection(.connected) }
    let after = try await h.auth.validAccessToken()
    #expect(after != before, "the stream asked the auth client for a new token")

    try await h.control("/servers/\(h.serverIDs[1])/metrics", ["cpu": 7.25])
    #expect(await first(&snapshots) { $0.server(id: h.serverIDs[1])?.cpu == 7.25 } != nil)
    await stream.stop()
  }

  @Test func theClientReconnectsAfterTheSimulatorRestarts() async throws {
    let h = try await LiveFleetHarness(servers: 2)
    let stream = try h.makeStream()
    var events = await stream.events().makeAsyncIterator()
    var snapshots = await stream.snapshots().makeAsyncIterator()
    await stream.start()
    _ = await first(&snapshots) { $0.isSynchronized }

    h.simulator.stop()
    _ = await first(&events) {
      if case .connection(.waitingToReconnect) = $0 { true } else { false }
    }
    let port = UInt16(h.baseURL.port ?? 0)
    let restarted = try LiveFleetHarness.makeSimulator(directory: h.directory, clock: h.serverClock)
    try await startOnSamePort(restarted, port: port)
    defer { restarted.stop() }
    _ = await first(&events) { $0 == .connection(.connected) }
    let resynced = await first(&snapshots) { $0.isSynchronized && $0.servers.count == 2 }
    #expect(Set(resynced?.servers.map(\.id) ?? []) == Set(h.serverIDs))
    await stream.stop()
  }
}

/// Starts `simulator` on `port`, giving the system a moment to release it after the old
/// listener closed.
private func startOnSamePort(_ simulator: Simulator, port: UInt16) async throws {
  for attempt in 1...100 {
    do {
      _ = try simulator.start(port: port)
      return
    } catch  where attempt < 100 {
      try await Task.sleep(for: .milliseconds(20))
    }
  }
}

/// The live stream over `wss://` to a simulator serving a certificate from a test CA.
@Suite(.timeLimit(.minutes(5))) struct LiveFleetTLSIntegrationTests {
  /// Signs in through the simulator's application layer (URLSession cannot trust a private CA
  /// on Linux) and hands the token to the stream.
  private func login(_ simulator: Simulator, base: URL) async throws -> String {
    let url = try #require(URL(string: base.absoluteString + "/api/mobile/auth/login"))
    let body = try WireJSON.encode(
      LoginRequest(
        username: "admin", password: "correct horse", installationID: "tls-it",
        deviceName: "tls"))
    let response = await simulator.handle(
      HTTPRequest(
        method: .post, url: url, headers: ["content-type": "application/json"], body: body))
    return try APIResponse<MobileTokenResponse>.payload(
      status: response.status, body: response.body
    ).accessToken
  }

  private func makeSimulator(_ directory: borrowing TemporaryDirectory, pki: TestPKI) throws
    -> (Simulator, URL)
  {
    let simulator = try LiveFleetHarness.makeSimulator(
      directory: directory.url, clock: SimulatorClock())
    _ = try simulator.createUser(username: "admin", password: "correct horse", role: "admin")
    _ = try simulator.createServers(count: 2)
    let url = try simulator.start(
      port: 0, tls: Simulator.TLSFiles(certificate: pki.leafCertificate, privateKey: pki.leafKey))
    return (simulator, url)
  }

  @Test func theFleetStreamsOverWSSWithATrustedTestCA() async throws {
    let directory = try TemporaryDirectory()
    let pki = try await TestPKI(subjectAltNames: "DNS:localhost,IP:127.0.0.1")
    let (simulator, base) = try makeSimulator(directory, pki: pki)
    defer { simulator.stop() }
    #expect(base.scheme == "https")
    let token = try await login(simulator, base: base)
    let transport = SocketWebSocketTransport(
      configuration: .init(tls: TLSTrust(additionalCAFile: pki.caFile)))
    let stream = MetricsStreamClient(
      server: try ServerURL(base.absoluteString), tokens: StaticAccessTokenProvider(token),
      transport: transport)
    var snapshots = await stream.snapshots().makeAsyncIterator()
    await stream.start()
    let synced = await first(&snapshots) { $0.isSynchronized }
    #expect(synced?.servers.count == 2)
    await stream.stop()
  }

  @Test func anUntrustedCertificateNeverDeliversAFrame() async throws {
    let directory = try TemporaryDirectory()
    let pki = try await TestPKI(subjectAltNames: "DNS:localhost,IP:127.0.0.1")
    let (simulator, base) = try makeSimulator(directory, pki: pki)
    defer { simulator.stop() }
    let token = try await login(simulator, base: base)
    // Trusting only an unrelated CA: the handshake must fail and the client keep retrying.
    let transport = SocketWebSocketTransport(
      configuration: .init(tls: TLSTrust(additionalCAFile: pki.otherCAFile)))
    let stream = MetricsStreamClient(
      server: try ServerURL(base.absoluteString), tokens: StaticAccessTokenProvider(token),
      transport: transport)
    var events = await stream.events().makeAsyncIterator()
    await stream.start()
    _ = await first(&events) {
      if case .connection(.waitingToReconnect) = $0 { true } else { false }
    }
    #expect(await stream.currentFleet.isSynchronized == false)
    await stream.stop()
  }
}
