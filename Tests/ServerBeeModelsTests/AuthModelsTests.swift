import Foundation
import Testing

@testable import ServerBeeModels

@Suite struct AuthModelsTests {
  private func json(_ value: some Encodable) throws -> String {
    String(decoding: try WireJSON.encode(value), as: UTF8.self)
  }

  private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try APIResponse<T>.payload(status: 200, body: Data(text.utf8))
  }

  static let v2Login = #"""
    {"data":{"mobile_session_id":"5b0f2c1e-8a9d-4f3b-9c7e-2d1a0b9c8e7f","access_token":"mJ0n7Qe2Zr1vXk3aT8bYc4dWf5gHh6iJj7kLl8mNn9o","access_expires_in_secs":900,"refresh_token":"q8Zr1Mk2Np3Oq4Pr5Qs6Rt7Su8Tv9Uw0Vx1Wy2Xz3Y","refresh_expires_in_secs":2592000,"token_type":"Bearer","revocation_token":"Xk3aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV4wX5yZ6A","user":{"id":"6a1f0c4e-2b7d-4e8a-9f31-0c5d7e9a1b2c","username":"admin","role":"admin"}}}
    """#

  static let v1Login = #"""
    {"data":{"access_token":"mJ0n7Qe2Zr1vXk3aT8bYc4dWf5gHh6iJj7kLl8mNn9o","access_expires_in_secs":900,"refresh_token":"q8Zr1Mk2Np3Oq4Pr5Qs6Rt7Su8Tv9Uw0Vx1Wy2Xz3Y","refresh_expires_in_secs":2592000,"token_type":"Bearer","user":{"id":"6a1f0c4e-2b7d-4e8a-9f31-0c5d7e9a1b2c","username":"alice","role":"member"}}}
    """#

  @Test func decodesAV2TokenResponseWithSessionIDAndRevocationToken() throws {
    let tokens = try decode(MobileTokenResponse.self, Self.v2Login)
    #expect(tokens.mobileSessionID == "5b0f2c1e-8a9d-4f3b-9c7e-2d1a0b9c8e7f")
    #expect(tokens.revocationToken?.count == 43)
    #expect(tokens.accessExpiresInSeconds == 900)
    #expect(tokens.refreshExpiresInSeconds == 2_592_000)
    #expect(tokens.user.role == .admin)
    #expect(try json(APIResponse(data: tokens)) == Self.v2Login)
  }

  @Test func decodesAV1TokenResponseWithoutTheV2Fields() throws {
    let tokens = try decode(MobileTokenResponse.self, Self.v1Login)
    #expect(tokens.mobileSessionID == nil)
    #expect(tokens.revocationToken == nil)
    #expect(tokens.user.role == .member)
    #expect(try json(APIResponse(data: tokens)) == Self.v1Login)
  }

  @Test func tokenResponseMissingAnAccessTokenNamesTheField() {
    let broken = Self.v1Login.replacingOccurrences(of: #""access_token""#, with: #""accessToken""#)
    #expect {
      try decode(MobileTokenResponse.self, broken)
    } throws: { error in
      (error as? ServerBeeModelsError)?.message.contains("data.access_token") == true
    }
  }

  @Test func tokenResponseNeverPrintsItsSecrets() throws {
    let tokens = try decode(MobileTokenResponse.self, Self.v2Login)
    for text in ["\(tokens)", String(reflecting: tokens)] {
      #expect(!text.contains(tokens.accessToken))
      #expect(!text.contains(tokens.refreshToken))
      #expect(text.contains("admin"))
    }
    var dumped = ""
    dump(tokens, to: &dumped)
    #expect(!dumped.contains(tokens.accessToken))
  }

  @Test func unknownRolesSurvive() throws {
    let text = Self.v1Login.replacingOccurrences(
      of: #""role":"member""#, with: #""role":"auditor""#)
    let tokens = try decode(MobileTokenResponse.self, text)
    #expect(tokens.user.role.rawValue == "auditor")
    #expect(tokens.user.role != .admin)
  }

  @Test func loginBodyWritesTheContractKeysAndANullTOTPOnTheFirstStep() throws {
    let first = LoginRequest(
      username: "admin", password: "pw", installationID: "9F1C", deviceName: "Alice's iPhone")
    #expect(
      try json(first)
        == #"{"username":"admin","password":"pw","installation_id":"9F1C","device_name":"Alice's iPhone","totp_code":null}"#
    )
    var second = first
    second.totpCode = "123456"
    #expect(try json(second).hasSuffix(#""totp_code":"123456"}"#))
    #expect(!"\(second)".contains("pw\""))
    #expect(!"\(second)".contains("123456"))
  }

  @Test func refreshBodyLeavesOutAnAbsentProof() throws {
    #expect(
      try json(RefreshRequest(refreshToken: "r", installationID: "i"))
        == #"{"refresh_token":"r","installation_id":"i"}"#)
    let proof = "sb-revoke-v1." + String(repeating: "A", count: 43)
    #expect(
      try json(RefreshRequest(refreshToken: "r", installationID: "i", revocationProof: proof))
        == #"{"refresh_token":"r","installation_id":"i","revocation_proof":"\#(proof)"}"#)
  }

  @Test func pairBodiesUseTheContractKeys() throws {
    #expect(
      try json(PairRedeemRequest(code: "sb_pair_x", installationID: "i", deviceName: "d"))
        == #"{"code":"sb_pair_x","installation_id":"i","device_name":"d"}"#)
    let code = try decode(
      PairCodeResponse.self,
      #"{"data":{"code":"sb_pair_Xy4bq0c9V1fZ2mKp8LwR3tN6hJ5sD7gA1eU0iO2yT9w","expires_in_secs":300}}"#
    )
    #expect(code.expiresInSeconds == 300)
    #expect(!"\(code)".contains("sb_pair_"))
  }

  @Test func revokeBodyAndBothOutcomes() throws {
    #expect(
      try json(RevokeRequest(installationID: "i", revocationToken: "t", expectedSessionID: "s"))
        == #"{"installation_id":"i","revocation_token":"t","expected_session_id":"s"}"#)
    #expect(
      try json(RevokeRequest(installationID: "i", revocationToken: "t", expectedSessionID: nil))
        == #"{"installation_id":"i","revocation_token":"t"}"#)
    #expect(try decode(RevokeOutcome.self, #"{"data":"ok"}"#) == .ok)
    #expect(try decode(RevokeOutcome.self, #"{"data":"already_absent"}"#) == .alreadyAbsent)
  }

  @Test func recoverBodyWritesOnlyTheChosenMode() throws {
    func body(_ mode: RecoveryAuthentication, expected: String?) -> RecoverRequest {
      RecoverRequest(
        authentication: mode, expectedUserID: "u", installationID: "i",
        expectedSessionID: expected, accessToken: "a", refreshToken: "r", revocationToken: nil)
    }
    #expect(
      try json(
        body(.password(username: "alice", password: "pw", totpCode: "123456"), expected: nil))
        == #"{"username":"alice","password":"pw","totp_code":"123456","expected_user_id":"u","installation_id":"i","access_token":"a","refresh_token":"r"}"#
    )
    #expect(
      try json(body(.pairingCode("sb_pair_x"), expected: "s"))
        == #"{"pairing_code":"sb_pair_x","expected_user_id":"u","installation_id":"i","expected_session_id":"s","access_token":"a","refresh_token":"r"}"#
    )
    #expect(
      try json(body(.recoveryGrant("sb_recover_x"), expected: nil)).hasPrefix(
        #"{"recovery_token":"sb_recover_x","expected_user_id":"u""#))
    #expect(!"\(body(.pairingCode("sb_pair_x"), expected: nil))".contains("sb_pair_x"))
  }

  @Test func decodesTheSelectionRequiredExampleOfTheContract() throws {
    let text = #"""
      {"data":{"outcome":"selection_required","user_id":"6a1f0c4e-2b7d-4e8a-9f31-0c5d7e9a1b2c","installation_id":"9F1C","mobile_session_id":null,"candidates":[{"mobile_session_id":"0b6e2f1a-3c4d-4e5f-8a9b-0c1d2e3f4a5b","device_name":"Alice's iPhone","created_at":"2026-10-05T08:00:00.123456789+00:00","last_used_at":"2026-10-05T08:10:00+00:00"}]}}
      """#
    let answer = try decode(RecoveryResponse.self, text)
    #expect(answer.outcome == .selectionRequired)
    #expect(answer.mobileSessionID == nil)
    #expect(answer.recoveryToken == nil)
    #expect(answer.candidates.map(\.deviceName) == ["Alice's iPhone"])
    #expect(answer.candidates[0].createdAt.nanoseconds == 123_456_789)
    #expect(try json(APIResponse(data: answer)) == text)
  }

  @Test func recoveryAnswerInQRModeCarriesTheGrantAndMayOmitCandidates() throws {
    let answer = try decode(
      RecoveryResponse.self,
      #"{"data":{"outcome":"ok","user_id":"u","installation_id":"i","mobile_session_id":"s","recovery_token":"sb_recover_abc"}}"#
    )
    #expect(answer.outcome == .ok)
    #expect(answer.candidates.isEmpty)
    #expect(answer.recoveryToken == "sb_recover_abc")
    #expect(!"\(answer)".contains("sb_recover_abc"))
  }

  @Test func decodesTheDeviceListAndCurrentUser() throws {
    let devices = try decode(
      [MobileDevice].self,
      #"{"data":[{"id":"0b6e2f1a-3c4d-4e5f-8a9b-0c1d2e3f4a5b","device_name":"Alice's iPhone","installation_id":"9F1C","created_at":"2026-03-28T10:00:00.123456789+00:00","last_used_at":"2026-03-28T10:05:12.500+00:00"}]}"#
    )
    #expect(devices.count == 1)
    #expect(devices[0].lastUsedAt.formatted(.utcOffset) == "2026-03-28T10:05:12.500+00:00")
    let me = try decode(
      CurrentUser.self,
      #"{"data":{"user_id":"u1","username":"alice","role":"member","must_change_password":true}}"#)
    #expect(me.mustChangePassword)
    #expect(me.role == .member)
  }

  @Test func passwordAndLegacyPushBodies() throws {
    #expect(
      try json(PasswordChangeRequest(oldPassword: "a", newPassword: "b"))
        == #"{"old_password":"a","new_password":"b"}"#)
    #expect(try json(LegacyPushRegisterRequest(deviceToken: "ab01")) == #"{"device_token":"ab01"}"#)
  }
}
