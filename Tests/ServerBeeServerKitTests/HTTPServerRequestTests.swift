import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import ServerBeeURLSessionTransport
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// The simulator's plain-HTTP path: URLSessionHTTPTransport against HTTPServerRequest.
@Suite(.timeLimit(.minutes(5))) struct HTTPServerRequestTests {
  @Test func readsHeadAndBodyAndAnswersTheURLSessionClient() async throws {
    let listener = try TCPListener()
    let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/api/auth/login?x=1"))
    let body = Data(#"{"username":"admin"}"#.utf8)
    async let response = URLSessionHTTPTransport().send(
      HTTPRequest(
        method: .post, url: url, headers: ["Content-Type": "application/json"], body: body))
    let request = try await HTTPServerRequest.read(from: try await listener.accept())
    #expect(request.head.method == "POST")
    #expect(request.head.target == "/api/auth/login?x=1")
    #expect(request.head.headers["content-type"] == "application/json")
    #expect(request.body == Array(body))
    await request.respond(
      HTTPResponseHead(status: 200, reason: "OK", headers: ["content-type": "application/json"]),
      body: Array(#"{"data":"ok"}"#.utf8))
    let answer = try await response
    #expect(answer.status == 200)
    #expect(answer.body == Data(#"{"data":"ok"}"#.utf8))
    #expect(answer.headers["content-type"] == "application/json")
  }

  func rawRequest(_ text: String, maxBodySize: Int = 1 << 20) async throws
    -> (error: ServerBeeTransportError?, status: Int?)
  {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(Array(text.utf8))
    var thrown: ServerBeeTransportError?
    do {
      _ = try await HTTPServerRequest.read(
        from: try await listener.accept(), maxBodySize: maxBodySize)
    } catch let error as ServerBeeTransportError {
      thrown = error
    }
    let status = try? HTTPHeadCodec.parseResponse(try await client.readHead()).status
    return (thrown, status)
  }

  @Test func chunkedBodiesAreAnswered501() async throws {
    let result = try await rawRequest(
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    #expect(result.error?.code == .malformedHTTPHead)
    #expect(result.status == 501)
  }

  @Test func oversizeBodiesAreAnswered413() async throws {
    let result = try await rawRequest(
      "POST / HTTP/1.1\r\nContent-Length: 2048\r\n\r\n", maxBodySize: 1024)
    #expect(result.status == 413)
  }

  @Test func malformedHeadsAreAnswered400() async throws {
    let result = try await rawRequest("GET / HTTP/1.1\r\nNo colon here\r\n\r\n")
    #expect(result.error?.code == .malformedHTTPHead)
    #expect(result.status == 400)
  }

  @Test func aRequestIsAnsweredOnlyOnce() async throws {
    let listener = try TCPListener()
    let client = try await RawSocket.connect(port: listener.port)
    try await client.write(RawSocket.upgradeRequest())
    let request = try await HTTPServerRequest.read(from: try await listener.accept())
    await request.respond(HTTPResponseHead(status: 401, reason: "Unauthorized", headers: [:]))
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await request.acceptWebSocket()
    }
    #expect(error?.code == .connectionClosed)
    #expect(try HTTPHeadCodec.parseResponse(try await client.readHead()).status == 401)
  }
}
