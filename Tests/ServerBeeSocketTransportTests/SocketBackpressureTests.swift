import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// Backpressure in the native WebSocket: a peer that sends faster than the consumer
/// of `inbound` reads fills at most the high-water mark, is slowed by TCP, and every message
/// still arrives, in order; a keep-alive pong stuck behind unread messages is not a dead peer.
@Suite(.timeLimit(.minutes(5))) struct SocketBackpressureTests {
  static let highWater = 8

  /// Our client (small high-water mark, no compression, so bytes on the wire are the payload)
  /// against our server side.
  func pair(pingInterval: Duration? = nil, pongTimeout: Duration = .seconds(10)) async throws
    -> (client: SocketWebSocketConnection, server: any WebSocketConnection)
  {
    let listener = try TCPListener()
    var configuration = SocketWebSocketTransport.Configuration(
      connectTimeout: .seconds(30), pingInterval: pingInterval, pongTimeout: pongTimeout,
      compression: false)
    configuration.inboundHighWaterMessages = Self.highWater
    let transport = SocketWebSocketTransport(configuration: configuration, clock: ContinuousClock())
    let url = try #require(URL(string: "ws://127.0.0.1:\(listener.port)/"))
    async let client = transport.connect(to: url, headers: [:])
    let upgrade = try await HTTPServerRequest.read(from: try await listener.accept())
    let server = try await upgrade.acceptWebSocket(options: .init(compression: false))
    let connection = try #require(try await client as? SocketWebSocketConnection)
    return (connection, server)
  }

  /// Sends `count` numbered messages of `size` bytes as fast as the connection takes them;
  /// `sent` counts the sends that completed.
  func flood(_ server: any WebSocketConnection, count: Int, size: Int, sent: Locked<Int>)
    -> Task<Void, any Error>
  {
    Task {
      for index in 0..<count {
        let tag = "\(index):"
        try await server.send(
          .text(tag + String(repeating: "x", count: max(0, size - tag.utf8.count))))
        sent.withLock { $0 += 1 }
      }
    }
  }

  static func index(of message: WebSocketMessage) -> Int? {
    guard case .text(let text) = message else { return nil }
    return Int(text.prefix { $0 != ":" })
  }

  @Test func aFloodingPeerFillsAtMostTheHighWaterMarkAndEveryMessageArrivesInOrder()
    async throws
  {
    let (client, server) = try await pair()
    // 48 MiB in all: far more than the loopback socket buffers hold, so a reader that stopped
    // reading holds the server's sends back.
    let count = 3_000
    let sent = Locked(0)
    let flooding = flood(server, count: count, size: 16 * 1024, sent: sent)
    var inbound = client.inbound.makeAsyncIterator()
    #expect(try await inbound.next().flatMap(Self.index) == 0)
    // A slow consumer: the peer goes on sending meanwhile.
    try await Task.sleep(for: .milliseconds(500))
    #expect(client.bufferedMessageCount <= Self.highWater)
    #expect(sent.withLock { $0 } < count, "the peer was not slowed down")
    var received = [0]
    var largest = 0
    while received.count < count, let message = try await inbound.next() {
      received.append(Self.index(of: message) ?? -1)
      largest = max(largest, client.bufferedMessageCount)
      if received.count % 500 == 0 { try await Task.sleep(for: .milliseconds(20)) }
    }
    #expect(received == Array(0..<count))
    #expect(largest <= Self.highWater)
    try await flooding.value
    #expect(client.peakBufferedMessageCount <= Self.highWater)
    #expect(client.peakBufferedMessageCount >= Self.highWater / 2, "the reader never paused")
    await server.close(code: .normalClosure, reason: "done")
    #expect(try await inbound.next() == nil)
    #expect(client.receivedClose == WebSocketClose(code: .normalClosure, reason: "done"))
  }

  @Test func aKeepAlivePongStuckBehindUnreadMessagesIsNotAPingTimeout() async throws {
    // The server's pongs queue behind the flood the client does not read; without the pause
    // rule the client would give up after 300 ms.
    let (client, server) = try await pair(
      pingInterval: .milliseconds(100), pongTimeout: .milliseconds(300))
    let count = 2_000
    let sent = Locked(0)
    let flooding = flood(server, count: count, size: 16 * 1024, sent: sent)
    var inbound = client.inbound.makeAsyncIterator()
    #expect(try await inbound.next().flatMap(Self.index) == 0)
    try await Task.sleep(for: .seconds(2))  // several keep-alive rounds while paused
    var received = [0]
    while received.count < count, let message = try await inbound.next() {
      received.append(Self.index(of: message) ?? -1)
    }
    #expect(received == Array(0..<count))
    try await flooding.value
    try await client.ping()  // still alive, and answered once drained
    await client.close(code: .normalClosure, reason: nil)
  }

  @Test func closingWhilePausedCompletesWithoutWaitingForTheConsumer() async throws {
    let (client, server) = try await pair()
    let sent = Locked(0)
    let flooding = flood(server, count: 3_000, size: 16 * 1024, sent: sent)
    var inbound = client.inbound.makeAsyncIterator()
    _ = try await inbound.next()
    try await Task.sleep(for: .milliseconds(300))
    #expect(client.bufferedMessageCount <= Self.highWater)
    // The close reads on (dropping what does not fit) until the server's close arrives, well
    // within the 5 s close timeout.
    let started = ContinuousClock.now
    await client.close(code: .normalClosure, reason: nil)
    #expect(ContinuousClock.now - started < .seconds(4))
    #expect(client.receivedClose?.code == .normalClosure)
    _ = await flooding.result
  }
}
