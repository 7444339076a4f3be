import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import ServerBeeTransport
import ServerBeeURLSessionTransport
import Testing

@Suite(.timeLimit(.minutes(5))) struct URLSessionHTTPTransportTests {
  let peer: PeerProcess
  let base: URL

  init() async throws {
    peer = try PeerProcess(
      "python3", [PeerProcess.peersDirectory.appendingPathComponent("http_peer.py").path])
    base = try #require(URL(string: "http://127.0.0.1:\(try await peer.port())"))
  }

  @Test func getReturnsStatusLowercasedHeadersAndBody() async throws {
    let transport = URLSessionHTTPTransport()
    let response = try await transport.send(
      HTTPRequest(url: base.appendingPathComponent("hello"), headers: ["X-Probe": "p1"]))
    #expect(response.status == 200)
    #expect(response.body == Data("hello".utf8))
    #expect(response.headers["content-type"] == "text/plain")
    #expect(response.headers.fields["x-echo"] == "p1")
  }

  @Test func redirectIsReturnedUnfollowed() async throws {
    let transport = URLSessionHTTPTransport()
    let response = try await transport.send(
      HTTPRequest(url: base.appendingPathComponent("redirect")))
    #expect(response.status == 302)
    #expect(response.headers["location"] == "/hello")
    #expect(response.body.isEmpty)
  }

  @Test func postSendsMethodHeadersAndBody() async throws {
    let transport = URLSessionHTTPTransport()
    let body = Data(#"{"a":1}"#.utf8)
    let response = try await transport.send(
      HTTPRequest(
        method: .post, url: base.appendingPathComponent("echo"),
        headers: ["Content-Type": "application/json"], body: body))
    #expect(response.status == 200)
    #expect(response.body == body)
    #expect(response.headers["x-method"] == "POST")
    #expect(response.headers["x-content-type"] == "application/json")
  }

  @Test(arguments: [401, 404, 500, 503])
  func errorStatusesAreResponsesNotThrows(status: Int) async throws {
    let transport = URLSessionHTTPTransport()
    let response = try await transport.send(
      HTTPRequest(url: base.appendingPathComponent("status/\(status)")))
    #expect(response.status == status)
  }

  @Test func slowResponseTimesOutWithTypedError() async throws {
    let transport = URLSessionHTTPTransport(configuration: .init(timeout: .milliseconds(300)))
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.send(HTTPRequest(url: base.appendingPathComponent("slow")))
    }
    #expect(error?.code == .timedOut)
  }

  @Test func cancellingTheTaskThrowsCancellationError() async throws {
    let transport = URLSessionHTTPTransport()
    let url = base.appendingPathComponent("slow")
    let task = Task { try await transport.send(HTTPRequest(url: url)) }
    #expect(try await peer.readLine() == "slow", "the request reached the peer")
    task.cancel()
    await #expect(throws: CancellationError.self) { _ = try await task.value }
  }

  @Test func refusedConnectionIsATypedError() async throws {
    let transport = URLSessionHTTPTransport()
    // Port 1 on loopback has no listener.
    let url = try #require(URL(string: "http://127.0.0.1:1/"))
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.send(HTTPRequest(url: url))
    }
    #expect(error?.code == .connectionRefused)
  }

  @Test func headersAreCaseInsensitiveAndLowercased() {
    var headers = HTTPHeaders(["Content-Type": "a"])
    headers.append("b", for: "CONTENT-TYPE")
    #expect(headers.fields == ["content-type": "a, b"])
    #expect(
      HTTPRequest(url: base, headers: ["X-A": "1"]) == HTTPRequest(url: base, headers: ["x-a": "1"])
    )
  }
}
