import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import ServerBeeTestSupport
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// Our client against the Python `websockets` server (Peers/ws_server_peer.py).
///
/// Neither side has a deadline a slow machine can reach: the peer's opening and
/// closing waits are `PATIENCE` and it runs until the test ends it, and our connect and close
/// handshake limits are ``PeerProcess/patience``, so each step waits for the other side's event.
@Suite(.timeLimit(.minutes(5))) struct ClientInteropTests {
  func peer(compression: Bool) async throws -> (PeerProcess, Int) {
    let peer = try await PeerProcess.python(
      "ws_server_peer.py", compression ? [] : ["--no-compression"])
    return (peer, Int(try await peer.port()))
  }

  func transport(compression: Bool, clock: any Clock<Duration> = ContinuousClock())
    -> SocketWebSocketTransport
  {
    SocketWebSocketTransport(
      configuration: .init(
        connectTimeout: PeerProcess.patience, pingInterval: nil,
        closeTimeout: PeerProcess.patience, compression: compression),
      clock: clock)
  }

  func url(_ port: Int, _ path: String) throws -> URL {
    try #require(URL(string: "ws://127.0.0.1:\(port)\(path)"))
  }

  @Test(arguments: [true, false])
  func handshakeCarriesBearerAndNegotiatesCompression(compression: Bool) async throws {
    let (peer, port) = try await peer(compression: compression)
    let connection = try await transport(compression: compression).connect(
      to: try url(port, "/info"), headers: ["Authorization": "Bearer t0k3n"])
    var iterator = connection.inbound.makeAsyncIterator()
    guard case .text(let json)? = try await iterator.next() else {
      Issue.record("expected a text message")
      return
    }
    let info = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    #expect(info?["authorization"] as? String == "Bearer t0k3n")
    let extensions = info?["extensions"] as? String
    #expect((extensions?.hasPrefix("permessage-deflate") ?? false) == compression)
    await connection.close(code: .normalClosure, reason: "done")
    withExtendedLifetime(peer) {}
  }

  @Test(arguments: [true, false])
  func echoesTextAndMultiMegabyteBinaryAndAnswersPing(compression: Bool) async throws {
    let (peer, port) = try await peer(compression: compression)
    let connection = try await transport(compression: compression).connect(
      to: try url(port, "/echo"), headers: [:])
    var iterator = connection.inbound.makeAsyncIterator()
    try await connection.send(.text("héllo"))
    #expect(try await iterator.next() == .text("héllo"))
    let blob = Data((0..<(1536 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    try await connection.send(.binary(blob))
    #expect(try await iterator.next() == .binary(blob))
    try await connection.ping()
    await connection.close(code: .normalClosure, reason: "bye")
    #expect(try await iterator.next() == nil)
    #expect(await connection.receivedClose?.code == .normalClosure)
    withExtendedLifetime(peer) {}
  }

  /// An empty message between others, both ways through `websockets`' zlib: ours must be the
  /// empty block `00` (zlib alone writes nothing, and the peer's inflater then fails on the
  /// next message), and theirs must leave our stream in step.
  @Test(arguments: [true, false])
  func emptyMessagesEchoBetweenOthers(compression: Bool) async throws {
    let (peer, port) = try await peer(compression: compression)
    let connection = try await transport(compression: compression).connect(
      to: try url(port, "/echo"), headers: [:])
    var iterator = connection.inbound.makeAsyncIterator()
    let messages: [WebSocketMessage] = [
      .text("cpu 12.5"), .text(""), .binary(Data()), .text(""), .text("cpu 12.5"),
      .binary(Data("mem".utf8)),
    ]
    for message in messages {
      try await connection.send(message)
      #expect(try await iterator.next() == message)
    }
    await connection.close(code: .normalClosure, reason: nil)
    withExtendedLifetime(peer) {}
  }

  @Test(arguments: [true, false])
  func receivesFragmentedAndLargeServerMessages(compression: Bool) async throws {
    let (peer, port) = try await peer(compression: compression)
    let connection = try await transport(compression: compression).connect(
      to: try url(port, "/fragmented"), headers: [:])
    var iterator = connection.inbound.makeAsyncIterator()
    #expect(try await iterator.next() == .text("fragmented tëxt"))
    let expected = Data((0..<(1536 * 1024)).map { UInt8($0 % 251) })
    #expect(try await iterator.next() == .binary(expected))
    await connection.close(code: .goingAway, reason: nil)
    withExtendedLifetime(peer) {}
  }

  @Test(arguments: [true, false])
  func serverClose4001FinishesTheStreamWithTheCodeAndReason(compression: Bool) async throws {
    let (peer, port) = try await peer(compression: compression)
    let connection = try await transport(compression: compression).connect(
      to: try url(port, "/close-4001"), headers: [:])
    for try await message in connection.inbound { Issue.record("unexpected \(message)") }
    #expect(
      await connection.receivedClose == WebSocketClose(code: .tokenExpired, reason: "token expired")
    )
    await #expect(throws: ServerBeeTransportError.self) { try await connection.send(.text("late")) }
    withExtendedLifetime(peer) {}
  }

  @Test func acceptsNoContextTakeoverAndWindowBitsFromThePythonServer() async throws {
    let peer = try await PeerProcess.python("ws_server_peer.py", ["--no-context-takeover"])
    let port = Int(try await peer.port())
    let connection = try await transport(compression: true).connect(
      to: try url(port, "/info"), headers: [:])
    var iterator = connection.inbound.makeAsyncIterator()
    guard case .text(let json)? = try await iterator.next() else {
      Issue.record("expected a text message")
      return
    }
    #expect(json.contains("server_no_context_takeover; client_no_context_takeover"))
    for index in 0..<10 {
      let text = String(repeating: "cpu \(index) ", count: 2000)
      try await connection.send(.text(text))
      #expect(try await iterator.next() == .text(text))
    }
    await connection.close(code: .normalClosure, reason: nil)
    withExtendedLifetime(peer) {}
  }

  @Test func rejectedUpgradeReportsTheStatus() async throws {
    let (peer, port) = try await peer(compression: true)
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport(compression: true).connect(to: try url(port, "/reject"), headers: [:])
    }
    #expect(error?.code == .upgradeRejected)
    #expect(error?.httpStatus == 401)
    withExtendedLifetime(peer) {}
  }

  @Test func deadPeerFailsWithPingTimeoutOnTheInjectedClock() async throws {
    let (peer, port) = try await peer(compression: false)
    let clock = ManualClock()
    let transport = SocketWebSocketTransport(
      configuration: .init(
        connectTimeout: PeerProcess.patience, pingInterval: .seconds(25),
        pongTimeout: .seconds(10)),
      clock: clock)
    let connection = try await transport.connect(to: try url(port, "/nopong"), headers: [:])
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(25))  // the keep-alive ping goes out
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(10))  // no pong: dead peer
    let error = await #expect(throws: ServerBeeTransportError.self) {
      for try await _ in connection.inbound {}
    }
    #expect(error?.code == .pingTimeout)
    withExtendedLifetime(peer) {}
  }

  @Test func refusedAndUnresolvableHostsAreDistinctErrors() async throws {
    let transport = transport(compression: false)
    let listener = try TCPListener()
    let port = listener.port
    listener.close()
    _ = consume listener  // nothing listens on `port` any more
    let refused = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.connect(to: try url(Int(port), "/"), headers: [:])
    }
    #expect(refused?.code == .connectionRefused)
    let unresolvable = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.connect(
        to: try #require(URL(string: "ws://no-such-host.invalid/")), headers: [:])
    }
    #expect(unresolvable?.code == .nameResolutionFailed)
    let badScheme = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.connect(
        to: try #require(URL(string: "http://127.0.0.1/")), headers: [:])
    }
    #expect(badScheme?.code == .invalidURL)
  }
}
