import Foundation
import ServerBeeModels
import ServerBeeTestSupport
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// The native HTTP client against a Python `http.server` peer (Peers/http_peer.py) and
/// `openssl s_server`: framing, no redirects, the total deadline, the size cap and typed TLS
/// failures with the same `TLSTrust` as the WebSocket.
@Suite(.timeLimit(.minutes(1))) struct SocketHTTPTransportTests {
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
    #expect(ContinuousClock.now - started < .seconds(10), "bytes kept arriving; the deadline held")
  }

  @Test func anEndlessBodyStopsAtTheSizeCap() async throws {
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await get(
        "endless", SocketHTTPTransport(configuration: .init(maxResponseSize: 1 << 20)))
    }
    #expect(error?.code == .responseTooLarge)
  }

  @Test func cancellationEndsAWaitingRequest() async throws {
    let request = Task { try await get("slow") }
    try await Task.sleep(for: .milliseconds(200))
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
}
