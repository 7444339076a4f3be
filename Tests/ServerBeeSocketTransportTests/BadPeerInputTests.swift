import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// Hostile bytes from a raw peer: each ends in a typed error and the right close code, never a
/// crash or a hang.
@Suite(.timeLimit(.minutes(5))) struct BadPeerInputTests {
  static let key: (UInt8, UInt8, UInt8, UInt8) = (1, 2, 3, 4)

  /// Our server side with a raw client that has completed the upgrade.
  func serverWithRawClient(maxMessageSize: Int = 1 << 20, maxPendingWrite: Int = 16 << 20)
    async throws -> (any WebSocketConnection, RawSocket)
  {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(RawSocket.upgradeRequest())
    let upgrade = try await HTTPServerRequest.read(from: try await listener.accept())
    var options = WebSocketServerOptions(maxMessageSize: maxMessageSize, compression: false)
    options.maxPendingWrite = maxPendingWrite
    let connection = try await upgrade.acceptWebSocket(options: options)
    let head = try HTTPHeadCodec.parseResponse(try await client.readHead())
    #expect(head.status == 101)
    return (connection, client)
  }

  func expectServerFailure(
    sending bytes: [UInt8], closeCode: UInt16, error code: ServerBeeTransportError.Code,
    maxMessageSize: Int = 1 << 20
  ) async throws {
    let (connection, client) = try await serverWithRawClient(maxMessageSize: maxMessageSize)
    try await client.write(bytes)
    let error = await #expect(throws: ServerBeeTransportError.self) {
      for try await _ in connection.inbound {}
    }
    #expect(error?.code == code)
    let reply = await client.readToEnd()
    #expect(Array(reply.prefix(4)) == [0x88, 0x02, UInt8(closeCode >> 8), UInt8(closeCode & 0xFF)])
  }

  @Test func aPeerThatFloodsPingsAndNeverReadsIsClosedNotFedMemory() async throws {
    let (connection, client) = try await serverWithRawClient(maxPendingWrite: 64 * 1024)
    let ping = WebSocketFrame(opcode: .ping, payload: [UInt8](repeating: 7, count: 125))
      .encoded(maskKey: Self.key)
    // 100,000 pings ask for 12.7 MB of pongs: far more than the socket buffers hold, so the
    // pongs pile up in the connection until it refuses to hold more than 64 KiB.
    let batch = Array([[UInt8]](repeating: ping, count: 1_000).joined())
    for _ in 0..<100 {
      guard (try? await client.write(batch)) != nil else { break }  // closed under us: done
    }
    let error = await #expect(throws: ServerBeeTransportError.self) {
      for try await _ in connection.inbound {}
    }
    #expect(error?.code == .sendBufferFull)
  }

  @Test func unmaskedClientFrameIsClosedWith1002() async throws {
    try await expectServerFailure(
      sending: hex("81 02 68 69"), closeCode: 1002, error: .protocolViolation)
  }

  @Test func invalidUTF8IsClosedWith1007() async throws {
    let frame = WebSocketFrame(opcode: .text, payload: hex("c0 af")).encoded(maskKey: Self.key)
    try await expectServerFailure(sending: frame, closeCode: 1007, error: .invalidPayload)
  }

  @Test func oversizeLengthIsClosedWith1009() async throws {
    try await expectServerFailure(
      sending: hex("82 fe 08 00 01 02 03 04"), closeCode: 1009, error: .messageTooBig,
      maxMessageSize: 1024)
  }

  @Test(arguments: ["83 80 01 02 03 04", "b1 80 01 02 03 04", "c1 80 01 02 03 04"])
  func badOpcodeOrReservedBitsAreClosedWith1002(frame: String) async throws {
    try await expectServerFailure(sending: hex(frame), closeCode: 1002, error: .protocolViolation)
  }

  @Test func truncatedFrameThenDisconnectIsConnectionLost() async throws {
    let (connection, client) = try await serverWithRawClient()
    try await client.write(hex("82 fe 01 00 01 02"))
    client.stream.close()
    let error = await #expect(throws: ServerBeeTransportError.self) {
      for try await _ in connection.inbound {}
    }
    #expect(error?.code == .connectionLost)
  }

  @Test func badUpgradeRequestGets400AndATypedError() async throws {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(RawSocket.upgradeRequest(key: "too-short"))
    let upgrade = try await HTTPServerRequest.read(from: try await listener.accept())
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await upgrade.acceptWebSocket()
    }
    #expect(error?.code == .handshakeInvalid)
    #expect(try HTTPHeadCodec.parseResponse(try await client.readHead()).status == 400)
  }

  /// Our client against a raw server that answers the upgrade with `response`, then `frames`.
  func clientAgainstRawServer(response: (String) -> String, frames: [UInt8] = [])
    async throws -> (Result<any WebSocketConnection, any Error>, RawSocket)
  {
    let listener = try TCPListener()
    let url = try #require(URL(string: "ws://127.0.0.1:\(listener.port)/"))
    let transport = SocketWebSocketTransport(
      configuration: .init(connectTimeout: .seconds(30), pingInterval: nil, compression: false),
      clock: ContinuousClock())
    async let connecting = capture { try await transport.connect(to: url, headers: [:]) }
    let server = try await RawSocket.accept(listener)
    let request = try HTTPHeadCodec.parseRequest(try await server.readHead())
    let key = try #require(request.headers["sec-websocket-key"])
    try await server.write(
      Array(response(WebSocketHandshake.acceptValue(forKey: key)).utf8) + frames)
    return (await connecting, server)
  }

  @Test func wrongAcceptKeyIsHandshakeInvalid() async throws {
    let (result, _) = try await clientAgainstRawServer { _ in
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n\r\n"
    }
    #expect(throws: ServerBeeTransportError.self) { try result.get() }
    #expect((result.failure as? ServerBeeTransportError)?.code == .handshakeInvalid)
  }

  @Test func garbageStatusLineIsMalformedHead() async throws {
    let (result, _) = try await clientAgainstRawServer { _ in "SSH-2.0-OpenSSH\r\n\r\n" }
    #expect((result.failure as? ServerBeeTransportError)?.code == .malformedHTTPHead)
  }

  @Test func maskedServerFrameMakesTheClientClose1002() async throws {
    let masked = WebSocketFrame(opcode: .text, payload: Array("hi".utf8)).encoded(maskKey: Self.key)
    let (result, server) = try await clientAgainstRawServer(
      response: { accept in
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Accept: \(accept)\r\n\r\n"
      }, frames: masked)
    let connection = try result.get()
    let error = await #expect(throws: ServerBeeTransportError.self) {
      for try await _ in connection.inbound {}
    }
    #expect(error?.code == .protocolViolation)
    // The client's close frame is masked: 0x88, 0x82, 4 key bytes, then 1002 masked.
    let reply = await server.readToEnd()
    try #require(reply.count >= 8)
    #expect(Array(reply.prefix(2)) == [0x88, 0x82])
    #expect([reply[6] ^ reply[2], reply[7] ^ reply[3]] == [0x03, 0xEA])
  }

  @Test func silentServerTimesOutTheHandshake() async throws {
    let listener = try TCPListener()
    let transport = SocketWebSocketTransport(
      configuration: .init(connectTimeout: .milliseconds(300), pingInterval: nil),
      clock: ContinuousClock())
    let url = try #require(URL(string: "wss://127.0.0.1:\(listener.port)/"))
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.connect(to: url, headers: [:])
    }
    #expect(error?.code == .timedOut)
  }

  @Test func cancellingAConnectThrowsCancellationError() async throws {
    let listener = try TCPListener()
    let transport = SocketWebSocketTransport(
      configuration: .init(connectTimeout: .seconds(30), pingInterval: nil),
      clock: ContinuousClock())
    let url = try #require(URL(string: "ws://127.0.0.1:\(listener.port)/"))
    let task = Task { try await transport.connect(to: url, headers: [:]) }
    let server = try await RawSocket.accept(listener)
    _ = try await server.readHead()  // the client is now waiting for our response
    task.cancel()
    await #expect(throws: CancellationError.self) { _ = try await task.value }
  }
}

func capture<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
  do { return .success(try await body()) } catch { return .failure(error) }
}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
