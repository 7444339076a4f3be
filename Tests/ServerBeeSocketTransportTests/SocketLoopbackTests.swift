import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// Our client against our own server side: addressing, close paths and compression settings
/// that the Python peers do not cover.
@Suite(.timeLimit(.minutes(5))) struct SocketLoopbackTests {
  func transport(
    compression: Bool = true, closeTimeout: Duration = .seconds(5)
  ) -> SocketWebSocketTransport {
    SocketWebSocketTransport(
      configuration: .init(
        connectTimeout: .seconds(30), pingInterval: nil, closeTimeout: closeTimeout,
        compression: compression),
      clock: ContinuousClock())
  }

  /// Connects our client to `url` and accepts it on `listener` with our server side.
  func pair(_ listener: TCPListener, url: String, compression: Bool = true) async throws
    -> (client: any WebSocketConnection, server: any WebSocketConnection)
  {
    let target = try #require(URL(string: url))
    async let client = transport(compression: compression).connect(to: target, headers: [:])
    let upgrade = try await HTTPServerRequest.read(from: try await listener.accept())
    let server = try await upgrade.acceptWebSocket(options: .init(compression: compression))
    return (try await client, server)
  }

  func echoRoundTrip(
    _ client: any WebSocketConnection, _ server: any WebSocketConnection, messages: Int = 3
  ) async throws {
    var clientInbound = client.inbound.makeAsyncIterator()
    var serverInbound = server.inbound.makeAsyncIterator()
    for index in 0..<messages {
      let text = String(repeating: "metrics \(index) ", count: 500)
      try await client.send(.text(text))
      #expect(try await serverInbound.next() == .text(text))
      try await server.send(.binary(Data(text.utf8)))
      #expect(try await clientInbound.next() == .binary(Data(text.utf8)))
    }
  }

  @Test func connectsOverIPv6Loopback() async throws {
    let listener = try TCPListener(host: "::1")
    let (client, server) = try await pair(listener, url: "ws://[::1]:\(listener.port)/v6")
    try await echoRoundTrip(client, server)
    await client.close(code: .normalClosure, reason: nil)
  }

  @Test func resolvesLocalhostByName() async throws {
    let listener = try TCPListener()
    let (client, server) = try await pair(listener, url: "ws://localhost:\(listener.port)/")
    try await echoRoundTrip(client, server)
    await server.close(code: .goingAway, reason: "restart")
    for try await _ in client.inbound {}
    #expect(await client.receivedClose == WebSocketClose(code: .goingAway, reason: "restart"))
  }

  @Test(arguments: [true, false])
  func contextTakeoverCompressionRoundTripsManyMessagesBothWays(compression: Bool) async throws {
    let listener = try TCPListener()
    let (client, server) = try await pair(
      listener, url: "ws://127.0.0.1:\(listener.port)/", compression: compression)
    try await echoRoundTrip(client, server, messages: 20)
    await client.close(code: .normalClosure, reason: "done")
    for try await _ in server.inbound {}
    #expect(await server.receivedClose == WebSocketClose(code: .normalClosure, reason: "done"))
  }

  @Test func peerDroppingTCPWithoutACloseIsConnectionLostForTheClient() async throws {
    let listener = try TCPListener()
    let url = try #require(URL(string: "ws://127.0.0.1:\(listener.port)/"))
    async let client = transport(compression: false).connect(to: url, headers: [:])
    let raw = try await RawSocket.accept(listener)
    let request = try HTTPHeadCodec.parseRequest(try await raw.readHead())
    let key = try #require(request.headers["sec-websocket-key"])
    try await raw.write(WebSocketHandshake.switchingProtocols(key: key, extensions: nil).serialized)
    let connection = try await client
    raw.stream.close()
    let error = await #expect(throws: ServerBeeTransportError.self) {
      for try await _ in connection.inbound {}
    }
    #expect(error?.code == .connectionLost)
  }

  @Test func closeReturnsAfterTheCloseTimeoutWhenThePeerNeverAnswers() async throws {
    let listener = try TCPListener()
    let url = try #require(URL(string: "ws://127.0.0.1:\(listener.port)/"))
    async let client = transport(compression: false, closeTimeout: .milliseconds(200))
      .connect(to: url, headers: [:])
    let raw = try await RawSocket.accept(listener)
    let request = try HTTPHeadCodec.parseRequest(try await raw.readHead())
    let key = try #require(request.headers["sec-websocket-key"])
    try await raw.write(WebSocketHandshake.switchingProtocols(key: key, extensions: nil).serialized)
    let connection = try await client
    await connection.close(code: .normalClosure, reason: "bye")  // the raw peer stays silent
    #expect(await connection.receivedClose == nil)
    await #expect(throws: ServerBeeTransportError.self) { try await connection.ping() }
    withExtendedLifetime(raw) {}
  }

  @Test func sendAfterCloseIsConnectionClosed() async throws {
    let listener = try TCPListener()
    let (client, server) = try await pair(listener, url: "ws://127.0.0.1:\(listener.port)/")
    await client.close(code: .normalClosure, reason: nil)
    let error = await #expect(throws: ServerBeeTransportError.self) {
      try await client.send(.text("late"))
    }
    #expect(error?.code == .connectionClosed)
    withExtendedLifetime(server) {}
  }
}
