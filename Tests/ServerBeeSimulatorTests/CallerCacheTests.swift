import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Who a token stands for is kept between requests (``SimulatorCore/callers``): every write
/// that changes the answer, and the clock, must still be seen on the very next request. Each
/// test first makes a request that keeps the token's rows, then changes them.
@Suite(.timeLimit(.minutes(5))) struct CallerCacheTests {
  static let first = "44444444-4444-4444-8444-444444444444"
  static let next = "55555555-5555-4555-8555-555555555555"

  /// A registered device whose token has just been used (and so is kept).
  func warmed() async throws -> (Harness, PushDevice) {
    let h = try Harness { $0.relayURL = Harness.relayPlaceholder }
    let device = try await h.pushDevice("admin")
    let reply = await h.sendTest(device.tokens.access, eventID: Self.first, revision: 2)
    try #require(reply.status == 200, "\(reply.text)")
    return (h, device)
  }

  /// After `change`, the next test push with the same token is a 401.
  func expectRefused(
    after change: (Harness, PushDevice) async throws -> Void, _ comment: Comment
  ) async throws {
    let (h, device) = try await warmed()
    try await change(h, device)
    let reply = await h.sendTest(device.tokens.access, eventID: Self.next, revision: 2)
    #expect(reply.status == 401, comment)
    let status = await h.testStatus(device.tokens.access, eventID: Self.first)
    #expect(status.status == 401, comment)
  }

  @Test func aKeptTokenStillWorks() async throws {
    let (h, device) = try await warmed()
    let reply = await h.sendTest(device.tokens.access, eventID: Self.next, revision: 2)
    #expect(reply.status == 200)
    let status = await h.testStatus(device.tokens.access, eventID: Self.first)
    #expect(status.data?["outcome"]?.stringValue == "pending")
  }

  @Test func aLogoutIsSeenOnTheNextRequest() async throws {
    try await expectRefused(
      after: { h, d in
        let out = await h.send(.post, "/api/mobile/auth/logout", bearer: d.tokens.access)
        try #require(out.status == 200 || out.status == 204, "\(out.text)")
      }, "logout")
  }

  @Test func aRevokedDeviceIsSeenOnTheNextRequest() async throws {
    try await expectRefused(
      after: { h, d in
        _ = await h.send(
          .delete, "/api/mobile/auth/devices/\(d.tokens.session)", bearer: d.tokens.access)
      }, "device revoke")
  }

  @Test func aPasswordResetIsSeenOnTheNextRequest() async throws {
    try await expectRefused(
      after: { h, d in _ = await h.control(.patch, "/users/\(d.tokens.userID)", ["password": "x"])
      }, "admin password reset")
  }

  @Test func mustChangePasswordIsSeenOnTheNextRequest() async throws {
    try await expectRefused(
      after: { h, d in
        _ = await h.control(.patch, "/users/\(d.tokens.userID)", ["must_change_password": true])
      }, "must change password")
  }

  @Test func aDeletedUserIsSeenOnTheNextRequest() async throws {
    try await expectRefused(
      after: { h, d in _ = await h.control(.delete, "/users/\(d.tokens.userID)") }, "user deleted")
  }

  @Test func aTestsOwnSQLIsSeenOnTheNextRequest() async throws {
    try await expectRefused(
      after: { h, d in
        try h.simulator.core.db.execute(
          "UPDATE mobile_sessions SET expires_at = 0 WHERE id = ?", [.text(d.tokens.session)])
      }, "session expired in the database")
  }

  @Test func theAccessTokensExpiryByTheClockIsSeen() async throws {
    try await expectRefused(
      after: { h, _ in h.clock.advance(by: 900) }, "access token expired (900 s by default)")
  }

  /// A transaction that reads the caller after its own write and is then rolled back must not
  /// leave what it read behind.
  @Test func whatARolledBackTransactionReadIsNotKept() async throws {
    let (h, device) = try await warmed()
    let core = h.simulator.core
    struct Undo: Error {}
    #expect(throws: Undo.self) {
      try core.db.transaction {
        try core.db.execute(
          "UPDATE users SET role = 'member' WHERE id = ?", [.text(device.tokens.userID)])
        let inside = try core.caller(token: device.tokens.access, viaBearer: true)
        #expect(inside?.user.role == "member")
        throw Undo()
      }
    }
    let after = try core.caller(token: device.tokens.access, viaBearer: true)
    #expect(after?.user.role == "admin")
  }
}
