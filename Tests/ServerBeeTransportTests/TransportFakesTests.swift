import Foundation
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@Suite(.timeLimit(.minutes(1))) struct TransportFakesTests {
  @Test func stubAnswersInOrderAndRecordsRequests() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(.get, "https://bee.example/a", reply: .json(200, #"{"data":1}"#))
    await stub.expect(
      .post, "https://bee.example/b", check: { #expect($0.headers["x"] == "1") },
      reply: .failure(ServerBeeTransportError(.timedOut, "scripted")))
    let first = try await stub.send(
      HTTPRequest(url: try #require(URL(string: "https://bee.example/a"))))
    #expect(first.status == 200)
    #expect(first.body == Data(#"{"data":1}"#.utf8))
    await #expect(throws: ServerBeeTransportError.self) {
      _ = try await stub.send(
        HTTPRequest(
          method: .post, url: try #require(URL(string: "https://bee.example/b")),
          headers: ["X": "1"]))
    }
    #expect(await stub.received.count == 2)
    await stub.verifyAllConsumed()
  }

  @Test func stubRecordsUnexpectedAndUnusedRequests() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(.get, "https://bee.example/never", reply: .json(200, "{}"))
    await withKnownIssue {
      _ = try await stub.send(
        HTTPRequest(url: try #require(URL(string: "https://bee.example/other"))))
    }
    await withKnownIssue { await stub.verifyAllConsumed() }
  }

  @Test func fakeTransportFollowsItsScriptAndTheTestDrivesTheServerEnd() async throws {
    let transport = FakeWebSocketTransport()
    let server = await transport.enqueueConnection()
    await transport.enqueueFailure(
      ServerBeeTransportError(.upgradeRejected, "401", httpStatus: 401))
    let url = try #require(URL(string: "wss://bee.example/api/ws/servers"))
    let connection = try await transport.connect(to: url, headers: ["Authorization": "Bearer a"])
    await transport.waitForConnects(1)
    #expect(await transport.connectRequests.first?.headers["authorization"] == "Bearer a")

    try await connection.send(.text("subscribe"))
    var sent = server.clientMessages.makeAsyncIterator()
    #expect(await sent.next() == .text("subscribe"))
    server.serverSend(.text("full_sync"))
    var inbound = connection.inbound.makeAsyncIterator()
    #expect(try await inbound.next() == .text("full_sync"))
    server.serverClose(code: .tokenExpired, reason: "token expired")
    #expect(try await inbound.next() == nil)
    #expect(await connection.receivedClose?.code == .tokenExpired)

    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.connect(to: url, headers: [:])
    }
    #expect(error?.httpStatus == 401)
  }

  @Test func fakeConnectionRecordsClientCloseAndPingFailures() async throws {
    let connection = FakeWebSocketConnection()
    try await connection.ping()
    connection.failPings(with: ServerBeeTransportError(.pingTimeout, "dead"))
    await #expect(throws: ServerBeeTransportError.self) { try await connection.ping() }
    #expect(connection.pingCount == 2)
    await connection.close(code: .normalClosure, reason: "bye")
    #expect(connection.clientClose == WebSocketClose(code: .normalClosure, reason: "bye"))
    await #expect(throws: ServerBeeTransportError.self) { try await connection.send(.text("x")) }
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
