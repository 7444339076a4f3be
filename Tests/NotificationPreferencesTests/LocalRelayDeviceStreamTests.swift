import Foundation
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// ``LocalRelayDeviceStream`` over a fake transport and a manual clock: payloads, the device
/// headers, the backoff schedule, and the ends that are final.
@Suite(.timeLimit(.minutes(5)))
struct LocalRelayDeviceStreamTests {
  static let token = PushDeviceToken(hex: String(repeating: "7e", count: 32), environment: .sandbox)
  let clock = ManualClock()

  func makeStream(
    _ transport: FakeWebSocketTransport, relay: String = "http://127.0.0.1:8787",
    random: Double = 0.5
  ) -> LocalRelayDeviceStream {
    LocalRelayDeviceStream(
      relay: URL(string: relay) ?? URL(fileURLWithPath: relay), deviceToken: Self.token,
      transport: transport, configuration: .init(), clock: clock, random: { random })
  }

  @Test func eachMessageIsOnePayloadAndTheHandshakeNamesTheDevice() async throws {
    let transport = FakeWebSocketTransport()
    let stream = makeStream(transport, relay: "https://relay.example/")
    var events = stream.events().makeAsyncIterator()
    var peers = transport.peers.makeAsyncIterator()
    #expect(try await events.next() == .connected)
    let peer = try #require(await peers.next())
    peer.send(#"{"aps":{}}"#)
    #expect(try await events.next() == .push(Data(#"{"aps":{}}"#.utf8)))
    let request = try #require(transport.requests.first)
    #expect(request.url.absoluteString == "wss://relay.example/v1/devices/stream")
    #expect(request.headers["x-serverbee-device-token"] == Self.token.hex)
    #expect(request.headers["x-serverbee-environment"] == "sandbox")
  }

  @Test func failedConnectsBackOffExponentiallyWithFullJitterThenConnect() async throws {
    let refused = ServerBeeTransportError(.connectionRefused, "connect failed")
    let transport = FakeWebSocketTransport(script: [.fail(refused), .fail(refused), .accept])
    let stream = makeStream(transport, random: 0.5)
    var events = stream.events().makeAsyncIterator()
    #expect(
      try await events.next()
        == .reconnecting(after: .milliseconds(250), reason: "connection refused"))
    await clock.waitForSleepers()
    clock.advance(by: .milliseconds(250))
    #expect(
      try await events.next()
        == .reconnecting(after: .milliseconds(500), reason: "connection refused"))
    await clock.waitForSleepers()
    clock.advance(by: .milliseconds(500))
    #expect(try await events.next() == .connected)
    #expect(transport.requests.count == 3)
  }

  @Test func aRelayThatGoesAwayIsReconnectedFromTheFirstDelayAgain() async throws {
    let refused = ServerBeeTransportError(.connectionRefused, "connect failed")
    let transport = FakeWebSocketTransport(script: [.fail(refused), .accept, .accept])
    let stream = makeStream(transport, random: 1)
    var events = stream.events().makeAsyncIterator()
    var peers = transport.peers.makeAsyncIterator()
    #expect(
      try await events.next()
        == .reconnecting(after: .milliseconds(500), reason: "connection refused"))
    await clock.waitForSleepers()
    clock.advance(by: .milliseconds(500))
    #expect(try await events.next() == .connected)
    try #require(await peers.next()).close(code: .goingAway)
    // The successful connection reset the backoff: 0.5 s again, not 1 s.
    #expect(
      try await events.next()
        == .reconnecting(after: .milliseconds(500), reason: "closed with 1001"))
    await clock.waitForSleepers()
    clock.advance(by: .milliseconds(500))
    #expect(try await events.next() == .connected)
    try #require(await peers.next()).drop()
    #expect(
      try await events.next()
        == .reconnecting(after: .milliseconds(500), reason: "connection lost"))
  }

  @Test(arguments: [
    (FakeWebSocketTransport.Outcome.reject(upgradeStatus: 410), "device_unregistered"),
    (.reject(upgradeStatus: 400), "invalid_device_token"),
    (.reject(upgradeStatus: 404), "relay_rejected"),
    (.fail(ServerBeeTransportError(.tlsUntrustedCertificate, "untrusted")), "relay_rejected"),
  ])
  func finalRefusalsEndTheStreamWithATypedError(
    _ outcome: FakeWebSocketTransport.Outcome, _ code: String
  ) async throws {
    let stream = makeStream(FakeWebSocketTransport(script: [outcome]))
    var events = stream.events().makeAsyncIterator()
    let error = await #expect(throws: NotificationPreferencesError.self) {
      _ = try await events.next()
    }
    #expect(error?.code.rawValue == code)
    #expect(error?.message.contains("the relay at http://127.0.0.1:8787") == true)
    #expect(error?.message.contains(Self.token.hex) == false)
  }

  @Test func anUnregisteredCloseEndsTheStream() async throws {
    let transport = FakeWebSocketTransport()
    let stream = makeStream(transport)
    var events = stream.events().makeAsyncIterator()
    var peers = transport.peers.makeAsyncIterator()
    #expect(try await events.next() == .connected)
    try #require(await peers.next()).close(code: .normalClosure, reason: "unregistered")
    let error = await #expect(throws: NotificationPreferencesError.self) {
      _ = try await events.next()
    }
    #expect(error?.code == .deviceUnregistered)
  }

  @Test func theServerAnswering503IsRetried() async throws {
    let transport = FakeWebSocketTransport(script: [.reject(upgradeStatus: 503), .accept])
    let stream = makeStream(transport, random: 0)
    var events = stream.events().makeAsyncIterator()
    #expect(try await events.next() == .reconnecting(after: .zero, reason: "it answered HTTP 503"))
    #expect(try await events.next() == .connected)
  }

  @Test func stoppingTheConsumerClosesTheConnection() async throws {
    let transport = FakeWebSocketTransport()
    let stream = makeStream(transport)
    var peers = transport.peers.makeAsyncIterator()
    let consumer = Task {
      var count = 0
      for try await payload in stream.payloads() {
        _ = payload
        count += 1
        if count == 1 { break }
      }
      return count
    }
    let peer = try #require(await peers.next())
    peer.send("{}")
    #expect(try await consumer.value == 1)
    var received = peer.received.makeAsyncIterator()
    #expect(await received.next() == nil)  // finishes once the client closed
    #expect(peer.clientClose?.code == .normalClosure)
  }

  @Test func stopEndsEveryStreamOfTheValue() async throws {
    let transport = FakeWebSocketTransport()
    let stream = makeStream(transport)
    var events = stream.events().makeAsyncIterator()
    #expect(try await events.next() == .connected)
    stream.stop()
    #expect(try await events.next() == nil)
  }

  @Test(arguments: [
    (0, 500), (1, 1000), (2, 2000), (5, 16_000), (6, 30_000), (40, 30_000), (100, 30_000),
  ])
  func theBackoffCeilingDoublesUpToItsCap(_ failures: Int, _ milliseconds: Int) {
    var backoff = RelayBackoff(initial: .milliseconds(500), maximum: .seconds(30))
    for _ in 0..<failures { _ = backoff.nextDelay(random: 0) }
    #expect(backoff.ceiling == .milliseconds(milliseconds))
    #expect(backoff.nextDelay(random: 0.25) == .milliseconds(milliseconds) * 0.25)
  }
}
