import AuthSession
import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import RealtimeStream
@testable import ServerBeeSocketTransport

/// The docker-logs socket (Protocol/AppRoutes.md §8.4), `DockerLogStream` against the simulator
/// over loopback with a clock that moves only when told: the session first, the tail in order,
/// follow producing lines as the clock moves, unsubscribe, the 1,000-line window, a clean close,
/// the refusals before the upgrade, and a reader that does not read staying bounded.
@Suite(.timeLimit(.minutes(5))) struct DockerLogStreamIntegrationTests {
  /// A simulator on a frozen clock with two servers, Docker on for `server-1` only.
  func harness() async throws -> LiveFleetHarness {
    let h = try await LiveFleetHarness(
      servers: 2, clock: SimulatorClock(start: Date(timeIntervalSince1970: 1_800_000_000)))
    try h.simulator.enableDocker(servers: 1)
    return h
  }

  func open(_ h: LiveFleetHarness, server: Int = 0, tokens: (any AccessTokenProvider)? = nil)
    async throws -> DockerLogStream
  {
    try await DockerLogStream.open(
      server: try ServerURL(h.baseURL.absoluteString), serverID: h.serverIDs[server],
      tokens: tokens ?? h.auth, transport: SocketWebSocketTransport())
  }

  /// Reads batches until `count` lines have come.
  func read(
    _ iterator: inout AsyncThrowingStream<[DockerLogEntry], any Error>.Iterator, _ count: Int
  )
    async throws -> [DockerLogEntry]
  {
    var lines: [DockerLogEntry] = []
    while lines.count < count, let batch = try await iterator.next() { lines += batch }
    return lines
  }

  @Test func theSessionComesFirstThenTheTailInOrder() async throws {
    let h = try await harness()
    let logs = try await open(h)
    #expect(logs.sessionID.count == 36)
    try await logs.subscribe(containerID: "stack-web-1", tail: 5, follow: false)
    var batches = logs.batches.makeAsyncIterator()
    let tail = try await read(&batches, 5)
    #expect(tail.count == 5)
    let times = tail.compactMap(\.timestamp)
    #expect(times.count == 5 && times == times.sorted())
    #expect(tail.allSatisfy { !$0.message.isEmpty && ["stdout", "stderr"].contains($0.stream) })
    // The server's default tail is 100.
    try await logs.subscribe(containerID: "stack-web-1")
    let defaulted = try await read(&batches, 100)
    #expect(defaulted.count == 100)
    #expect(defaulted.suffix(5) == tail[...])
    await logs.close()
  }

  @Test func followProducesNewLinesAsTheClockMoves() async throws {
    let h = try await harness()
    let logs = try await open(h)
    var batches = logs.batches.makeAsyncIterator()
    try await logs.subscribe(containerID: "stack-web-1", tail: 1, follow: true)
    let last = try #require(try await read(&batches, 1).last)
    // The web container writes a line every 2 s of the simulator's clock.
    h.serverClock.advance(by: 10)
    let next = try await read(&batches, 5)
    #expect(next.count == 5)
    #expect(next.compactMap(\.timestamp).allSatisfy { $0 > (last.timestamp ?? "") })
    h.serverClock.advance(by: 2)
    #expect(try await read(&batches, 1).count == 1)
    await logs.close()
  }

  @Test func afterUnsubscribingOnlyTheNextSubscriptionsLinesCome() async throws {
    let h = try await harness()
    let logs = try await open(h)
    var batches = logs.batches.makeAsyncIterator()
    try await logs.subscribe(containerID: "stack-web-1", tail: 0, follow: true)
    try await logs.unsubscribe()
    h.serverClock.advance(by: 30)
    // Messages keep their order: the first batch after this subscription is its tail alone.
    try await logs.subscribe(containerID: "stack-db-1", tail: 2, follow: false)
    let next = try #require(try await batches.next())
    #expect(next.count == 2)
    #expect(next.allSatisfy { $0.message.hasPrefix("LOG:") || $0.message.hasPrefix("ERROR:") })
    await logs.close()
  }

  @Test func theWindowKeepsTheLastThousandLines() async throws {
    let h = try await harness()
    let logs = try await open(h)
    var batches = logs.batches.makeAsyncIterator()
    try await logs.subscribe(containerID: "stack-web-1", tail: 1_000, follow: true)
    var window = DockerLogWindow()
    let first = try await read(&batches, 1_000)
    window.append(first)
    #expect(window.entries.count == 1_000 && window.dropped == 0)
    h.serverClock.advance(by: 20)
    let more = try await read(&batches, 10)
    window.append(more)
    #expect(window.entries.count == 1_000 && window.dropped == 10)
    #expect(window.entries.first == first[10] && window.entries.last == more.last)
    await logs.close()
  }

  @Test func closingEndsTheBatchesCleanly() async throws {
    let h = try await harness()
    let logs = try await open(h)
    try await logs.subscribe(containerID: "stack-web-1", tail: 3, follow: true)
    var batches = logs.batches.makeAsyncIterator()
    #expect(try await read(&batches, 3).count == 3)
    await logs.close()
    while try await batches.next() != nil {}
    let error = await #expect(throws: RealtimeStreamError.self) {
      try await logs.subscribe(containerID: "stack-web-1")
    }
    #expect(error?.code == .connectionFailed)
  }

  @Test func theRefusalsBeforeTheUpgradeAreTyped() async throws {
    let h = try await harness()
    let bogus = await #expect(throws: RealtimeStreamError.self) {
      _ = try await open(h, tokens: StaticAccessTokenProvider("not-a-token"))
    }
    #expect(bogus?.code == .unauthorized && bogus?.httpStatus == 401)

    _ = try h.simulator.createUser(username: "bob", password: "member pw", role: "member")
    let member = AuthClient(
      configuration: .init(deviceName: "member", refreshesProactively: false),
      store: InMemoryCredentialStore(), transport: SocketHTTPTransport())
    _ = try await member.login(
      server: h.baseURL.absoluteString, username: "bob", password: "member pw")
    let notAdmin = await #expect(throws: RealtimeStreamError.self) {
      _ = try await open(h, tokens: member)
    }
    #expect(notAdmin?.code == .forbidden && notAdmin?.httpStatus == 403)

    // server-2 has the capability off.
    let capability = await #expect(throws: RealtimeStreamError.self) {
      _ = try await open(h, server: 1)
    }
    #expect(capability?.code == .forbidden)

    try await h.control("/servers/\(h.serverIDs[0])/offline")
    let offline = await #expect(throws: RealtimeStreamError.self) { _ = try await open(h) }
    #expect(offline?.code == .agentOffline && offline?.httpStatus == 400)
    #expect(
      offline?.message == "the server's agent is offline, so its container logs cannot be read")
  }

  @Test func aReaderThatDoesNotReadStaysBoundedAndLosesNothing() async throws {
    let h = try await harness()
    let logs = try await open(h)
    // 1,000 lines at once (10 batches of 100), then a batch of 10 each time the clock moves
    // 20 s (a line every 2 s), until the buffer is full, and 4 batches more.
    try await logs.subscribe(containerID: "stack-web-1", tail: 1_000, follow: true)
    while logs.bufferedBatchCount < 10 { try await Task.sleep(for: .milliseconds(20)) }
    var advances = 0
    while logs.bufferedBatchCount < DockerLogStream.bufferedBatches {
      let before = logs.bufferedBatchCount
      h.serverClock.advance(by: 20)
      advances += 1
      while logs.bufferedBatchCount == before { try await Task.sleep(for: .milliseconds(20)) }
    }
    for _ in 0..<4 {
      h.serverClock.advance(by: 20)
      advances += 1
    }
    // The buffer never holds more than its capacity.
    #expect(logs.bufferedBatchCount == DockerLogStream.bufferedBatches)
    // Reading now gets every line, in order.
    var batches = logs.batches.makeAsyncIterator()
    let total = 1_000 + advances * 10
    let lines = try await read(&batches, total)
    #expect(lines.count == total)
    let times = lines.compactMap(\.timestamp)
    #expect(times == times.sorted() && Set(times).count == total)
    await logs.close()
  }
}
