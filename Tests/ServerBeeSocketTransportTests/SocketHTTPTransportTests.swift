import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// The native HTTP client against a Python `http.server` peer (Peers/http_peer.py) and
/// `openssl s_server`: framing, no redirects, the total deadline, the size cap, keep-alive per
/// origin and typed TLS failures with the same `TLSTrust` as the WebSocket.
@Suite(.timeLimit(.minutes(5))) struct SocketHTTPTransportTests {
  let peer: PeerProcess
  let base: URL

  init() async throws {
    peer = try PeerProcess(
      "python3", [PeerProcess.peersDirectory.appendingPathComponent("http_peer.py").path])
    base = try #require(URL(string: "http://127.0.0.1:\(try await peer.port())"))
  }

  func get(_ path: String, _ transport: SocketHTTPTransport = SocketHTTPTransport()) async throws
    -> HTTPResponse
  {
    try await transport.send(HTTPRequest(url: base.appendingPathComponent(path)))
  }

  /// The request line's target: a plain path as is, anything else as `URLComponents` gives it.
  @Test(arguments: [
    ("http://127.0.0.1:9/v1/send", "/v1/send"), ("http://h/a%20b?x=1&y", "/a%20b?x=1&y"),
    ("http://h", "/"), ("http://h/?", "/?"), ("https://u@h:8/p~q", "/p~q"),
  ])
  func theRequestTargetIsThePathAndQuery(_ url: String, _ target: String) throws {
    let request = HTTPRequest(method: .get, url: try #require(URL(string: url)))
    let head = SocketHTTPTransport.serialize(request, host: "h", port: 80, secure: false)
    #expect(head.starts(with: Array("GET \(target) HTTP/1.1\r\n".utf8)), "\(url)")
  }

  @Test(arguments: [
    ("close", true), ("Keep-Alive, Close", true), (" close ", true), ("keep-alive", false),
    ("closed", false), ("upgrade,\tclose", true), ("", false), ("CLOSE,x", true),
  ])
  func aConnectionValueSaysCloseOnlyWhenItListsClose(_ value: String, _ closes: Bool) {
    #expect(HTTPResponseReader.saysClose(value) == closes, "\(value)")
  }

  @Test func getReturnsStatusLowercasedHeadersAndBody() async throws {
    let response = try await SocketHTTPTransport().send(
      HTTPRequest(url: base.appendingPathComponent("hello"), headers: ["X-Probe": "p1"]))
    #expect(response.status == 200 && response.body == Data("hello".utf8))
    #expect(response.headers["content-type"] == "text/plain")
    #expect(response.headers["x-echo"] == "p1")
  }

  @Test func postSendsMethodHeadersAndBody() async throws {
    let body = Data(#"{"a":1}"#.utf8)
    let response = try await SocketHTTPTransport().send(
      HTTPRequest(
        method: .post, url: base.appendingPathComponent("echo"),
        headers: ["Content-Type": "application/json"], body: body))
    #expect(response.status == 200 && response.body == body)
    #expect(response.headers["x-method"] == "POST")
    #expect(response.headers["x-content-type"] == "application/json")
  }

  @Test func aRedirectIsReturnedUnfollowed() async throws {
    let response = try await get("redirect")
    #expect(response.status == 302 && response.headers["location"] == "/hello")
  }

  @Test(arguments: [204, 401, 404, 500, 503])
  func errorStatusesAreResponsesNotThrows(_ status: Int) async throws {
    #expect(try await get("status/\(status)").status == status)
  }

  @Test func chunkedAndCloseDelimitedBodiesAreReadWhole() async throws {
    #expect(try await get("chunked").body == Data("hello, world".utf8))
    #expect(try await get("unframed").body == Data("until close".utf8))
  }

  @Test func aTricklingServerIsCutOffAtTheTotalDeadline() async throws {
    let started = ContinuousClock.now
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await get("trickle", SocketHTTPTransport(configuration: .init(timeout: .seconds(1))))
    }
    #expect(error?.code == .timedOut)
    // The trickle lasts 100 s; a bound far below that (and generous for a loaded machine)
    // shows the 1 s total deadline cut it off although bytes kept arriving.
    #expect(ContinuousClock.now - started < .seconds(50), "bytes kept arriving; the deadline held")
  }

  @Test func aRequestsMinimumTimeoutOutlastsTheTransportsTimeout() async throws {
    let transport = SocketHTTPTransport(configuration: .init(timeout: .milliseconds(500)))
    let url = base.appendingPathComponent("after-two-seconds")
    // The peer answers after 2 s: the transport's 0.5 s alone gives up first…
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.send(HTTPRequest(url: url))
    }
    #expect(error?.code == .timedOut)
    // …and a request that declares it may wait 60 s gets the answer.
    let response = try await transport.send(HTTPRequest(url: url, minimumTimeout: .seconds(60)))
    #expect(response.status == 200 && response.body == Data("waited".utf8))
  }

  @Test func anEndlessBodyStopsAtTheSizeCap() async throws {
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await get(
        "endless", SocketHTTPTransport(configuration: .init(maxResponseSize: 1 << 20)))
    }
    #expect(error?.code == .responseTooLarge)
  }

  @Test func aHundredMegabyteBodyIsRefusedByItsLengthBeforeItIsRead() async throws {
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await get("hundred-mb")  // the default cap: 16 MiB
    }
    #expect(error?.code == .responseTooLarge)
    // Had the client read the body up to its cap, the peer would have written at least 16 MiB;
    // what it wrote before the client left is what the socket buffers took.
    let report = try await peer.readLine()
    let sent = try #require(Int(report.split(separator: " ").last ?? ""), "\(report)")
    #expect(report.hasPrefix("hundred-mb sent "))
    #expect(sent < 16 << 20, "the body was not read to find out (the peer wrote \(sent) bytes)")
  }

  @Test func cancellationEndsAWaitingRequest() async throws {
    let request = Task { try await get("slow") }
    #expect(try await peer.readLine() == "slow", "the request reached the peer")
    request.cancel()
    await #expect(throws: CancellationError.self) { _ = try await request.value }
  }

  @Test func aRefusedPortIsTyped() async throws {
    let closed = try TCPListener()
    let port = closed.port
    closed.close()
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await SocketHTTPTransport().send(
        HTTPRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/"))))
    }
    #expect(error?.code == .connectionRefused)
  }

  @Test func tlsTrustIsTheSameAsTheWebSocketsAndFailuresAreTyped() async throws {
    let pki = try await TestPKI(subjectAltNames: "DNS:localhost")
    let (server, port) = try await pki.startOpenSSLServer()
    defer { withExtendedLifetime(server) {} }
    let url = try #require(URL(string: "https://localhost:\(port)/"))
    let trusted = SocketHTTPTransport(
      configuration: .init(tls: TLSTrust(additionalCAFile: pki.caFile)))
    #expect(try await trusted.send(HTTPRequest(url: url)).status == 200)
    let untrusted = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await SocketHTTPTransport().send(HTTPRequest(url: url))
    }
    #expect(untrusted?.code == .tlsUntrustedCertificate)
    let wrongHost = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await trusted.send(
        HTTPRequest(url: try #require(URL(string: "https://127.0.0.1:\(port)/"))))
    }
    #expect(wrongHost?.code == .tlsHostnameMismatch)
  }

  @Test func pinsApplyToHTTPAsToTheWebSocket() async throws {
    let pki = try await TestPKI(subjectAltNames: "DNS:localhost")
    let (server, port) = try await pki.startOpenSSLServer()
    defer { withExtendedLifetime(server) {} }
    let url = try #require(URL(string: "https://localhost:\(port)/"))
    let pin = try #require(TLSTrust.fingerprint(hex: try await pki.leafFingerprint()))
    let pinned = SocketHTTPTransport(
      configuration: .init(tls: TLSTrust(certificateSHA256Pins: [pin])))
    #expect(try await pinned.send(HTTPRequest(url: url)).status == 200, "no CA needed")
    let wrongPin = SocketHTTPTransport(
      configuration: .init(
        tls: TLSTrust(
          additionalCAFile: pki.caFile, certificateSHA256Pins: [Data(repeating: 0xAB, count: 32)])
      ))
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await wrongPin.send(HTTPRequest(url: url))
    }
    #expect(error?.code == .tlsPinMismatch)
  }

  @Test func anExpiredCertificateIsItsOwnError() async throws {
    let pki = try await TestPKI(subjectAltNames: "DNS:localhost")
    let (server, port) = try await pki.startOpenSSLServer(certificate: try await pki.expiredLeaf())
    defer { withExtendedLifetime(server) {} }
    let trusted = SocketHTTPTransport(
      configuration: .init(tls: TLSTrust(additionalCAFile: pki.caFile)))
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await trusted.send(
        HTTPRequest(url: try #require(URL(string: "https://localhost:\(port)/"))))
    }
    #expect(error?.code == .tlsCertificateExpired)
  }

  // MARK: Keep-alive

  /// A transport whose idle connections outlive any scheduling delay of a loaded machine: the
  /// default 4 s idle limit could expire between two requests of a test running beside every
  /// other suite, and these tests are about reuse, not expiry.
  func keepingTransport() -> SocketHTTPTransport {
    SocketHTTPTransport(configuration: .init(idleTimeout: .seconds(600)))
  }

  @Test func requestsToOneOriginShareOneKeptConnection() async throws {
    let transport = keepingTransport()
    let first = try await get("hello", transport)
    let second = try await get("hello", transport)
    let third = try await transport.send(
      HTTPRequest(method: .post, url: base.appendingPathComponent("echo"), body: Data("x".utf8)))
    #expect(first.status == 200 && second.status == 200 && third.status == 200)
    #expect(first.headers["x-connection"] == "keep-alive")
    #expect(first.headers["x-peer-port"] == second.headers["x-peer-port"])
    #expect(second.headers["x-peer-port"] == third.headers["x-peer-port"])
    #expect(transport.openedConnectionCount == 1 && transport.idleConnectionCount == 1)
  }

  /// `sendBlocking(_:wake:)` (the simulator's outbox workers, on their own threads) answers as
  /// `send(_:)` does and shares its kept connections: one connection for all of them, and one
  /// wake pipe for many calls in a row.
  @Test func aBlockingSendOnTheCallersThreadSharesTheKeptConnection() async throws {
    let transport = keepingTransport()
    let first = try await get("hello", transport)
    let url = base.appendingPathComponent("echo")
    let answers = try await Task.detached {
      let wake = try WakePipe()
      return try (0..<3).map { index in
        try transport.sendBlocking(
          HTTPRequest(
            method: .post, url: url, headers: ["Content-Type": "application/json"],
            body: Data("{\"n\":\(index)}".utf8)),
          wake: wake)
      }
    }.value
    for (index, answer) in answers.enumerated() {
      #expect(answer.status == 200 && answer.body == Data("{\"n\":\(index)}".utf8))
      #expect(answer.headers["x-method"] == "POST")
      #expect(answer.headers["x-peer-port"] == first.headers["x-peer-port"])
    }
    #expect(transport.openedConnectionCount == 1 && transport.idleConnectionCount == 1)
  }

  @Test func aConnectionTheServerClosedMeanwhileIsNotReused() async throws {
    let transport = keepingTransport()
    #expect(try await get("close-after", transport).body == Data("bye".utf8))
    // The peer's close may still be on its way when the next request starts; either the pool
    // notices it before sending, or the GET is sent again on a new connection. Both end in 200.
    let next = try await get("hello", transport)
    #expect(next.status == 200 && next.body == Data("hello".utf8))
    #expect(transport.openedConnectionCount == 2)
  }

  @Test func anIdempotentRequestOnAConnectionDroppedUnansweredIsSentOnceMoreOnANewOne()
    async throws
  {
    let transport = keepingTransport()
    let before = try await droppedCount()
    #expect(try await get("arm-drop", transport).status == 200)
    let response = try await get("hello", transport)
    #expect(response.status == 200 && response.body == Data("hello".utf8))
    #expect(transport.openedConnectionCount == 2)
    #expect(try await droppedCount() == before + 1)
  }

  @Test func aPOSTOnAConnectionDroppedUnansweredFailsAndIsNeverSentTwice() async throws {
    let transport = keepingTransport()
    #expect(try await get("arm-drop", transport).status == 200)
    let before = try await droppedCount()
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.send(
        HTTPRequest(method: .post, url: base.appendingPathComponent("echo"), body: Data("x".utf8)))
    }
    #expect(error?.code == .connectionLost)
    #expect(transport.openedConnectionCount == 1, "no second connection carried the POST")
    #expect(try await droppedCount() == before + 1, "the peer received the POST exactly once")
  }

  @Test func closeDelimitedAnswersExpiredAndDisabledKeepAliveUseNewConnections() async throws {
    let pooled = SocketHTTPTransport()
    _ = try await get("unframed", pooled)
    #expect(pooled.idleConnectionCount == 0, "a close-delimited answer ends its connection")

    let expiring = SocketHTTPTransport(configuration: .init(idleTimeout: .zero))
    _ = try await get("hello", expiring)
    _ = try await get("hello", expiring)
    #expect(expiring.openedConnectionCount == 2, "an expired idle connection is not reused")

    let closing = SocketHTTPTransport(configuration: .init(maxIdleConnectionsPerOrigin: 0))
    let first = try await get("hello", closing)
    let second = try await get("hello", closing)
    #expect(first.headers["x-connection"] == "close")
    #expect(first.headers["x-peer-port"] != second.headers["x-peer-port"])
    #expect(closing.openedConnectionCount == 2 && closing.idleConnectionCount == 0)
  }

  /// How many requests the peer dropped unanswered so far (a fresh transport, so no pooled
  /// connection of the test is disturbed).
  private func droppedCount() async throws -> Int {
    let body = try await get(
      "dropped",
      SocketHTTPTransport(
        configuration: .init(
          maxIdleConnectionsPerOrigin: 0))
    ).body
    return Int(String(decoding: body, as: UTF8.self)) ?? -1
  }
}
