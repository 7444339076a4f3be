import Foundation
import ServerBeeModels
import Testing

/// Adding a server and its agent's lifecycle (Protocol/Agents.md): the documented answers
/// decode, request bodies leave out what is `nil`, and a domain conflict's
/// `details.current_offer` is readable from the failure.
@Suite struct AgentModelsTests {
  private func json(_ value: some Encodable) throws -> String {
    String(decoding: try WireJSON.encode(value), as: UTF8.self)
  }

  @Test func aFirstAnswerHasTheCodeAndAReplayOnlyTheOffer() throws {
    let first = try APIResponse<CreateServerResponse>.payload(
      status: 200, body: try Fixtures.data("agents/create_server.json"))
    #expect(!first.replayed && first.outstandingOffer == nil)
    let issue = try #require(first.enrollment)
    #expect(issue.code.count == 43 && issue.codePrefix == String(issue.code.prefix(8)))
    #expect(issue.expiresAt.style == .utcOffset)
    let replay = try APIResponse<CreateServerResponse>.payload(
      status: 200, body: try Fixtures.data("agents/create_server_replayed.json"))
    #expect(replay.replayed && replay.enrollment == nil)
    #expect(replay.outstandingOffer?.id == issue.id)
    #expect(replay.outstandingOffer?.codePrefix == issue.codePrefix)
    // Written back with every key, nulls included, as the server writes them.
    let text = try Fixtures.text("agents/create_server.json")
    #expect(try Fixtures.reencoded(APIResponse<CreateServerResponse>.self, text: text) == text)
  }

  @Test func anUpgradeSendsItsVersionAsGiven() throws {
    #expect(try json(UpgradeAgentRequest(version: "v1.5.0")) == #"{"version":"v1.5.0"}"#)
    let decoded = try WireJSON.decode(
      UpgradeAgentRequest.self, from: Data(#"{"version":"1.5.0-rc.1"}"#.utf8))
    #expect(decoded.version == "1.5.0-rc.1")
  }

  @Test func theOtherDocumentedAnswersDecode() throws {
    let offer = try APIResponse<EnrollmentOfferResponse>.payload(
      status: 200, body: try Fixtures.data("agents/enrollment_offer.json"))
    #expect(offer.enrollment.codePrefix == "Zz9_Yy8-")
    #expect(offer.enrollment.expiresAt.nanoseconds == 250_000_000)
    let revoked = try APIResponse<RevokeOfferResponse>.payload(
      status: 200, body: try Fixtures.data("agents/revoke_offer.json"))
    #expect(revoked.offerID == offer.enrollment.id && !revoked.alreadyRevoked)
    let authority = try APIResponse<RevokeAuthorityResponse>.payload(
      status: 200, body: try Fixtures.data("agents/revoke_authority.json"))
    #expect(authority.changed)
    let latest = try APIResponse<LatestAgentVersion>.payload(
      status: 200, body: try Fixtures.data("agents/latest_agent_version.json"))
    #expect(latest.version == "1.5.0" && latest.releasedAt?.style == .zulu && latest.error == nil)
    let failed = try APIResponse<LatestAgentVersion>.payload(
      status: 200, body: try Fixtures.data("agents/latest_agent_version_error.json"))
    #expect(failed.version == nil && failed.error == "release source unavailable")
  }

  @Test func requestBodiesLeaveOutWhatIsNil() throws {
    #expect(try json(EnrollmentOfferRequest()) == "{}")
    #expect(try json(EnrollmentOfferRequest(ttlSeconds: 60)) == #"{"ttl_secs":60}"#)
    #expect(
      try json(CreateServerRequest(onboardingRequestID: "r-1", name: "db"))
        == #"{"onboarding_request_id":"r-1","name":"db"}"#)
    #expect(
      try json(
        CreateServerRequest(
          onboardingRequestID: "r-1", name: "db", groupID: "g", tags: ["prod"], ttlSeconds: 90))
        == #"{"onboarding_request_id":"r-1","name":"db","group_id":"g","tags":["prod"],"ttl_secs":90}"#
    )
    #expect(try json(ReEnrollmentRequest(mode: .emergency)) == #"{"mode":"emergency"}"#)
  }

  @Test func aConflictNamesTheOpenOfferInItsDetails() throws {
    let body = Data(
      (#"{"error":{"code":"ENROLLMENT_OFFER_OUTSTANDING","message":"an Outstanding enrollment "#
        + #"offer already exists","details":{"current_offer":{"id":"o-1","code_prefix":"abcdEFGH","#
        + #""expires_at":"2026-08-14T10:10:00+00:00","created_at":"2026-08-14T10:00:00+00:00"}}}}"#)
        .utf8)
    let failure = APIFailure(status: 409, body: body)
    #expect(failure.kind == .conflict && failure.code == .enrollmentOfferOutstanding)
    #expect(failure.detail == "an Outstanding enrollment offer already exists")
    #expect(failure.currentOffer?.id == "o-1" && failure.currentOffer?.codePrefix == "abcdEFGH")
    let plain = APIFailure(
      status: 409,
      body: Data(
        #"{"error":{"code":"ENROLLMENT_OFFER_TERMINAL","message":"enrollment offer is already expired"}}"#
          .utf8))
    #expect(plain.currentOffer == nil)
  }
}
