import AuthSession
import Foundation
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import RealtimeStream

/// The SDK's live stream against ServerBeeSimulator over real loopback sockets.
@Suite(.timeLimit(.minutes(1))) struct LiveFleetIntegrationTests {
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
    _ = try restarted.start(port: port)
    defer { restarted.stop() }
    _ = await first(&events) { $0 == .connection(.connected) }
    let resynced = await first(&snapshots) { $0.isSynchronized && $0.servers.count == 2 }
    #expect(Set(resynced?.servers.map(\.id) ?? []) == Set(h.serverIDs))
    await stream.stop()
  }
}
