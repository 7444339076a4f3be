import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

@Suite(.timeLimit(.minutes(5))) struct MobileAuthTests {
  @Test func loginReturnsBearerTokensWithDefaultLifetimesInWireOrder() async throws {
    let h = try Harness()
    await h.user("admin")
    let (reply, tokens) = await h.login("admin")
    #expect(reply.status == 200)
    let data = try #require(reply.data)
    #expect(data["token_type"]?.stringValue == "Bearer")
    #expect(data["access_expires_in_secs"] == .number(900))
    #expect(data["refresh_expires_in_secs"] == .number(2_592_000))
    #expect(data["user"]?["username"]?.stringValue == "admin")
    #expect(data["user"]?["role"]?.stringValue == "admin")
    let t = try #require(tokens)
    #expect(t.refresh.count == 43 && t.access.count == 43 && t.revocation?.count == 43)
    #expect(t.refresh.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    let keys = [
      "mobile_session_id", "access_token", "access_expires_in_secs", "refresh_token",
      "refresh_expires_in_secs", "token_type", "revocation_token", "user",
    ]
    var last = reply.text.startIndex
    for key in keys {
      let range = try #require(reply.text.range(of: "\"\(key)\":"))
      #expect(range.lowerBound > last)
      last = range.lowerBound
    }
  }

  @Test func wrongPasswordAndUnknownUserAre401() async throws {
    let h = try Harness()
    await h.user("admin")
    let (wrong, _) = await h.login("admin", password: "nope")
    #expect(wrong.status == 401)
    #expect(wrong.text == #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#)
    let (unknown, _) = await h.login("ghost")
    #expect(unknown.status == 401)
  }

  @Test func emptyLoginFieldsAre422WithoutUsingTheRateLimit() async throws {
    let h = try Harness()
    await h.user("admin")
    for _ in 0..<6 {
      let reply = await h.send(
        .post, "/api/mobile/auth/login",
        json: ["username": "", "password": "", "installation_id": "i", "device_name": "d"])
      #expect(reply.status == 422)
      #expect(reply.message == "Validation error: Username and password are required")
    }
    let reply = await h.send(
      .post, "/api/mobile/auth/login",
      json: ["username": "a", "password": "b", "installation_id": "", "device_name": ""])
    #expect(reply.message == "Validation error: installation_id and device_name are required")
    let (ok, _) = await h.login("admin")
    #expect(ok.status == 200)
  }

  @Test func sixthLoginAttemptFromOneIPWithinFifteenMinutesIs429() async throws {
    let h = try Harness()
    await h.user("admin")
    for _ in 0..<5 { _ = await h.login("admin") }
    let (limited, _) = await h.login("admin")
    #expect(limited.status == 429)
    #expect(
      limited.message == "Too many requests: Too many login attempts. Please try again later.")
    let (otherIP, _) = await h.login("admin", ip: "10.9.9.9")
    #expect(otherIP.status == 200)
    h.clock.advance(by: 15 * 60)
    let (later, _) = await h.login("admin")
    #expect(later.status == 200)
  }

  @Test func totpUserNeedsACodeAndWrongCodeIs401() async throws {
    let h = try Harness()
    let secret = "JBSWY3DPEHPK3PXP"
    await h.user("alice", totp: secret)
    let (missing, _) = await h.login("alice")
    #expect(missing.status == 422)
    #expect(missing.message == "Validation error: 2fa_required")
    let (wrong, _) = await h.login("alice", totp: "000000", ip: "10.0.0.2")
    #expect(wrong.status == 401)
    let step = Int64(h.clock.now.timeIntervalSince1970) / 30
    let secretBytes = try #require(TOTP.decodeBase32(secret))
    let previous = TOTP.code(secret: secretBytes, step: step - 1)
    let (ok, _) = await h.login("alice", totp: previous, ip: "10.0.0.3")
    #expect(ok.status == 200)
    let stale = TOTP.code(secret: secretBytes, step: step - 2)
    let (old, _) = await h.login("alice", totp: stale, ip: "10.0.0.4")
    #expect(old.status == 401)
  }

  @Test func totpMatchesTheRFC6238Vector() {
    // RFC 6238 SHA-1 secret "12345678901234567890", T = 59 s → 94287082 (8 digits) → 287082.
    let secret = Array("12345678901234567890".utf8)
    #expect(TOTP.code(secret: secret, step: 1) == "287082")
  }

  @Test func mustChangePasswordUserGets403OnLoginAndRefresh() async throws {
    let h = try Harness()
    let id = await h.user("bob")
    let (_, tokens) = await h.login("bob")
    let t = try #require(tokens)
    _ = await h.control(.patch, "/users/\(id)", ["must_change_password": true])
    let (login, _) = await h.login("bob")
    #expect(login.status == 403)
    let expected =
      "Forbidden: MUST_CHANGE_PASSWORD: complete onboarding via the web UI before using mobile"
    #expect(login.message == expected)
    let refresh = await h.refresh(t.refresh)
    #expect(refresh.status == 403)
    let devices = await h.devices(t.access)
    #expect(devices.status == 403)
    #expect(devices.code == "MUST_CHANGE_PASSWORD")
    let me = await h.send(.get, "/api/auth/me", bearer: t.access)
    #expect(me.status == 200)
    #expect(me.data?["must_change_password"] == .bool(true))
  }

  @Test func refreshRotatesInsideTheStableSessionAndKillsTheOldAccessToken() async throws {
    let h = try Harness()
    await h.user("admin")
    let (_, tokens) = await h.login("admin")
    let t = try #require(tokens)
    let reply = await h.refresh(t.refresh)
    #expect(reply.status == 200)
    let next = try #require(Harness.tokens(reply))
    #expect(next.session == t.session)
    #expect(next.access != t.access && next.refresh != t.refresh)
    #expect(next.revocation == nil)
    #expect(!reply.text.contains("revocation_token"))
    #expect(reply.data?["user"]?["username"]?.stringValue == "admin")
    #expect(await h.devices(t.access).status == 401)
    #expect(await h.devices(next.access).status == 200)
    // Replay: 401, and the new pair keeps working.
    #expect(await h.refresh(t.refresh).status == 401)
    #expect(await h.refresh(next.refresh).status == 200)
  }

  @Test func refreshRejectsMadeUpTokensOtherInstallationsAndEmptyFields() async throws {
    let h = try Harness()
    await h.user("admin")
    let (_, tokens) = await h.login("admin")
    let t = try #require(tokens)
    #expect(await h.refresh("made-up").status == 401)
    #expect(await h.refresh(t.refresh, installation: "OTHER").status == 401)
    let empty = await h.refresh("", installation: "")
    #expect(empty.status == 422)
    #expect(empty.message == "Validation error: refresh_token and installation_id are required")
    #expect(await h.refresh(t.refresh).status == 200)
  }

  @Test(arguments: [
    "", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "sb-revoke-v2.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "sb-revoke-v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "sb-revoke-v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "sb-revoke-v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    " sb-revoke-v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "sb-revoke-v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB",
  ])
  func nonCanonicalRevocationProofIs422BeforeAnyLookup(proof: String) async throws {
    let h = try Harness()
    await h.user("admin")
    let (_, tokens) = await h.login("admin")
    let t = try #require(tokens)
    let reply = await h.refresh(t.refresh, proof: proof)
    #expect(reply.status == 422)
    #expect(reply.message == "Validation error: Invalid revocation_proof")
    #expect(await h.refresh(t.refresh).status == 200)
  }

  @Test func acceptedProofIsEchoedIdempotentAndRefusedForAnotherSession() async throws {
    let h = try Harness()
    await h.user("admin")
    let (_, a) = await h.login("admin")
    let (_, b) = await h.login("admin", installation: "INST-2")
    let first = try #require(a)
    let second = try #require(b)
    let proof = Harness.proof(7)
    let reply = await h.refresh(first.refresh, proof: proof)
    #expect(reply.data?["revocation_token"]?.stringValue == proof)
    let again = try #require(Harness.tokens(reply))
    let repeatReply = await h.refresh(again.refresh, proof: proof)
    #expect(repeatReply.status == 200)
    let stolen = await h.refresh(second.refresh, installation: "INST-2", proof: proof)
    #expect(stolen.status == 401)
    #expect(await h.refresh(second.refresh, installation: "INST-2").status == 200)
    #expect(await h.refresh(proof).status == 401)
  }

  @Test func accessTokenDiesAtItsFixedExpiryAndExpiredSessionsAreHidden() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    h.clock.advance(by: 899)
    #expect(await h.devices(t.access).status == 200)
    h.clock.advance(by: 1)
    #expect(await h.devices(t.access).status == 401)
    let fresh = try #require(Harness.tokens(await h.refresh(t.refresh)))
    h.clock.advance(by: 2_592_000)
    #expect(await h.refresh(fresh.refresh).status == 401)
    let other = try #require(await h.login("admin", installation: "NEW").1)
    let devices = await h.devices(other.access)
    guard case .array(let items) = devices.data else {
      Issue.record("no list")
      return
    }
    #expect(items.map { $0["installation_id"]?.stringValue } == ["NEW"])
  }

  @Test func lastUsedAtMovesWhenTheAccessTokenIsUsed() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    let before = await h.devices(t.access).data?[0]?["last_used_at"]?.stringValue
    h.clock.advance(by: 60)
    _ = await h.devices(t.access)
    let after = await h.devices(t.access).data?[0]?["last_used_at"]?.stringValue
    #expect(before != nil && after != nil && before != after)
  }

  @Test func exactlyOneOfTwoConcurrentRefreshesWins() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    async let first = h.refresh(t.refresh)
    async let second = h.refresh(t.refresh)
    let statuses = await [first.status, second.status].sorted()
    #expect(statuses == [200, 401])
  }

  @Test func logoutEndsTheSessionAndItsTokens() async throws {
    let h = try Harness()
    await h.user("admin")
    let (_, tokens) = await h.login("admin")
    let t = try #require(tokens)
    let reply = await h.send(.post, "/api/mobile/auth/logout", bearer: t.access)
    #expect(reply.status == 200 && reply.text == #"{"data":"ok"}"#)
    let after = await h.devices(t.access)
    #expect(after.status == 401 && after.body.isEmpty)
    #expect(await h.refresh(t.refresh).status == 401)
    #expect(await h.send(.post, "/api/mobile/auth/logout").status == 401)
    let revoke = await h.send(
      .post, "/api/mobile/auth/revoke",
      json: ["installation_id": "INST-1", "revocation_token": t.revocation])
    #expect(revoke.status == 401)
    let madeUp = await h.send(.post, "/api/mobile/auth/logout", bearer: "nope")
    #expect(madeUp.status == 401 && madeUp.body.isEmpty)
  }

  @Test func logoutWithACookieOnlyIs401JSON() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let cookie = try #require(
      await h.control(.post, "/users/\(id)/web-session")?["session_token"]?.stringValue)
    let reply = await h.send(.post, "/api/mobile/auth/logout", cookie: cookie)
    #expect(reply.status == 401 && reply.code == "UNAUTHORIZED")
    let web = await h.send(.post, "/api/mobile/auth/logout", bearer: cookie)
    #expect(web.status == 400)
    #expect(web.message == "Bad request: This session is not a mobile session")
  }

  @Test func apiKeyAuthenticatesDataRoutesButNotMobileLogout() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    _ = await h.login("admin")
    let key = try #require(
      await h.control(.post, "/users/\(id)/api-key")?["api_key"]?.stringValue)
    #expect(key.hasPrefix("serverbee_") && key.count == 53)
    #expect(await h.send(.get, "/api/mobile/auth/devices", apiKey: key).status == 200)
    let logout = await h.send(.post, "/api/mobile/auth/logout", apiKey: key)
    #expect(logout.status == 401 && logout.code == "UNAUTHORIZED")
    #expect(await h.send(.get, "/api/servers", apiKey: "serverbee_nope").status == 401)
    let pair = await h.send(.post, "/api/mobile/pair", apiKey: key)
    #expect(pair.data?["code"]?.stringValue?.hasPrefix("sb_pair_") == true)
  }

  @Test func devicesListOwnSessionsAndWorkWithACookie() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let (_, a) = await h.login("admin")
    let t = try #require(a)
    let one = await h.devices(t.access)
    guard case .array(let items) = one.data else {
      Issue.record("not an array")
      return
    }
    #expect(items.count == 1)
    #expect(items.first?["installation_id"]?.stringValue == "INST-1")
    #expect(items.first?["device_name"]?.stringValue == "Test iPhone")
    #expect(items.first?["id"]?.stringValue == t.session)
    #expect(items.first?["created_at"]?.stringValue?.hasSuffix("+00:00") == true)
    _ = await h.login("admin", installation: "INST-2")
    let cookie = try #require(
      await h.control(.post, "/users/\(id)/web-session")?["session_token"]?.stringValue)
    let two = await h.send(.get, "/api/mobile/auth/devices", cookie: cookie)
    guard case .array(let both) = two.data else {
      Issue.record("not an array")
      return
    }
    #expect(both.count == 2)
    let anonymous = await h.send(.get, "/api/mobile/auth/devices")
    #expect(anonymous.status == 401 && anonymous.body.isEmpty)
  }

  @Test func revokingDevicesChecksOwnership() async throws {
    let h = try Harness()
    await h.user("admin")
    await h.user("member", role: "member")
    let (_, a) = await h.login("admin")
    let (_, m) = await h.login("member", installation: "INST-M")
    let admin = try #require(a)
    let member = try #require(m)
    let foreign = await h.send(
      .delete, "/api/mobile/auth/devices/\(member.session)", bearer: admin.access)
    #expect(foreign.status == 403)
    #expect(foreign.message == "Forbidden: Cannot revoke another user's device")
    let missing = await h.send(
      .delete, "/api/mobile/auth/devices/\(UUID().uuidString.lowercased())", bearer: admin.access)
    #expect(missing.status == 404 && missing.message == "Not found: Mobile session not found")
    #expect(await h.send(.delete, "/api/mobile/auth/devices/x").status == 401)
    let own = await h.send(
      .delete, "/api/mobile/auth/devices/\(admin.session)", bearer: admin.access)
    #expect(own.status == 200)
    #expect(await h.devices(admin.access).status == 401)
    let memberDevices = await h.devices(member.access)
    guard case .array(let items) = memberDevices.data else {
      Issue.record("no list")
      return
    }
    #expect(items.count == 1)
  }

  @Test func pairCodeIsSingleUseForTheOwnerAndASecondCodeInvalidatesTheFirst() async throws {
    let h = try Harness()
    await h.user("admin")
    let (_, a) = await h.login("admin")
    let t = try #require(a)
    #expect(await h.send(.post, "/api/mobile/pair").status == 401)
    let first = await h.send(.post, "/api/mobile/pair", bearer: t.access)
    let code = try #require(first.data?["code"]?.stringValue)
    #expect(code.hasPrefix("sb_pair_") && code.count == 51)
    #expect(first.data?["expires_in_secs"] == .number(300))
    let secondReply = await h.send(.post, "/api/mobile/pair", bearer: t.access)
    let second = try #require(secondReply.data?["code"]?.stringValue)
    func redeem(_ code: String, _ installation: String) async -> Harness.Reply {
      await h.send(
        .post, "/api/mobile/auth/pair",
        json: ["code": code, "installation_id": installation, "device_name": "iPad"])
    }
    let stale = await redeem(code, "P1")
    #expect(stale.status == 400 && stale.message == "Bad request: Invalid pairing code")
    let ok = await redeem(second, "P1")
    #expect(ok.status == 200)
    #expect(ok.data?["user"]?["username"]?.stringValue == "admin")
    #expect(ok.data?["revocation_token"]?.stringValue?.count == 43)
    #expect(await redeem(second, "P2").status == 400)
    let empty = await redeem("", "")
    #expect(empty.status == 422)
    #expect(
      empty.message == "Validation error: code, installation_id, and device_name are required")
  }

  @Test func expiredPairCodeIs400AndUsedUp() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let code = try #require(await h.control(.post, "/users/\(id)/pair-code")?["code"]?.stringValue)
    h.clock.advance(by: 300)
    let body: [String: String?] = ["code": code, "installation_id": "i", "device_name": "d"]
    let reply = await h.send(.post, "/api/mobile/auth/pair", json: body)
    #expect(reply.message == "Bad request: Pairing code has expired")
    let again = await h.send(.post, "/api/mobile/auth/pair", json: body)
    #expect(again.message == "Bad request: Invalid pairing code")
  }

  @Test func controlPairCodeReturnsTheQRPayloadText() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let reply = try #require(
      await h.control(.post, "/users/\(id)/pair-code", ["server_url": "http://127.0.0.1:9527"]))
    let text = try #require(reply["qr_text"]?.stringValue)
    let payload = try PairingPayload(scanned: text)
    #expect(payload.code == reply["code"]?.stringValue)
    #expect(text.hasPrefix(#"{"type":"serverbee_pair","server_url":"http://127.0.0.1:9527","#))
  }

  @Test func passwordChangeFromOneDeviceEndsTheOthers() async throws {
    let h = try Harness()
    await h.user("admin")
    let (_, a) = await h.login("admin")
    let (_, b) = await h.login("admin", installation: "INST-2")
    let deviceA = try #require(a)
    let deviceB = try #require(b)
    let reply = await h.send(
      .put, "/api/auth/password", json: ["old_password": "pw", "new_password": "pw-2-long"],
      bearer: deviceA.access)
    #expect(reply.status == 200)
    #expect(await h.refresh(deviceA.refresh).status == 200)
    #expect(await h.refresh(deviceB.refresh, installation: "INST-2").status == 401)
  }

  /// Protocol/Account.md §1: empty first, then the current password, then the length (in Unicode
  /// scalars: eight 2-byte characters are enough).
  @Test func aPasswordChangeChecksEmptinessThenTheCurrentPasswordThenTheLength() async throws {
    let h = try Harness()
    _ = await h.user("member", role: "member")
    let (_, a) = await h.login("member")
    let token = try #require(a).access
    let cases: [(old: String, new: String, status: Int, message: String)] = [
      ("wrong", "", 422, "Validation error: New password is required"),
      ("wrong", "short", 400, "Bad request: Current password is incorrect"),
      ("pw", "short", 422, "Validation error: Password must be at least 8 characters"),
    ]
    for item in cases {
      let reply = await h.send(
        .put, "/api/auth/password", json: ["old_password": item.old, "new_password": item.new],
        bearer: token)
      #expect(reply.status == item.status, "\(item)")
      #expect(reply.message == item.message, "\(item)")
    }
    let accepted = await h.send(
      .put, "/api/auth/password", json: ["old_password": "pw", "new_password": "ééééêêêê"],
      bearer: token)
    #expect(accepted.status == 200)
  }

  @Test func adminPasswordResetAndUserDeletionEndEverySession() async throws {
    let h = try Harness()
    let id = await h.user("member", role: "member")
    let (_, a) = await h.login("member")
    let t = try #require(a)
    _ = await h.control(.patch, "/users/\(id)", ["password": "reset"])
    #expect(await h.refresh(t.refresh).status == 401)
    let (_, b) = await h.login("member", password: "reset")
    let again = try #require(b)
    _ = await h.control(.delete, "/users/\(id)")
    #expect(await h.refresh(again.refresh).status == 401)
    #expect(await h.devices(again.access).status == 401)
  }

  @Test func sessionVerifiedBeforeAPasswordChangeCannotRefreshEvenIfTheRowRemains() async throws {
    let h = try Harness()
    let id = await h.user("admin")
    let (_, a) = await h.login("admin")
    let t = try #require(a)
    h.clock.advance(by: 1)
    try h.simulator.core.db.execute(
      "UPDATE users SET password_changed_at = ? WHERE id = ?",
      [.int(h.simulator.core.now), .text(id)])
    #expect(await h.refresh(t.refresh).status == 401)
  }
}
