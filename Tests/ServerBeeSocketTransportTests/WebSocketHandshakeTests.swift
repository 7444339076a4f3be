import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

@Suite struct WebSocketHandshakeTests {
  let key = "dGhlIHNhbXBsZSBub25jZQ=="

  @Test func acceptValueMatchesRFC6455Example() {
    #expect(WebSocketHandshake.acceptValue(forKey: key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func clientRequestCarriesHandshakeFieldsAndExtraHeaders() throws {
    let url = try #require(URL(string: "wss://bee.example:8443/api/ws/servers?a=b"))
    let head = WebSocketHandshake.clientRequest(
      url: url, key: key, headers: ["Authorization": "Bearer t"], extensions: "permessage-deflate")
    #expect(head.target == "/api/ws/servers?a=b")
    #expect(head.headers["host"] == "bee.example:8443")
    #expect(head.headers["authorization"] == "Bearer t")
    #expect(head.headers["sec-websocket-version"] == "13")
    #expect(try WebSocketHandshake.validateRequest(head) == key)
  }

  @Test func clientRequestKeepsPercentEncodingInTheTarget() throws {
    let url = try #require(URL(string: "ws://127.0.0.1/a%20b/c?q=x%26y"))
    let head = WebSocketHandshake.clientRequest(url: url, key: key, headers: [:], extensions: nil)
    #expect(head.target == "/a%20b/c?q=x%26y")
  }

  @Test func headerInjectionIsRefusedBeforeConnecting() async throws {
    let transport = SocketWebSocketTransport(
      configuration: .init(pingInterval: nil), clock: ContinuousClock())
    let error = await #expect(throws: ServerBeeTransportError.self) {
      _ = try await transport.connect(
        to: try #require(URL(string: "ws://127.0.0.1:1/")),
        headers: ["Authorization": "Bearer x\r\nX-Evil: 1"])
    }
    #expect(error?.code == .handshakeInvalid)
    #expect(HTTPHeadCodec.isValidField(name: "Authorization", value: "Bearer abc") == true)
    #expect(HTTPHeadCodec.isValidField(name: "Bad Name", value: "x") == false)
  }

  func response(status: Int = 101, accept: String? = nil, extensions: String? = nil)
    -> HTTPResponseHead
  {
    var head = WebSocketHandshake.switchingProtocols(key: key, extensions: extensions)
    head.status = status
    if let accept { head.headers["sec-websocket-accept"] = accept }
    return head
  }

  @Test func validResponseNegotiatesCompression() throws {
    let parameters = try WebSocketHandshake.validateResponse(
      response(extensions: "permessage-deflate; server_no_context_takeover"), key: key,
      offeredCompression: true)
    #expect(parameters == PerMessageDeflateParameters(serverNoContextTakeover: true))
  }

  @Test func wrongAcceptKeyIsHandshakeInvalid() {
    let error = #expect(throws: ServerBeeTransportError.self) {
      try WebSocketHandshake.validateResponse(
        response(accept: "AAAAAAAAAAAAAAAAAAAAAAAAAAA="), key: key, offeredCompression: false)
    }
    #expect(error?.code == .handshakeInvalid)
  }

  @Test func wrongStatusIsUpgradeRejectedWithTheStatus() {
    let error = #expect(throws: ServerBeeTransportError.self) {
      try WebSocketHandshake.validateResponse(
        response(status: 401), key: key, offeredCompression: false)
    }
    #expect(error?.code == .upgradeRejected)
    #expect(error?.httpStatus == 401)
  }

  @Test func unrequestedExtensionIsHandshakeInvalid() {
    let error = #expect(throws: ServerBeeTransportError.self) {
      try WebSocketHandshake.validateResponse(
        response(extensions: "permessage-deflate"), key: key, offeredCompression: false)
    }
    #expect(error?.code == .handshakeInvalid)
  }

  @Test func serverRejectsBadUpgradeRequests() throws {
    let url = try #require(URL(string: "ws://127.0.0.1/"))
    var head = WebSocketHandshake.clientRequest(url: url, key: key, headers: [:], extensions: nil)
    head.headers["sec-websocket-version"] = "8"
    #expect(throws: HandshakeProblem.self) { try WebSocketHandshake.validateRequest(head) }
    head.headers["sec-websocket-version"] = "13"
    head.headers["sec-websocket-key"] = "short"
    #expect(throws: HandshakeProblem.self) { try WebSocketHandshake.validateRequest(head) }
  }
}
