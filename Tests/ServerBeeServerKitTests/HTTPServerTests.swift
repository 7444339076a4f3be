import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// Slowloris defences of the shared server: the request-head deadline, the TLS handshake bound,
/// and load shedding when the connection cap is reached. Every server listens on an ephemeral
/// port and is stopped by its test; time limits are short only where the test waits for them.
@Suite(.timeLimit(.minutes(5))) struct HTTPServerTests {
  /// A started server that answers `200 <target>`.
  static func server(
    tls: TLSServerIdentity? = nil, _ configure: (inout HTTPServer.Configuration) -> Void = { _ in }
  ) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(tls: tls)
    configure(&configuration)
    let server = try HTTPServer(configuration: configuration)
    server.start { request in
      await request.respond(
        HTTPResponseHead(status: 200, reason: "OK", headers: [:]),
        body: Array(request.head.target.utf8))
    }
    return server
  }

  /// Waits (at most 10 s, polling) until the server's connections satisfy `condition`.
  static func waitUntil(
    _ server: HTTPServer, _ condition: @escaping ([ConnectionActivity]) -> Bool
  ) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while !condition(server.slotActivities) {
      guard ContinuousClock.now < deadline else {
        Issue.record("the server never reached the expected state: \(server.slotActivities)")
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Opens `count` connections that each send the start of a head and nothing more, and waits
  /// until the server holds them all.
  static func slowClients(_ count: Int, to server: HTTPServer) async throws -> [RawSocket] {
    var clients: [RawSocket] = []
    for index in 0..<count {
      let client = try await RawSocket.connect(port: server.port)
      try await client.write(Array("GET /slow\(index) HTTP/1.1\r\nHost: x\r\n".utf8))
      clients.append(client)
    }
    try await waitUntil(server) { $0.count == count }
    return clients
  }

  @Test func aHeadSentOneByteAtATimeGets408AtTheHeadDeadlineAndIsClosed() async throws {
    let server = try Self.server {
      // 2 s, not less: a first request's head deadline counts from accept, and a loaded machine
      // can delay the client's first byte by a second, which this deadline would rightly end
      // with a silent close (nothing had arrived) instead of the 408 under test.
      $0.requestHeadTimeout = .seconds(2)
      $0.requestTimeout = .seconds(30)
      $0.idleTimeout = .seconds(30)
    }
    defer { server.stop() }
    let client = try await RawSocket.connect(port: server.port)
    // At one byte per 50 ms this head would take over 12 s: far past the 2 s deadline but
    // well inside the 30 s budget for the whole request.
    let head = Array(
      ("GET /slow HTTP/1.1\r\nHost: x\r\nX-Padding: " + String(repeating: "a", count: 220))
        .utf8)
    var sent = 0
    while sent < head.count, !(await client.isReadable(within: .milliseconds(50))) {
      guard (try? await client.write([head[sent]])) != nil else { break }
      sent += 1
    }
    #expect(sent < head.count, "the server never answered the slow head")
    #expect(try await client.readResponse().status == 408)
    #expect(await client.isReadable(within: .seconds(60)))
    #expect(await client.readToEnd().isEmpty, "closed after the 408")
  }

  @Test func aTLSClientThatNeverFinishesItsHandshakeIsClosedAtTheHandshakeDeadline() async throws {
    let pki = try await TestPKI()
    let identity = try TLSServerIdentity(
      certificateChainFile: pki.leafCertificate, privateKeyFile: pki.leafKey)
    let server = try Self.server(tls: identity) { $0.handshakeTimeout = .milliseconds(300) }
    defer { server.stop() }
    let client = try await RawSocket.connect(port: server.port)
    // Never sends a ClientHello: only the handshake deadline can end this connection.
    #expect(await client.isReadable(within: .seconds(10)))
    #expect(await client.readToEnd().isEmpty)
    try await Self.waitUntil(server) { $0.isEmpty }
  }

  @Test func aNewClientIsServedWhileEverySlotHoldsASlowConnection() async throws {
    // Timeouts far beyond the test: only load shedding can make room.
    let server = try Self.server {
      $0.maximumConnections = 16
      $0.sheddingGracePeriod = .zero
      $0.requestHeadTimeout = .seconds(120)
      $0.requestTimeout = .seconds(120)
    }
    defer { server.stop() }
    let slow = try await Self.slowClients(16, to: server)
    let client = try await RawSocket.connect(port: server.port)
    try await client.write(Array("GET /fresh HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(try await client.readResponse() == (200, Array("/fresh".utf8)))
    // The oldest slow connection made room, with a 408; the others are still served.
    #expect(try await slow[0].readResponse().status == 408)
    for index in [1, 15] {
      try await slow[index].write(Array("\r\n".utf8))
      #expect(try await slow[index].readResponse() == (200, Array("/slow\(index)".utf8)))
    }
  }

  @Test func idleKeepAliveConnectionsAreShedBeforeSlowerOlderOnes() async throws {
    let server = try Self.server {
      $0.maximumConnections = 4
      $0.sheddingGracePeriod = .zero
      $0.requestHeadTimeout = .seconds(120)
      $0.requestTimeout = .seconds(120)
      $0.idleTimeout = .seconds(120)
    }
    defer { server.stop() }
    // Three slow connections first, so that each is older than the keep-alive one.
    let slow = try await Self.slowClients(3, to: server)
    let keepAlive = try await RawSocket.connect(port: server.port)
    try await keepAlive.write(Array("GET /first HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(try await keepAlive.readResponse() == (200, Array("/first".utf8)))
    try await Self.waitUntil(server) { activities in
      activities.count == 4
        && activities.contains { if case .idle = $0 { true } else { false } }
    }
    let client = try await RawSocket.connect(port: server.port)
    try await client.write(Array("GET /fresh HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(try await client.readResponse() == (200, Array("/fresh".utf8)))
    // The idle connection was closed without an answer; every slow one is still there.
    #expect(await keepAlive.isReadable(within: .seconds(60)))
    #expect(await keepAlive.readToEnd().isEmpty)
    for (index, connection) in slow.enumerated() {
      try await connection.write(Array("\r\n".utf8))
      #expect(try await connection.readResponse() == (200, Array("/slow\(index)".utf8)))
    }
  }

  @Test func aConnectionWithinItsGracePeriodIsNotShedSoTheNewcomerIsRefused() async throws {
    let server = try Self.server {
      $0.maximumConnections = 1
      $0.sheddingGracePeriod = .seconds(120)
      $0.requestHeadTimeout = .seconds(120)
    }
    defer { server.stop() }
    let slow = try await Self.slowClients(1, to: server)
    let refused = try await RawSocket.connect(port: server.port)
    // Generous: the refusal is immediate, but a loaded machine may take seconds to schedule it.
    #expect(await refused.isReadable(within: .seconds(60)))
    #expect(await refused.readToEnd().isEmpty)
    try await slow[0].write(Array("\r\n".utf8))
    #expect(try await slow[0].readResponse() == (200, Array("/slow0".utf8)))
  }

  @Test func aTLSHandshakeInProgressIsShedToMakeRoom() async throws {
    let pki = try await TestPKI()
    let identity = try TLSServerIdentity(
      certificateChainFile: pki.leafCertificate, privateKeyFile: pki.leafKey)
    let server = try Self.server(tls: identity) {
      $0.maximumConnections = 1
      $0.sheddingGracePeriod = .zero
      $0.handshakeTimeout = .seconds(120)
    }
    defer { server.stop() }
    let silent = try await RawSocket.connect(port: server.port)
    try await Self.waitUntil(server) { $0.count == 1 }
    let newcomer = try await RawSocket.connect(port: server.port)
    #expect(await silent.isReadable(within: .seconds(10)), "the handshake was cut off")
    #expect(await silent.readToEnd().isEmpty)
    withExtendedLifetime(newcomer) {}
  }
}
