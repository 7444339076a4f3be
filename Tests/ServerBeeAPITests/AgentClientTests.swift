import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// Adding a server and its agent's lifecycle (Protocol/Agents.md): each call's method, path and
/// exact body bytes, the `{}` the offer routes need, and the open offer of a conflict read from
/// the error.
@Suite(.timeLimit(.minutes(5))) struct AgentClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  static let issue = EnrollmentIssue(
    id: "o-1", code: String(repeating: "a", count: 43), codePrefix: "aaaaaaaa",
    expiresAt: Samples.time)

  private func sent() async throws -> (String, String) {
    let request = try #require(await http.received.last)
    return (request.url.absoluteString, String(decoding: request.body, as: UTF8.self))
  }

  @Test func creatingAServerPostsItsBodyAndReadsTheCode() async throws {
    let answer = CreateServerResponse(
      serverID: "s-1", replayed: false, enrollment: Self.issue, outstandingOffer: nil)
    await http.expect(.post, "/api/servers", reply: try Samples.reply(answer))
    let got = try await api.createServer(
      CreateServerRequest(onboardingRequestID: "r-1", name: "db-1", tags: ["prod"]))
    #expect(got == answer)
    let (url, body) = try await sent()
    #expect(url == Samples.base + "/api/servers")
    #expect(body == #"{"onboarding_request_id":"r-1","name":"db-1","tags":["prod"]}"#)
  }

  @Test func theOfferRoutesSendAnObjectAndTheirPaths() async throws {
    let reply = try Samples.reply(EnrollmentOfferResponse(enrollment: Self.issue))
    await http.expect(.post, "/api/servers/s-1/agent-authority/offers", reply: reply)
    #expect(try await api.issueEnrollmentCode(serverID: "s-1") == Self.issue)
    #expect(try await sent().1 == "{}")
    await http.expect(.post, "/api/servers/s-1/agent-authority/offers/o-1/replace", reply: reply)
    _ = try await api.replaceEnrollmentCode(serverID: "s-1", offerID: "o-1")
    #expect(try await sent().1 == "{}")
    await http.expect(.post, "/api/servers/s-1/agent-authority/re-enrollment", reply: reply)
    _ = try await api.reEnroll(serverID: "s-1", mode: .graceful, ttlSeconds: 120)
    #expect(try await sent().1 == #"{"mode":"graceful","ttl_secs":120}"#)
    await http.expect(
      .delete, "/api/servers/s-1/agent-authority/offers/o-1",
      reply: try Samples.reply(RevokeOfferResponse(offerID: "o-1", alreadyRevoked: true)))
    #expect(try await api.revokeEnrollmentCode(serverID: "s-1", offerID: "o-1").alreadyRevoked)
    await http.expect(
      .delete, "/api/servers/s-1/agent-authority",
      reply: try Samples.reply(RevokeAuthorityResponse(serverID: "s-1", changed: false)))
    #expect(try await !api.revokeAgentAuthority(serverID: "s-1").changed)
    await http.expect(.delete, "/api/servers/s-1", reply: try Samples.reply("ok"))
    try await api.deleteServer(id: "s-1")
    await http.verifyAllConsumed()
  }

  @Test func aConflictCarriesTheOpenOffer() async throws {
    let body =
      #"{"error":{"code":"ENROLLMENT_OFFER_OUTSTANDING","message":"an Outstanding enrollment "#
      + #"offer already exists","details":{"current_offer":{"id":"o-9","code_prefix":"abcdEFGH","#
      + #""expires_at":"2026-08-14T10:10:00+00:00","created_at":"2026-08-14T10:00:00+00:00"}}}}"#
    await http.expect(
      .post, "/api/servers/s-1/agent-authority/offers",
      reply: HTTPResponse(
        status: 409, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.issueEnrollmentCode(serverID: "s-1")
    }
    #expect(error.apiFailure?.code == .enrollmentOfferOutstanding)
    #expect(error.apiFailure?.currentOffer?.id == "o-9")
  }

  @Test func upgradingAnAgentPostsTheVersion() async throws {
    await http.expect(.post, "/api/servers/s-1/upgrade", reply: try Samples.reply("ok"))
    try await api.upgradeAgent(serverID: "s-1", version: "v1.5.0")
    let (url, body) = try await sent()
    #expect(url == Samples.base + "/api/servers/s-1/upgrade")
    #expect(body == #"{"version":"v1.5.0"}"#)
    await http.verifyAllConsumed()
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.upgradeAgent(serverID: "s-1", version: "")
    }
    #expect(error.code == .invalidArgument)
  }

  /// Each documented refusal (Protocol/Agents.md §11), as the server words it.
  @Test(arguments: [
    (404, "NOT_FOUND", "Not found: Server not found", AgentUpgradeRefusal.serverNotFound),
    (403, "FORBIDDEN", "Forbidden: agent_capability_disabled", .capabilityDisabled),
    (400, "BAD_REQUEST", "Bad request: Invalid version format", .invalidVersion),
    (404, "NOT_FOUND", "Not found: Agent not connected", .agentNotConnected),
    (
      409, "CONFLICT",
      "Conflict: Upgrade already running for server s-1 (job_id=j-7, target_version=1.5.0)",
      .alreadyRunning(jobID: "j-7", targetVersion: "1.5.0")
    ),
  ])
  func anUpgradeRefusalIsTyped(
    status: Int, code: String, message: String, refusal: AgentUpgradeRefusal
  ) async throws {
    let body = #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#
    await http.expect(
      .post, "/api/servers/s-1/upgrade",
      reply: HTTPResponse(
        status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.upgradeAgent(serverID: "s-1", version: "1.5.0")
    }
    #expect(error.apiFailure?.upgradeRefusal == refusal)
  }

  @Test func otherFailuresAreNoUpgradeRefusal() {
    let member = APIFailure(status: 403, body: Data())
    #expect(member.upgradeRefusal == nil)
    let other = APIFailure(
      status: 404, body: Data(#"{"error":{"code":"NOT_FOUND","message":"Not found: x"}}"#.utf8))
    #expect(other.upgradeRefusal == nil)
    let bare = APIFailure(
      status: 409,
      body: Data(
        #"{"error":{"code":"CONFLICT","message":"Conflict: Upgrade already running for server s"}}"#
          .utf8))
    #expect(bare.upgradeRefusal == .alreadyRunning(jobID: nil, targetVersion: nil))
  }

  @Test func emptyIdsAreRefusedBeforeAnythingIsSent() async throws {
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.replaceEnrollmentCode(serverID: "s-1", offerID: "")
    }
    #expect(error.code == .invalidArgument)
    #expect(await http.received.isEmpty)
  }
}
