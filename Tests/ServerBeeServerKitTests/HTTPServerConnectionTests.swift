import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// Keep-alive and TLS on the server side: several requests per connection, the limits answered
/// with their status, and TLS served to our own client and to a peer that hangs up.
@Suite(.timeLimit(.minutes(5))) struct HTTPServerConnectionTests {
  /// Serves `count` requests with `200 <target>` and reports how many arrived.
  ///
  /// The default request budget is generous: it only ends a broken test, and on a loaded
  /// machine running every suite at once the client may take seconds to send its next request.
  static func serve(
    _ listener: TCPListener, tls: TLSServerIdentity? = nil, timeout: Duration = .seconds(120)
  ) async throws -> [String] {
    let connection = try await HTTPServerConnection(socket: try await listener.accept(), tls: tls)
    var targets: [String] = []
    while let request = try await connection.next(timeout: timeout, maxBodySize: 1024) {
      targets.append(request.head.target + ":" + String(decoding: request.body, as: UTF8.self))
      await request.respond(
        HTTPResponseHead(status: 200, reason: "OK", headers: [:]),
        body: Array(request.head.target.utf8))
    }
    return targets
  }

  @Test func servesSeveralRequestsOnOneConnectionIncludingPipelinedOnes() async throws {
    let listener = try TCPListener()
    async let served = Self.serve(listener)
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(try await client.readResponse() == (200, Array("/a".utf8)))
    try await client.write(
      Array(
        ("POST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /c HTTP/1.1\r\n\r\n"
          + "GET /d HTTP/1.1\r\nConnection: close\r\n\r\n").utf8))
    #expect(try await client.readResponse() == (200, Array("/b".utf8)))
    #expect(try await client.readResponse() == (200, Array("/c".utf8)))
    #expect(try await client.readResponse() == (200, Array("/d".utf8)))
    #expect(await client.readToEnd().isEmpty)
    #expect(try await served == ["/a:", "/b:hi", "/c:", "/d:"])
  }

  @Test func idleConnectionEndsWithoutAnAnswerAndPartialRequestGets408() async throws {
    let listener = try TCPListener()
    async let idle = Self.serve(listener, timeout: .milliseconds(200))
    let quiet = try await RawSocket.connect(port: listener.port)
    #expect(try await idle.isEmpty)
    #expect(await quiet.readToEnd().isEmpty)
    let slow = try await RawSocket.connect(port: listener.port)
    try await slow.write(Array("GET /slow HTTP/1.1\r\n".utf8))
    let connection = try await HTTPServerConnection(socket: try await listener.accept())
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await connection.next(timeout: .milliseconds(200))
    }
    #expect(error?.code == .timedOut)
    #expect(try await slow.readResponse().status == 408)
  }

  @Test func aKeptAliveRequestsHeadDeadlineStartsAtItsFirstByteNotAtTheLastResponse()
    async throws
  {
    let listener = try TCPListener()
    let served = Task {
      let connection = try await HTTPServerConnection(socket: try await listener.accept())
      var targets: [String] = []
      while let request = try await connection.next(
        timeout: .seconds(30), headTimeout: .milliseconds(300), idleTimeout: .seconds(30))
      {
        targets.append(request.head.target)
        await request.respond(HTTPResponseHead(status: 200, reason: "OK", headers: [:]))
      }
      return targets
    }
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(Array("GET /a HTTP/1.1\r\n\r\n".utf8))
    #expect(try await client.readResponse().status == 200)
    // Idle for longer than the head deadline: that is the idle limit's business, not the head's.
    try await Task.sleep(for: .milliseconds(600))
    try await client.write(Array("GET /b HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
    #expect(try await client.readResponse().status == 200)
    #expect(try await served.value == ["/a", "/b"])
  }

  @Test func anIdleKeptAliveConnectionIsClosedSilentlyAtTheIdleTimeout() async throws {
    let listener = try TCPListener()
    let served = Task {
      let connection = try await HTTPServerConnection(socket: try await listener.accept())
      var count = 0
      while let request = try await connection.next(
        timeout: .seconds(30), headTimeout: .seconds(30), idleTimeout: .milliseconds(200))
      {
        count += 1
        await request.respond(HTTPResponseHead(status: 200, reason: "OK", headers: [:]))
      }
      return count
    }
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(Array("GET /a HTTP/1.1\r\n\r\n".utf8))
    #expect(try await client.readResponse().status == 200)
    #expect(await client.isReadable(within: .seconds(10)))
    #expect(await client.readToEnd().isEmpty, "no 408 for a connection that sent nothing")
    #expect(try await served.value == 1)
  }

  func rejection(_ text: String) async throws -> (ServerBeeTransportError?, Int) {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(Array(text.utf8))
    let connection = try await HTTPServerConnection(socket: try await listener.accept())
    var thrown: ServerBeeTransportError?
    do {
      _ = try await connection.next(
        maxBodySize: 16, limits: HTTPHeadCodec.Limits(maxHeadBytes: 256))
    } catch let error as ServerBeeTransportError {
      thrown = error
    }
    return (thrown, try await client.readResponse().status)
  }

  @Test func oversizedHeadIs431AndOversizedBodyIs413() async throws {
    let head = try await rejection(
      "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 300) + "\r\n\r\n")
    #expect(head.0?.code == .malformedHTTPHead && head.1 == 431)
    let body = try await rejection("POST / HTTP/1.1\r\nContent-Length: 17\r\n\r\n")
    #expect(body.0?.code == .malformedHTTPHead && body.1 == 413)
  }

  @Test func expectContinueGetsTheInterimResponseBeforeTheBody() async throws {
    let listener = try TCPListener()
    async let served = Self.serve(listener)
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(
      Array("PUT /e HTTP/1.1\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n".utf8))
    #expect(try HTTPHeadCodec.parseResponse(try await client.readHead()).status == 100)
    try await client.write(Array("abc".utf8))
    #expect(try await client.readResponse() == (200, Array("/e".utf8)))
    try await client.write(Array("GET /f HTTP/1.0\r\n\r\n".utf8))
    #expect(try await client.readResponse() == (200, Array("/f".utf8)))
    #expect(await client.readToEnd().isEmpty)
    #expect(try await served == ["/e:abc", "/f:"])
  }

  @Test func aRequestLineEndingInABareLFIsAnImmediate400() async throws {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    let connection = try await HTTPServerConnection(socket: try await listener.accept())
    try await client.write(Array("GET /x HTTP/1.1\n".utf8))
    let started = ContinuousClock.now
    await #expect(throws: ServerBeeTransportError.self) {
      _ = try await connection.next(timeout: .seconds(300))
    }
    // Far below the budget, and generous for a loaded machine: speed is not what is checked.
    #expect(ContinuousClock.now - started < .seconds(30), "no wait for the 300 s request budget")
    let reply = await client.readToEnd()
    #expect(String(decoding: reply.prefix(12), as: UTF8.self) == "HTTP/1.1 400")
  }

  @Test func closeFromAnotherTaskEndsAWaitingRead() async throws {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    let connection = try await HTTPServerConnection(socket: try await listener.accept())
    let request = Task { try await connection.next(timeout: .seconds(30)) }
    try await Task.sleep(for: .milliseconds(50))
    connection.close()
    // The waiting read ends at once: with CancellationError when the wake-up interrupts the
    // wait, or `nil` ("the connection is over", as documented) when it sees the shut-down
    // socket first. Which one depends on thread timing; neither may hang or yield a request.
    do {
      let value = try await request.value
      #expect(value == nil)
    } catch {
      // Interrupted: fine.
    }
    #expect(await client.readToEnd().isEmpty)
  }

  @Test func closedListenerRefusesNewConnectionsAndFreesItsPort() async throws {
    let listener = try TCPListener()
    listener.close()
    await #expect(throws: ServerBeeTransportError.self) {
      _ = try await RawSocket.connect(port: listener.port)
    }
    let again = try TCPListener(port: listener.port)
    #expect(again.port == listener.port)
    withExtendedLifetime(listener) {}
  }

  @Test func tlsServerCarriesAWebSocketToOurClientWithTheTestCA() async throws {
    let pki = try await TestPKI()
    let identity = try TLSServerIdentity(
      certificateChainFile: pki.leafCertificate, privateKeyFile: pki.leafKey)
    let listener = try TCPListener()
    let server = Task {
      let connection = try await HTTPServerConnection(
        socket: try await listener.accept(), tls: identity)
      let request = try #require(try await connection.next())
      let socket = try await request.acceptWebSocket()
      for try await message in socket.inbound { try await socket.send(message) }
    }
    let transport = SocketWebSocketTransport(
      configuration: .init(pingInterval: nil, tls: TLSTrust(additionalCAFile: pki.caFile)),
      clock: ContinuousClock())
    let client = try await transport.connect(
      to: try #require(URL(string: "wss://localhost:\(listener.port)/echo")), headers: [:])
    var iterator = client.inbound.makeAsyncIterator()
    try await client.send(.text("over server tls"))
    #expect(try await iterator.next() == .text("over server tls"))
    await client.close(code: .normalClosure, reason: nil)
    try await server.value
  }

  /// A real ClientHello from our own TLS client, captured by a listener that never answers.
  static func capturedClientHello() async throws -> [UInt8] {
    let capture = try TCPListener()
    let port = capture.port
    let client = Task {
      try? await offPool {
        let wake = try WakePipe()
        let fd = try TCPConnector.connect(
          host: "127.0.0.1", port: port, deadline: .now.advanced(by: .seconds(2)), wake: wake)
        _ = try? TLSStream(
          descriptor: fd, host: "localhost", trust: TLSTrust(),
          deadline: .now.advanced(by: .milliseconds(300)), wake: wake)
      }
    }
    let peer = try await RawSocket.accept(capture)
    let hello = await peer.readToEnd()
    _ = await client.value
    return hello
  }

  @Test func tlsClientHangingUpMidHandshakeFailsOnlyThatConnection() async throws {
    let pki = try await TestPKI()
    let identity = try TLSServerIdentity(
      certificateChainFile: pki.leafCertificate, privateKeyFile: pki.leafKey)
    let hello = try await Self.capturedClientHello()
    #expect(hello.first == 0x16)
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    // The server answers a complete ClientHello into a socket whose peer is gone: without
    // MSG_NOSIGNAL that write would raise SIGPIPE and end this test process.
    try await client.write(hello)
    client.stream.close()
    await #expect(throws: ServerBeeTransportError.self) {
      _ = try await HTTPServerConnection(socket: try await listener.accept(), tls: identity)
    }
  }

  @Test func workerReusesOneThreadAndStillRunsJobsAfterStop() async throws {
    let worker = BlockingWorker()
    let wake = try WakePipe()
    let thread = { @Sendable in ObjectIdentifier(Thread.current).hashValue }
    let first = try await worker.run(wake: wake, thread).value
    let second = try await worker.run(wake: wake, thread).value
    #expect(second == first)
    worker.stop()
    #expect(try await worker.run(wake: wake) { 42 }.value == 42)
  }

  @Test func runBlockingReturnsAndRethrowsWhatTheWorkDoes() async throws {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    let connection = try await HTTPServerConnection(socket: try await listener.accept())
    #expect(try await connection.runBlocking { 7 } == 7)
    await #expect(throws: PeerError.self) {
      _ = try await connection.runBlocking { () throws -> Int in throw PeerError("boom") }
    }
    connection.close()
    #expect(await client.readToEnd().isEmpty)
  }

  @Test func missingKeyFileIsATypedError() async throws {
    let pki = try await TestPKI()
    let error = #expect(throws: ServerBeeTransportError.self) {
      _ = try TLSServerIdentity(
        certificateChainFile: pki.leafCertificate,
        privateKeyFile: pki.caFile.deletingLastPathComponent().appendingPathComponent("none.pem"))
    }
    #expect(error?.code == .tlsHandshakeFailed)
  }
}
