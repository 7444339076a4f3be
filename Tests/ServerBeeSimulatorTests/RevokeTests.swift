import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Every row of the Protocol/Auth.md §8 revoke table.
@Suite(.timeLimit(.minutes(5))) struct RevokeTests {
  func revoke(_ h: Harness, _ installation: String, _ token: String, _ expected: String?) async
    -> Harness.Reply
  {
    var json: [String: String?] = ["installation_id": installation, "revocation_token": token]
    if let expected { json["expected_session_id"] = expected }
    return await h.send(.post, "/api/mobile/auth/revoke", json: json)
  }

  func loggedIn(_ h: Harness, installation: String = "INST-1") async throws -> Harness.Tokens {
    await h.user("admin")
    return try #require(await h.login("admin", installation: installation).1)
  }

  @Test func emptyFieldsAndMalformedExpectedIdAre422() async throws {
    let h = try Harness()
    let empty = await revoke(h, "", "", nil)
    #expect(empty.status == 422)
    #expect(empty.message == "Validation error: installation_id and revocation_token are required")
    for bad in ["", "not-a-uuid"] {
      let reply = await revoke(h, "i", "t", bad)
      #expect(
        reply.status == 422 && reply.message == "Validation error: Invalid expected_session_id")
    }
  }

  @Test func matchingLoginTokenDeletesTheSessionAndItsAccessTokens() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let reply = await revoke(h, "INST-1", try #require(t.revocation), t.session)
    #expect(reply.text == #"{"data":"ok"}"#)
    #expect(await h.devices(t.access).status == 401)
    #expect(await h.refresh(t.refresh).status == 401)
  }

  @Test func concurrentIdenticalCallsAnswerOkAndAlreadyAbsent() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let token = try #require(t.revocation)
    async let first = revoke(h, "INST-1", token, t.session)
    async let second = revoke(h, "INST-1", token, t.session)
    let bodies = await [first.text, second.text].sorted()
    #expect(bodies == [#"{"data":"already_absent"}"#, #"{"data":"ok"}"#])
  }

  @Test func existingSessionOnAnotherInstallationIs401() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let reply = await revoke(h, "OTHER", try #require(t.revocation), t.session)
    #expect(reply.status == 401)
    #expect(await h.devices(t.access).status == 200)
  }

  @Test func credentialOfAReplacementLoginIsNotEnough() async throws {
    let h = try Harness()
    let original = try await loggedIn(h)
    let replacement = try #require(await h.login("admin").1)
    let reply = await revoke(h, "INST-1", try #require(replacement.revocation), original.session)
    #expect(reply.status == 401)
    #expect(await h.devices(original.access).status == 200)
  }

  @Test func goneSessionWithDanglingStateIs401AndDeletesNothing() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    _ = await h.control(.delete, "/mobile-sessions/\(t.session)?keep_references=true")
    let reply = await revoke(h, "INST-1", try #require(t.revocation), t.session)
    #expect(reply.status == 401)
    let dangling = try h.simulator.core.db.scalar(
      "SELECT COUNT(*) FROM access_sessions WHERE mobile_session_id = ?", [.text(t.session)])
    #expect(dangling.int == 1)
  }

  @Test func goneAndUnreferencedSessionIsAlreadyAbsentWhateverTheCredential() async throws {
    let h = try Harness()
    let reply = await revoke(h, "ANY", "anything", UUID().uuidString.lowercased())
    #expect(reply.text == #"{"data":"already_absent"}"#)
    let t = try await loggedIn(h)
    #expect(await revoke(h, "INST-1", try #require(t.revocation), t.session).status == 200)
    #expect(await revoke(h, "x", "y", t.session).text == #"{"data":"already_absent"}"#)
  }

  @Test func legacyModeFindsTheSessionByCredentialAndRepeatIs401() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    #expect(await revoke(h, "INST-1", t.refresh, nil).text == #"{"data":"ok"}"#)
    #expect(await revoke(h, "INST-1", t.refresh, nil).status == 401)
    #expect(await revoke(h, "INST-1", "made-up", nil).status == 401)
  }

  @Test func consumedRefreshTokenAndAcceptedProofAreDeletionOnlyCredentials() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    let proof = Harness.proof(9)
    let rotated = try #require(Harness.tokens(await h.refresh(t.refresh, proof: proof)))
    // Neither can refresh...
    #expect(await h.refresh(t.refresh).status == 401)
    #expect(await h.refresh(proof).status == 401)
    // ...but the consumed token deletes this exact session.
    #expect(await revoke(h, "INST-1", t.refresh, t.session).text == #"{"data":"ok"}"#)
    #expect(await h.devices(rotated.access).status == 401)
    let second = try #require(await h.login("admin", installation: "INST-2").1)
    let proof2 = Harness.proof(10)
    _ = await h.refresh(second.refresh, installation: "INST-2", proof: proof2)
    #expect(await revoke(h, "INST-2", proof2, nil).text == #"{"data":"ok"}"#)
  }

  @Test func aProofIsNeverAcceptedAsTheCurrentRefreshToken() async throws {
    let h = try Harness()
    let t = try await loggedIn(h)
    #expect(await revoke(h, "INST-1", Harness.proof(1), t.session).status == 401)
  }

  @Test func passwordChangeMakesOldCredentialsUselessForRevoke() async throws {
    let h = try Harness()
    let id = await h.user("member", role: "member")
    let t = try #require(await h.login("member").1)
    _ = await h.control(.patch, "/users/\(id)", ["password": "new"])
    #expect(await revoke(h, "INST-1", try #require(t.revocation), nil).status == 401)
    let withID = await revoke(h, "INST-1", try #require(t.revocation), t.session)
    #expect(withID.text == #"{"data":"already_absent"}"#)
  }
}
