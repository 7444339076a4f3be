import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// `POST /api/mobile/auth/recover` in password, QR and grant modes (Protocol/Auth.md §9).
@Suite(.timeLimit(.minutes(5))) struct RecoverTests {
  func recover(
    _ h: Harness, _ t: Harness.Tokens, mode: [String: String?], expected: String? = nil,
    installation: String = "INST-1", ip: String? = nil
  ) async -> Harness.Reply {
    var json = mode
    json["expected_user_id"] = t.userID
    json["installation_id"] = installation
    json["access_token"] = t.access
    json["refresh_token"] = t.refresh
    if let expected { json["expected_session_id"] = expected }
    return await h.send(.post, "/api/mobile/auth/recover", json: json, ip: ip)
  }

  let password: [String: String?] = ["username": "admin", "password": "pw"]

  @Test func passwordModeDeletesTheSessionTheCredentialsName() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    let reply = await recover(h, t, mode: password)
    #expect(reply.status == 200)
    #expect(reply.data?["outcome"]?.stringValue == "ok")
    #expect(reply.data?["mobile_session_id"]?.stringValue == t.session)
    #expect(!reply.text.contains("recovery_token"))
    #expect(reply.text.contains(#""candidates":[]"#))
    #expect(await h.devices(t.access).status == 401)
    let again = await recover(h, t, mode: password, expected: t.session, ip: "10.0.0.9")
    #expect(again.data?["outcome"]?.stringValue == "already_absent")
  }

  @Test func unattributableCredentialsListCandidatesIncludingExpiredSessions() async throws {
    let h = try Harness()
    await h.user("admin")
    let real = try #require(await h.login("admin").1)
    let lost = Harness.Tokens(
      session: "", access: "stale-access", refresh: "stale-refresh", revocation: nil,
      userID: real.userID)
    h.clock.advance(by: 31 * 24 * 3600)
    let reply = await recover(h, lost, mode: password)
    #expect(reply.data?["outcome"]?.stringValue == "selection_required")
    #expect(reply.data?["mobile_session_id"] == .null)
    #expect(reply.data?["candidates"]?[0]?["mobile_session_id"]?.stringValue == real.session)
    let none = await recover(h, lost, mode: password, installation: "EMPTY")
    #expect(none.data?["outcome"]?.stringValue == "already_absent")
    #expect(none.data?["mobile_session_id"] == .null)
  }

  @Test func credentialsNamingTwoSessionsAre409() async throws {
    let h = try Harness()
    await h.user("admin")
    let a = try #require(await h.login("admin").1)
    let b = try #require(await h.login("admin").1)
    let mixed = Harness.Tokens(
      session: "", access: a.access, refresh: b.refresh, revocation: nil, userID: a.userID)
    let reply = await recover(h, mixed, mode: password)
    #expect(reply.status == 409)
    #expect(reply.message == "Conflict: \(SimulatorCore.cannotIdentify)")
  }

  @Test func shapeErrorsAreOne422AndTheyPrecedeTheRateLimit() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    let message = "Validation error: \(SimulatorCore.recoverShape)"
    let both = await recover(h, t, mode: ["username": "a", "password": "b", "pairing_code": "c"])
    #expect(both.status == 422 && both.message == message)
    let qrWithTOTP = await recover(h, t, mode: ["pairing_code": "c", "totp_code": "123456"])
    #expect(qrWithTOTP.message == message)
    let none = await recover(h, t, mode: [:])
    #expect(none.message == message)
    let badID = await recover(h, t, mode: password, expected: "nope")
    #expect(badID.message == "Validation error: Invalid expected_session_id")
    let missingKey = await h.send(
      .post, "/api/mobile/auth/recover", json: ["username": "admin", "password": "pw"])
    #expect(missingKey.status == 422 && missingKey.json == nil)
  }

  @Test func passwordModeFollowsLoginAuthAndSharesTheRateLimit() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    let wrong = await recover(h, t, mode: ["username": "admin", "password": "bad"])
    #expect(wrong.status == 401)
    for _ in 0..<3 { _ = await h.login("admin") }
    let limited = await recover(h, t, mode: password)
    #expect(limited.status == 429)
  }

  @Test func expectedUserMismatchIs401AndFlaggedAccountIs403() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    await h.user("other", role: "member")
    let t = try #require(await h.login("admin").1)
    let other = await recover(h, t, mode: ["username": "other", "password": "pw"])
    #expect(other.status == 401)
    _ = await h.control(.patch, "/users/\(id)", ["must_change_password": true])
    let flagged = await recover(h, t, mode: password, ip: "10.0.0.8")
    #expect(flagged.status == 403)
  }

  @Test func qrModeIssuesAGrantAndGrantModeCompletesTheSelection() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let real = try #require(await h.login("admin").1)
    let lost = Harness.Tokens(
      session: "", access: "old-a", refresh: "old-r", revocation: nil, userID: real.userID)
    let code = try #require(await h.control(.post, "/users/\(id)/pair-code")?["code"]?.stringValue)
    let qr = await recover(h, lost, mode: ["pairing_code": code])
    #expect(qr.data?["outcome"]?.stringValue == "selection_required")
    let grant = try #require(qr.data?["recovery_token"]?.stringValue)
    #expect(grant.hasPrefix("sb_recover_") && grant.count == 54)
    // The code is used up, even for recovery.
    #expect(await recover(h, lost, mode: ["pairing_code": code]).status == 401)
    // A new login is not added to the frozen list.
    _ = await h.login("admin")
    // Each recover call counts against the per-IP login budget, so spread them over addresses.
    let frozen = await recover(h, lost, mode: ["recovery_token": grant], ip: "10.2.0.1")
    guard case .array(let candidates) = frozen.data?["candidates"] else {
      Issue.record("no candidates")
      return
    }
    #expect(candidates.count == 1)
    let notOffered = UUID().uuidString.lowercased()
    let refused = await recover(
      h, lost, mode: ["recovery_token": grant], expected: notOffered, ip: "10.2.0.2")
    #expect(refused.status == 401)
    let done = await recover(
      h, lost, mode: ["recovery_token": grant], expected: real.session, ip: "10.2.0.3")
    #expect(done.data?["outcome"]?.stringValue == "ok")
    #expect(done.data?["recovery_token"]?.stringValue == grant)
    let repeatReply = await recover(
      h, lost, mode: ["recovery_token": grant], expected: real.session, ip: "10.0.0.7")
    #expect(repeatReply.data?["outcome"]?.stringValue == "already_absent")
    #expect(repeatReply.data?["mobile_session_id"]?.stringValue == real.session)
  }

  @Test func grantIsBoundToTheExactOriginalCredentialsAndExpires() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let real = try #require(await h.login("admin").1)
    let lost = Harness.Tokens(
      session: "", access: "old-a", refresh: "old-r", revocation: nil, userID: real.userID)
    let code = try #require(await h.control(.post, "/users/\(id)/pair-code")?["code"]?.stringValue)
    let grant = try #require(
      await recover(h, lost, mode: ["pairing_code": code]).data?["recovery_token"]?.stringValue)
    let changed = Harness.Tokens(
      session: "", access: "old-a", refresh: "other", revocation: nil, userID: real.userID)
    #expect(await recover(h, changed, mode: ["recovery_token": grant]).status == 401)
    // A grant never works as a pair code.
    let pair = await h.send(
      .post, "/api/mobile/auth/pair",
      json: ["code": grant, "installation_id": "i", "device_name": "d"])
    #expect(pair.status == 400)
    h.clock.advance(by: 300)
    #expect(await recover(h, lost, mode: ["recovery_token": grant], ip: "10.1.1.1").status == 401)
  }

  @Test func codeOfAnotherAccountIs401AndIsConsumed() async throws {
    let h = try Harness()
    await h.user("admin")
    let otherID = await h.user("other", role: "member")
    let real = try #require(await h.login("admin").1)
    let code = try #require(
      await h.control(.post, "/users/\(otherID)/pair-code")?["code"]?.stringValue)
    #expect(await recover(h, real, mode: ["pairing_code": code]).status == 401)
    let redeem = await h.send(
      .post, "/api/mobile/auth/pair",
      json: ["code": code, "installation_id": "i", "device_name": "d"])
    #expect(redeem.message == "Bad request: Invalid pairing code")
  }

  @Test func absentWithoutIdThenNewStateNeedsAFreshQRCode() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let userID = try #require(await h.login("admin", installation: "ELSEWHERE").1).userID
    let lost = Harness.Tokens(
      session: "", access: "a", refresh: "r", revocation: nil, userID: userID)
    let code = try #require(await h.control(.post, "/users/\(id)/pair-code")?["code"]?.stringValue)
    let qr = await recover(h, lost, mode: ["pairing_code": code])
    #expect(qr.data?["outcome"]?.stringValue == "already_absent")
    let grant = try #require(qr.data?["recovery_token"]?.stringValue)
    _ = await h.login("admin")
    let conflict = await recover(h, lost, mode: ["recovery_token": grant])
    #expect(conflict.status == 409)
    #expect(conflict.message == "Conflict: New state requires a fresh recovery QR code")
    let withID = await recover(
      h, lost, mode: ["recovery_token": grant], expected: UUID().uuidString.lowercased())
    #expect(withID.status == 401)
  }

  @Test func moreThan64SessionsOnOneInstallationIs409() async throws {
    let h = try Harness()
    await h.user("admin")
    var last: Harness.Tokens?
    for index in 0..<65 {
      last = await h.login("admin", ip: "10.3.\(index / 200).\(index % 200)").1
    }
    let t = try #require(last)
    let reply = await recover(h, t, mode: password, ip: "10.4.0.1")
    #expect(reply.status == 409)
    #expect(reply.message == "Conflict: \(SimulatorCore.tooManySessions)")
  }

  @Test func expectedSessionGoneButStillReferencedIs409() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    _ = await h.control(.delete, "/mobile-sessions/\(t.session)?keep_references=true")
    let stale = Harness.Tokens(
      session: "", access: "gone-a", refresh: "gone-r", revocation: nil, userID: t.userID)
    let reply = await recover(h, stale, mode: password, expected: t.session)
    #expect(reply.status == 409)
    #expect(reply.message == "Conflict: \(SimulatorCore.cannotIdentify)")
  }

  @Test func credentialsOfAnotherAccountAre401() async throws {
    let h = try Harness()
    await h.user("admin")
    await h.user("other", role: "member")
    let mine = try #require(await h.login("admin").1)
    let theirs = try #require(await h.login("other", installation: "X").1)
    let mixed = Harness.Tokens(
      session: "", access: theirs.access, refresh: "r", revocation: nil, userID: mine.userID)
    #expect(await recover(h, mixed, mode: password).status == 401)
  }
}
