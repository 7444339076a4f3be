import ServerBeeKit
import ServerBeeTestSupport
import Testing

/// Polls the alert list every `interval`: the integrator's code of the article's clock example.
private struct AlertPoller {
  let api: ServerBeeAPIClient
  let clock: any Clock<Duration>

  func run(every interval: Duration, onChange: @Sendable ([AlertEvent]) -> Void) async throws {
    while true {
      onChange(try await api.alertEvents(limit: 20))
      try await clock.sleep(for: interval)
    }
  }
}

/// The examples of ServerBeeTestSupport's "Test your code with our fakes" article, as tests, so
/// the article keeps compiling and working with only public API.
@Suite(.timeLimit(.minutes(5))) struct TestSupportArticleTests {
  @Test func reportListsFiringAlerts() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(
      .get, "/api/alert-events",
      reply: .json(
        200,
        #"{"data":[{"rule_id":"r1","rule_name":"High CPU","server_id":"s1","server_name":"web-1","#
          + #""status":"firing","event_at":"2026-12-01T10:00:00Z","count":1}]}"#))
    let api = ServerBeeAPIClient(
      server: try ServerURL("https://monitor.example.com"),
      apiKey: try APIKey("serverbee_test"), transport: stub)

    let firing = try await api.alertEvents(limit: 20).filter { $0.status == .firing }

    #expect(firing.map(\.serverName) == ["web-1"])
    #expect(await stub.received.first?.headers["x-api-key"] == "serverbee_test")
    await stub.verifyAllConsumed()
  }

  @Test func aGateHoldsTheAnswerAndAThrowingExchangeFails() async throws {
    let stub = StubHTTPTransport()
    let gate = Gate()
    await stub.expect(.get, "/api/servers") { _ in
      await gate.wait()
      return .json(200, #"{"data":[]}"#)
    }
    await stub.expect(
      .get, "/api/servers",
      throwing: ServerBeeTransportError(.connectionRefused, "connection refused"))
    let api = ServerBeeAPIClient(
      server: try ServerURL("https://monitor.example.com"),
      apiKey: try APIKey("serverbee_test"), transport: stub)
    async let first = api.servers()
    await gate.waitForArrivals(1)
    await gate.open()
    #expect(try await first.isEmpty)
    await #expect(throws: ServerBeeAPIError.self) { try await api.servers() }
    await stub.verifyAllConsumed()
  }

  @Test func pollsAgainAfterOneMinute() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(.get, "/api/alert-events", reply: .json(200, #"{"data":[]}"#))
    await stub.expect(.get, "/api/alert-events", reply: .json(200, #"{"data":[]}"#))
    let clock = ManualClock()
    let poller = AlertPoller(
      api: ServerBeeAPIClient(
        server: try ServerURL("https://monitor.example.com"),
        apiKey: try APIKey("serverbee_test"), transport: stub),
      clock: clock)
    let polling = Task { try await poller.run(every: .seconds(60)) { _ in } }

    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(60))
    await clock.waitForSleepers(1)
    polling.cancel()

    await stub.verifyAllConsumed()
  }

  @Test func liveStreamSynchronises() async throws {
    let transport = FakeWebSocketTransport()
    let stream = MetricsStreamClient(
      server: try ServerURL("https://monitor.example.com"),
      tokens: StaticAccessTokenProvider("token-1"), transport: transport)
    await stream.start()

    var peers = transport.peers.makeAsyncIterator()
    let peer = try #require(await peers.next())
    peer.send(#"{"type":"full_sync","servers":[],"upgrades":[]}"#)

    for await fleet in await stream.snapshots() where fleet.isSynchronized {
      #expect(fleet.servers.isEmpty)
      break
    }
    #expect(transport.requests.first?.headers["authorization"] == "Bearer token-1")
    await stream.stop()
  }

  @Test func signedRequestsStopAfterSignOut() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(.get, "/api/servers", reply: .json(200, #"{"data":[]}"#))
    let session = FakeSessionContext()
    session.signIn(try FakeSessionContext.identity(user: "ada"), token: "token-ada")
    let api = ServerBeeAPIClient(
      server: try ServerURL("https://monitor.example.com"),
      transport: AuthorizedHTTPTransport(wrapping: stub, client: session))

    _ = try await api.servers()
    #expect(await stub.received.first?.headers["authorization"] == "Bearer token-ada")

    session.signOut()
    await #expect(throws: (any Error).self) { try await api.servers() }
    await stub.verifyAllConsumed()
  }

  @Test func seededRandomRepeats() {
    var first = SeededRandom(seed: 42)
    var second = SeededRandom(seed: 42)
    #expect(first.bytes(16) == second.bytes(16))
  }
}
