import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Two-factor sign-in (Protocol/Account.md §2): the pending secret, the exact texts, the JSON
/// 401 of a wrong code, and a login that then needs the code.
@Suite(.timeLimit(.minutes(5))) struct TwoFactorRouteTests {
  /// The current code of `secret` at the harness clock (TOTP is checked against RFC 6238 in
  /// `MobileAuthTests`).
  func code(_ h: Harness, _ secret: String, offset: Int64 = 0) throws -> String {
    let bytes = try #require(TOTP.decodeBase32(secret))
    return TOTP.code(secret: bytes, step: Int64(h.clock.now.timeIntervalSince1970) / 30 + offset)
  }

  @Test func setupEnableThenLoginNeedsTheCodeAndDisableWithThePassword() async throws {
    let h = try Harness()
    _ = await h.user("ada", password: "correct horse")
    let token = try #require(await h.login("ada", password: "correct horse").1).access
    let off = await h.send(.get, "/api/auth/2fa/status", bearer: token)
    #expect(off.text == #"{"data":{"enabled":false}}"#)

    let setup = await h.send(.post, "/api/auth/2fa/setup", bearer: token)
    #expect(setup.status == 200)
    let secret = try #require(setup.data?["secret"]?.stringValue)
    #expect(secret.utf8.count == 32 && TOTP.decodeBase32(secret)?.count == 20)
    #expect(
      setup.data?["otpauth_url"]?.stringValue
        == "otpauth://totp/ServerBee:ada?secret=\(secret)&issuer=ServerBee")
    let png = try #require(setup.data?["qr_code_base64"]?.stringValue)
    #expect(!png.hasPrefix("data:"))
    #expect(
      Base64.decodeCanonical(png)?.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    // A wrong code is the handler's JSON 401 and keeps the pending secret.
    let wrong = await h.send(.post, "/api/auth/2fa/enable", json: ["code": "000000"], bearer: token)
    #expect(wrong.status == 401)
    #expect(wrong.text == #"{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}"#)
    let enabled = await h.send(
      .post, "/api/auth/2fa/enable", json: ["code": try code(h, secret)], bearer: token)
    #expect(enabled.text == #"{"data":"ok"}"#)
    #expect(
      await h.send(.get, "/api/auth/2fa/status", bearer: token).data?["enabled"] == .bool(true))

    // A new login needs the code now; the one from a step ago still counts (±1 step).
    let withoutCode = await h.login("ada", password: "correct horse", installation: "INST-2").0
    #expect(withoutCode.message == "Validation error: 2fa_required")
    let withCode = await h.login(
      "ada", password: "correct horse", installation: "INST-2",
      totp: try code(h, secret, offset: -1))
    #expect(withCode.1 != nil)

    let badPassword = await h.send(
      .post, "/api/auth/2fa/disable", json: ["password": "nope"], bearer: token)
    #expect(
      badPassword.status == 400 && badPassword.message == "Bad request: Password is incorrect")
    let disabled = await h.send(
      .post, "/api/auth/2fa/disable", json: ["password": "correct horse"], bearer: token)
    #expect(disabled.text == #"{"data":"ok"}"#)
    #expect(await h.login("ada", password: "correct horse", installation: "INST-3").1 != nil)

    let audit = await h.send(.get, "/api/audit-logs", bearer: token)
    let actions = audit.data?["entries"].flatMap { entries -> [String]? in
      guard case .array(let items) = entries else { return nil }
      return items.compactMap { $0["action"]?.stringValue }
    }
    #expect(actions?.prefix(2) == ["2fa_disable", "2fa_enable"])
  }

  @Test func enableWithoutASetupAndAfterTenMinutesSaysSo() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    let token = try #require(await h.login("ada").1).access
    let none = await h.send(.post, "/api/auth/2fa/enable", json: ["code": "123456"], bearer: token)
    #expect(none.status == 400)
    #expect(none.message == "Bad request: No pending 2FA setup. Call /api/auth/2fa/setup first.")

    let setup = await h.send(.post, "/api/auth/2fa/setup", bearer: token)
    let secret = try #require(setup.data?["secret"]?.stringValue)
    h.clock.advance(by: 601)
    let expired = await h.send(
      .post, "/api/auth/2fa/enable", json: ["code": try code(h, secret)], bearer: token)
    #expect(
      expired.status == 400
        && expired.message == "Bad request: 2FA setup expired. Please start again.")
    // The expired secret was discarded.
    let after = await h.send(
      .post, "/api/auth/2fa/enable", json: ["code": try code(h, secret)], bearer: token)
    #expect(after.message == "Bad request: No pending 2FA setup. Call /api/auth/2fa/setup first.")
  }

  @Test func aNewSetupReplacesThePendingSecret() async throws {
    let h = try Harness()
    _ = await h.user("ada")
    let token = try #require(await h.login("ada").1).access
    let first = try #require(
      await h.send(.post, "/api/auth/2fa/setup", bearer: token).data?["secret"]?.stringValue)
    let second = try #require(
      await h.send(.post, "/api/auth/2fa/setup", bearer: token).data?["secret"]?.stringValue)
    #expect(first != second)
    let old = await h.send(
      .post, "/api/auth/2fa/enable", json: ["code": try code(h, first)], bearer: token)
    #expect(old.status == 401)
    let new = await h.send(
      .post, "/api/auth/2fa/enable", json: ["code": try code(h, second)], bearer: token)
    #expect(new.status == 200)
  }

  @Test func base32RoundTripsEveryLength() {
    for count in 0...21 {
      let bytes = (0..<count).map { UInt8(($0 * 37 + 11) & 0xFF) }
      let text = TOTP.encodeBase32(bytes)
      #expect(text.utf8.count == (count * 8 + 4) / 5)
      #expect((TOTP.decodeBase32(text) ?? []) == bytes)
    }
    #expect(TOTP.encodeBase32(Array("foobar".utf8)) == "MZXW6YTBOI")  // RFC 4648 §10
  }
}
