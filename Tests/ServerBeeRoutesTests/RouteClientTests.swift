import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The one request path: how a route becomes a request, and how every answer is read.
@Suite struct RouteClientTests {
  let http = StubHTTPTransport()
  let server: ServerURL
  var routes: RouteClient { RouteClient(server: server, transport: http) }

  init() throws { server = try ServerURL("https://monitor.example.com") }

  @Test func pathValuesArePercentEncodedSegmentBySegment() throws {
    let request = try routes.request(
      RouteCatalogue.Alerts.alertRuleStates, PathID("a/b?c#d%e f"), body: NoBody())
    #expect(
      request.url.absoluteString
        == "https://monitor.example.com/api/alert-rules/a%2Fb%3Fc%23d%25e%20f/states")
    #expect(request.body.isEmpty)
    #expect(request.headers["content-type"] == nil)
    #expect(request.headers["accept"] == "application/json")
  }

  @Test func aRouteThatWaitsOnTheAgentGivesItsRequestTheWaitAndAMargin() throws {
    // Docker networks ask the agent, which the server waits 30 s for before its 408.
    let asking = try routes.request(
      RouteCatalogue.Docker.dockerNetworks, PathID("server-1"), body: NoBody())
    #expect(asking.minimumTimeout == .seconds(30) + RouteClient.serverWaitMargin)
    #expect(asking.timeout(within: .seconds(15)) == .seconds(40))
    #expect(asking.timeout(within: .seconds(90)) == .seconds(90))
    // The container list comes from the server's cache: the transport's timeout alone.
    let cached = try routes.request(
      RouteCatalogue.Docker.dockerContainers, PathID("server-1"), body: NoBody())
    #expect(cached.minimumTimeout == nil)
    #expect(cached.timeout(within: .seconds(15)) == .seconds(15))
  }

  @Test func aDotSegmentCannotClimbOutOfTheRoute() throws {
    let request = try routes.request(RouteCatalogue.Servers.server, PathID(".."), body: NoBody())
    #expect(request.url.absoluteString == "https://monitor.example.com/api/servers/%2E%2E")
  }

  @Test func aPlusInAQueryValueIsEncoded() throws {
    let request = try routes.request(
      RouteCatalogue.Security.securityEvents, NoPath(), body: NoBody(),
      query: [("cursor", "2026-01-01T00:00:00+00:00"), ("limit", nil)])
    #expect(request.url.query == "cursor=2026-01-01T00:00:00%2B00:00")
  }

  @Test func anUndeclaredQueryNameIsRefusedBeforeSending() async throws {
    let error = try #require(throws: ServerBeeRoutesError.self) {
      try routes.request(
        RouteCatalogue.Servers.servers, NoPath(), body: NoBody(), query: [("page", "2")])
    }
    #expect(error.code == .invalidArgument)
    #expect(error.message == "GET /api/servers reads no query parameter 'page'")
  }

  @Test func anEmptyPathValueIsRefusedBeforeSending() async throws {
    let error = try await #require(throws: ServerBeeRoutesError.self) {
      try await routes.send(RouteCatalogue.Servers.server, PathID(""))
    }
    #expect(error.code == .invalidArgument)
    #expect(await http.received.isEmpty)
  }

  @Test func aBodyIsWrittenAsJSON() throws {
    let request = try routes.request(
      RouteCatalogue.Alerts.setAlertRule, PathID("r1"), body: AlertRuleToggle(enabled: false))
    #expect(String(decoding: request.body, as: UTF8.self) == #"{"enabled":false}"#)
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.method == .put)
  }

  @Test func aSuccessYieldsThePayloadUnderData() async throws {
    await http.expect(.get, "/api/auth/me", reply: .json(200, Self.me))
    let me = try await routes.send(RouteCatalogue.Account.currentUser)
    #expect(me.username == "ada")
  }

  /// The middleware's 401 has no body; a handler's 401 carries the envelope. The one place
  /// that tells them apart is `APIFailure.kind`.
  @Test func anEmpty401IsUnauthorizedAndAJSON401IsRefused() async throws {
    await http.expect(.post, "/api/auth/2fa/enable", reply: .json(401, ""))
    await http.expect(
      .post, "/api/auth/2fa/enable",
      reply: .json(401, #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#))
    for expected in [APIFailure.Kind.unauthorized, .refused] {
      let error = try await #require(throws: ServerBeeRoutesError.self) {
        try await routes.send(
          RouteCatalogue.Account.enableTwoFactor, body: TwoFactorCodeRequest(code: "123456"))
      }
      #expect(error.code == .rejected)
      #expect(error.httpStatus == 401)
      #expect(error.failure?.kind == expected)
    }
  }

  @Test func anUnreadablePayloadIsUndecodable() async throws {
    await http.expect(.get, "/api/auth/me", reply: .json(200, #"{"data":{"id":7}}"#))
    let error = try await #require(throws: ServerBeeRoutesError.self) {
      try await routes.send(RouteCatalogue.Account.currentUser)
    }
    #expect(error.code == .undecodable)
    #expect(error.message.hasPrefix("GET /api/auth/me: the answer could not be read"))
  }

  @Test func anIgnoredPayloadAcceptsAnyAnswer() async throws {
    await http.expect(.post, "/api/mobile/push/unregister", reply: .json(200, "not json"))
    _ = try await routes.send(RouteCatalogue.Push.unregister)
  }

  @Test func aTransportFailureKeepsItsCause() async throws {
    let refused = ServerBeeTransportError(.connectionRefused, "the server refused the connection")
    await http.expect(.get, "/api/servers", throwing: refused)
    let error = try await #require(throws: ServerBeeRoutesError.self) {
      try await routes.send(RouteCatalogue.Servers.servers)
    }
    #expect(error.code == .transport)
    #expect(
      error.message
        == "GET /api/servers: the server could not be reached: the server refused the connection")
    #expect((error.underlying as? ServerBeeTransportError)?.code == .connectionRefused)
  }

  static let me =
    #"{"data":{"user_id":"u1","username":"ada","role":"admin","must_change_password":false}}"#
}
