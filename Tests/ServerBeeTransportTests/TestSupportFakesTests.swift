import Foundation
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The shared fakes must behave as documented, or every test built on them proves less.
@Suite(.timeLimit(.minutes(5))) struct TestSupportFakesTests {
  @Test func stubAnswersInOrderAndRecordsRequests() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(.get, "/a", reply: HTTPResponse(status: 200, body: Data(#"{"data":1}"#.utf8)))
    await stub.expect(.post, "/b", throwing: ServerBeeTransportError(.timedOut, "scripted"))
    let first = try await stub.send(
      HTTPRequest(url: try #require(URL(string: "https://bee.example/a"))))
    #expect(first.status == 200)
    #expect(first.body == Data(#"{"data":1}"#.utf8))
    await #expect(throws: ServerBeeTransportError.self) {
      _ = try await stub.send(
        HTTPRequest(method: .post, url: try #require(URL(string: "https://bee.example/b"))))
    }
    #expect(await stub.received.count == 2)
    await stub.verifyAllConsumed()
  }

  @Test func fakeTransportFollowsItsScriptAndTheTestDrivesTheServerEnd() async throws {
    let transport = FakeWebSocketTransport(script: [.accept, .reject(upgradeStatus: 401)])
    var peers = transport.peers.makeAsyncIterator()
    let url = try #require(URL(string: "wss://bee.example/api/ws/servers"))
    let connection = try await transport.connect(to: url, headers: ["Authorization": "Bearer a"])
    let peer = try #require(await peers.next())
    #expect(transport.requests.first?.headers["authorization"] == "Bearer a")

    try await connection.send(.text("subscribe"))
    var sent = peer.received.makeAsyncIterator()
    #expect(await sent.next() == .text("subscribe"))
    peer.send("full_sync")
    var inbound = connection.inbound.makeAsyncIterator()
    #expect(try await inbound.next() == .text("full_sync"))
    peer.close(code: .tokenExpired, reason: "token expired")
    #expect(try await inbound.next() == nil)
    #expect(await connection.receivedClose?.code == .tokenExpired)

    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.connect(to: url, headers: [:])
    }
    #expect(error?.httpStatus == 401)
  }

  @Test func fakeConnectionRecordsClientCloseAndRefusesSendsAfterIt() async throws {
    let transport = FakeWebSocketTransport()
    var peers = transport.peers.makeAsyncIterator()
    let connection = try await transport.connect(
      to: try #require(URL(string: "ws://bee.example/")), headers: [:])
    let peer = try #require(await peers.next())
    try await connection.ping()
    await connection.close(code: .normalClosure, reason: "bye")
    #expect(peer.clientClose == WebSocketClose(code: .normalClosure, reason: "bye"))
    await #expect(throws: ServerBeeTransportError.self) { try await connection.send(.text("x")) }
  }

  @Test func anUnansweredPingWaitsUntilCancelled() async throws {
    let transport = FakeWebSocketTransport()
    var peers = transport.peers.makeAsyncIterator()
    let connection = try await transport.connect(
      to: try #require(URL(string: "ws://bee.example/")), headers: [:])
    let peer = try #require(await peers.next())
    peer.answersPings = false
    let ping = Task { try await connection.ping() }
    ping.cancel()
    await #expect(throws: CancellationError.self) { try await ping.value }
  }

  @Test func manualClockWakesSleepersOnlyWhenAdvancedPastTheirDeadline() async throws {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(9))
    #expect(clock.sleeperCount == 1)
    clock.advance(by: .seconds(1))
    try await sleeper.value
    #expect(clock.now.offset == .seconds(10))
  }

  @Test func manualClockSleepThrowsOnCancellation() async throws {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
    await clock.waitForSleepers(1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }
}

@Suite struct StaticAccessTokenProviderTests {
  @Test func handsOutTokensInOrderThenRepeatsTheLastAndCanFail() async throws {
    let tokens = StaticAccessTokenProvider("t1", "t2")
    #expect(try await tokens.validAccessToken() == "t1")
    #expect(try await tokens.validAccessToken() == "t2")
    #expect(try await tokens.validAccessToken() == "t2")
    tokens.fail(with: ServerBeeTransportError(.connectionFailed, "revoked"))
    await #expect(throws: ServerBeeTransportError.self) { try await tokens.validAccessToken() }
    #expect(tokens.callCount == 4)
  }
}
