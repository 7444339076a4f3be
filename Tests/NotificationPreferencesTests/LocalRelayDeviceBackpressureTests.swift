import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// The device stream under a relay that sends faster than its consumer reads: every
/// payload arrives, in order, and the stream takes a message from the connection only when its
/// consumer has room, so the backlog in memory is bounded and the connection's own
/// backpressure reaches the relay.
@Suite(.timeLimit(.minutes(5)))
struct LocalRelayDeviceBackpressureTests {
  static let token = PushDeviceToken(hex: String(repeating: "7e", count: 32), environment: .sandbox)
  static let relay = URL(string: "http://127.0.0.1:8787") ?? URL(fileURLWithPath: "/")

  func makeStream(_ transport: FloodingWebSocketTransport) -> LocalRelayDeviceStream {
    LocalRelayDeviceStream(
      relay: Self.relay, deviceToken: Self.token, transport: transport, configuration: .init(),
      clock: ManualClock(), random: { 0.5 })
  }

  /// What the stream has taken from the connection but its consumer has not yet: at most the
  /// buffered events per stage plus the one each stage's task holds.
  static func backlog(_ transport: FloodingWebSocketTransport, taken: Int) -> Int {
    transport.pulled - taken
  }

  @Test func eventsDeliverEveryPayloadInOrderAndTakeFromTheConnectionOnlyWhenThereIsRoom()
    async throws
  {
    let count = 2_000
    let transport = FloodingWebSocketTransport(count: count)
    let stream = makeStream(transport)
    var events = stream.events().makeAsyncIterator()
    #expect(try await events.next() == .connected)
    // A slow consumer: give the stream time to run ahead if it could.
    try await Task.sleep(for: .milliseconds(200))
    var largest = Self.backlog(transport, taken: 0)
    var received: [LocalRelayDeviceStream.Event] = []
    for index in 0..<count {
      received.append(try #require(try await events.next()))
      largest = max(largest, Self.backlog(transport, taken: index + 1))
      if index % 400 == 0 { try await Task.sleep(for: .milliseconds(20)) }
    }
    #expect(received == (0..<count).map { .push(Data("push \($0)".utf8)) })
    #expect(largest <= LocalRelayDeviceStream.bufferedEvents + 2)
    stream.stop()
  }

  @Test func payloadsDeliverEveryPayloadInOrderWithABoundedBacklog() async throws {
    let count = 1_000
    let transport = FloodingWebSocketTransport(count: count)
    let stream = makeStream(transport)
    var payloads = stream.payloads().makeAsyncIterator()
    #expect(try await payloads.next() == Data("push 0".utf8))
    try await Task.sleep(for: .milliseconds(200))
    var largest = Self.backlog(transport, taken: 1)
    var received: [Data] = []
    for index in 1..<count {
      received.append(try #require(try await payloads.next()))
      largest = max(largest, Self.backlog(transport, taken: index + 1))
    }
    #expect(received == (1..<count).map { Data("push \($0)".utf8) })
    // Two bounded stages (events, then payloads), each with a task holding one in hand.
    #expect(largest <= 2 * LocalRelayDeviceStream.bufferedEvents + 3)
    stream.stop()
  }

  @Test func theListenerDeliversEveryPushInOrderWithABoundedBacklog() async throws {
    let count = 500
    let transport = FloodingWebSocketTransport(count: count)
    let store = InMemoryCredentialStore()
    let listener = LocalRelayDeviceListener(
      relayURL: Self.relay, deviceToken: Self.token, store: store,
      step: NotificationExtensionStep(store: store, language: .english),
      stream: makeStream(transport))
    var events = listener.events().makeAsyncIterator()
    #expect(try await events.next() == .connected)
    try await Task.sleep(for: .milliseconds(200))
    var largest = Self.backlog(transport, taken: 0)
    var received: [Data] = []
    for index in 0..<count {
      guard case .push(let push) = try await events.next() else {
        Issue.record("expected push \(index)")
        return
      }
      // Not an envelope: shown with the fallback text, never dropped.
      #expect(push.failure != nil)
      received.append(push.payload)
      largest = max(largest, Self.backlog(transport, taken: index + 1))
    }
    #expect(received == (0..<count).map { Data("push \($0)".utf8) })
    #expect(largest <= 2 * LocalRelayDeviceStream.bufferedEvents + 3)
    listener.stop()
  }

  @Test func aConsumerThatStopsEndsTheProducerWhileItWaitsForRoom() async throws {
    let transport = FloodingWebSocketTransport(count: 100_000)
    let stream = makeStream(transport)
    do {
      var events = stream.events().makeAsyncIterator()
      #expect(try await events.next() == .connected)
      #expect(try await events.next() == .push(Data("push 0".utf8)))
    }
    // The iterator is gone: the runner, blocked on a full buffer, stops and closes.
    try await transport.waitUntilClosed()
    #expect(transport.pulled < 100)
  }
}

/// A transport whose one connection has `count` payloads ready at once ("push 0", "push 1", …)
/// and counts how many the stream has pulled; after them the connection stays open.
final class FloodingWebSocketTransport: WebSocketTransport, Sendable {
  private struct State {
    var pulled = 0
    var closed = false
    var connections = 0
  }
  private let state = Locked(State())
  let count: Int

  init(count: Int) { self.count = count }

  var pulled: Int { state.withLock { $0.pulled } }

  func connect(to url: URL, headers: HTTPHeaders) async throws -> any WebSocketConnection {
    let first = state.withLock { state -> Bool in
      state.connections += 1
      return state.connections == 1
    }
    guard first else { throw ServerBeeTransportError(.connectionRefused, "one connection only") }
    return Connection(transport: self)
  }

  /// Waits (polling, at most 60 s) until the connection was closed.
  func waitUntilClosed() async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    while !state.withLock({ $0.closed }) {
      guard ContinuousClock.now < deadline else {
        Issue.record("the connection was never closed")
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  final class Connection: WebSocketConnection, Sendable {
    let inbound: AsyncThrowingStream<WebSocketMessage, any Error>
    private let transport: FloodingWebSocketTransport

    init(transport: FloodingWebSocketTransport) {
      self.transport = transport
      let count = transport.count
      inbound = AsyncThrowingStream(unfolding: { [transport] in
        let index = transport.state.withLock { state -> Int? in
          guard state.pulled < count, !state.closed else { return nil }
          state.pulled += 1
          return state.pulled - 1
        }
        guard let index else {
          // Drained: stay open (like a quiet relay) until cancelled or closed.
          while !Task.isCancelled, !transport.state.withLock({ $0.closed }) {
            try await Task.sleep(for: .milliseconds(10))
          }
          return nil
        }
        return .text("push \(index)")
      })
    }

    var receivedClose: WebSocketClose? { nil }
    func send(_ message: WebSocketMessage) async throws {}
    func ping() async throws {}
    func close(code: WebSocketCloseCode, reason: String?) async {
      transport.state.withLock { $0.closed = true }
    }
  }
}
