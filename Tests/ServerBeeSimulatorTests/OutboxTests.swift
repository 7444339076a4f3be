import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// The outbox state machine (Protocol/Push.md §5) driven directly: claim a due job, hand it an
/// answer as the relay would, and read what was stored. The relay over real HTTP is covered by
/// `PushDeliveryTests`.
@Suite(.timeLimit(.minutes(5))) struct OutboxTests {
  static let eventID = "22222222-2222-4222-8222-222222222222"

  /// A harness with one registered admin device and one queued test push.
  func queued() async throws -> (Harness, PushDevice) {
    let h = try Harness {
      $0.relayURL = Harness.relayPlaceholder
      $0.accessTTL = 7200  // status reads after 30 minutes without a refresh
    }
    let device = try await h.pushDevice("admin")
    let reply = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    try #require(reply.status == 200)
    return (h, device)
  }

  func claim(_ h: Harness) throws -> [RelayAttempt] {
    try h.simulator.core.db.serial { try h.simulator.core.claimDueAttempts(limit: 100) }
  }

  func record(_ h: Harness, _ attempt: RelayAttempt, _ answer: RelayAnswer) throws {
    try h.simulator.core.record(attempt, answer)
  }

  func job(_ h: Harness) throws -> OutboxRow {
    try #require(
      try h.simulator.core.db.serial {
        try h.simulator.core.outboxRow(eventID: Self.eventID, installationID: "INST-1")
      })
  }

  static func verdict(_ outcome: String, _ reason: String, invalid: Bool = false) -> RelayAnswer {
    .response(
      status: 200,
      body: Data(
        #"{"outcome":"\#(outcome)","reason":"\#(reason)","device_invalid":\#(invalid)}"#.utf8))
  }

  static let classificationTable: [(RelayAnswer, String, String, Bool)] = [
    (verdict("accepted", "Accepted"), "accepted", "Accepted", false),
    (verdict("accepted", "SomethingNew"), "accepted", "Accepted", false),
    (verdict("retryable", "NetworkUnavailable"), "retryable", "NetworkUnavailable", false),
    (verdict("retryable", "Mystery"), "retryable", "ProviderUnavailable", false),
    (verdict("expired", "Whatever"), "expired", "Expired", false),
    (verdict("permanent", "Unregistered", invalid: true), "permanent", "Unregistered", true),
    (verdict("permanent", "Mystery"), "permanent", "ProviderRejected", false),
    (verdict("later", "Accepted"), "retryable", "RelayUnavailable", false),
    (.response(status: 200, body: Data("<html>".utf8)), "retryable", "RelayUnavailable", false),
    (.response(status: 408, body: Data()), "retryable", "RequestTimeout", false),
    (
      .response(
        status: 503,
        body: Data(
          #"{"outcome":"permanent","reason":"RelayNotConfigured","device_invalid":false}"#.utf8)),
      "permanent", "RelayNotConfigured", false
    ),
    (
      .response(
        status: 503,
        body: Data(#"{"outcome":"retryable","reason":"RelayBusy","device_invalid":false}"#.utf8)),
      "retryable", "RelayUnavailable", false
    ),
    (.response(status: 429, body: Data()), "retryable", "RelayUnavailable", false),
    (.response(status: 500, body: Data()), "retryable", "RelayUnavailable", false),
    (.response(status: 400, body: Data()), "permanent", "RelayPayloadRejected", false),
    (.response(status: 404, body: Data()), "permanent", "RelayPayloadRejected", false),
    (.response(status: 413, body: Data()), "permanent", "RelayPayloadRejected", false),
    (.failure, "retryable", "RelayUnavailable", false),
  ]

  @Test(arguments: 0..<classificationTable.count)
  func relayAnswersAreClassifiedAsTheContractSays(_ index: Int) {
    let (answer, outcome, reason, invalid) = Self.classificationTable[index]
    let verdict = SimulatorCore.classify(answer)
    #expect(verdict.outcome.rawValue == outcome)
    #expect(verdict.reason.rawValue == reason)
    #expect(verdict.deviceInvalid == invalid)
  }

  @Test func backoffDoublesFromFourSecondsAndStopsAt256() {
    let delays = (1...10).map { SimulatorCore.backoff(afterAttempt: Int64($0)) }
    #expect(delays == [4, 8, 16, 32, 64, 128, 256, 256, 256, 256])
  }

  @Test func theRelayRequestCarriesTheStoredEnvelopeAndTheContentExpiry() async throws {
    let (h, device) = try await queued()
    let attempt = try #require(try claim(h).first)
    let request = try WireJSON.decode(RelaySendRequest.self, from: attempt.body)
    #expect(request.deviceToken == device.deviceToken)
    #expect(request.environment == .sandbox)
    #expect(request.eventID == Self.eventID)
    #expect(request.expiresAt == Int64(h.clock.now.timeIntervalSince1970) + 1800)
    #expect(
      request.envelope == (try h.storedEnvelope(eventID: Self.eventID, installation: "INST-1")))
    let text = String(decoding: attempt.body, as: UTF8.self)
    let order = ["device_token", "environment", "event_id", "expires_at", "envelope"].compactMap {
      text.range(of: "\"\($0)\":")?.lowerBound
    }
    #expect(order.count == 5 && order == order.sorted(), "keys in relay order: \(text.prefix(60))")
  }

  @Test func aLeasedJobIsNotClaimedTwice() async throws {
    let (h, _) = try await queued()
    #expect(try claim(h).count == 1)
    #expect(try claim(h).isEmpty)
    #expect(try job(h).attempts == 1)
  }

  /// Claims take due jobs by `next_attempt_at`, then `admitted_at`, across both outcomes, also
  /// when a claim's limit falls inside a run of jobs due at the same time whose row order is
  /// not their admission order (the claim reads such a run again by `admitted_at`).
  @Test func claimsTakeTheEarliestDueFirstAlsoAcrossTiesAtTheLimit() async throws {
    let (h, _) = try await queued()
    let db = h.simulator.core.db
    let now = h.simulator.core.now
    let (early, late) = (now - 10 * SimulatorCore.second, now - 5 * SimulatorCore.second)
    func id(_ n: Int) -> String { "22222222-2222-4222-8222-00000000000\(n)" }
    // Rows in this order (row ids ascending); the queued job is the first row of all.
    let plan: [(n: Int, outcome: String, next: Int64, admitted: Int64)] = [
      (1, "pending", late, 5), (2, "pending", early, 9), (3, "retryable", early, 3),
      (4, "pending", early, 1), (5, "pending", early, 7), (6, "retryable", late, 2),
      (7, "pending", early, 0),
    ]
    try db.execute(
      "UPDATE push_outbox SET next_attempt_at = ?, admitted_at = 4 WHERE event_id = ?",
      [.int(late), .text(Self.eventID)])
    for item in plan {
      try db.execute(
        """
        INSERT INTO push_outbox (event_id, installation_id, kind, category, user_id,
          mobile_session_id, role, revision, device_token, environment, content_key_id,
          content_key_digest, deployment_id, created_at, expires_at, envelope_json, outcome,
          reason, attempts, next_attempt_at, lease_id, lease_until, admitted_at, updated_at)
        SELECT ?, installation_id, kind, category, user_id, mobile_session_id, role, revision,
          device_token, environment, content_key_id, content_key_digest, deployment_id,
          created_at, expires_at, envelope_json, ?, reason, attempts, ?, NULL, NULL, ?,
          updated_at
        FROM push_outbox WHERE event_id = ?
        """,
        [
          .text(id(item.n)), .text(item.outcome), .int(item.next), .int(item.admitted),
          .text(Self.eventID),
        ])
    }
    func claim(_ limit: Int) throws -> [String] {
      try db.serial { try h.simulator.core.claimDueAttempts(limit: limit) }.map(\.eventID)
    }
    // The first three pending rows due early are 2, 4 and 5; 7 is due as early and was admitted
    // before all of them.
    #expect(try claim(3) == [id(7), id(4), id(3)])
    #expect(try claim(3) == [id(5), id(2), id(6)])
    #expect(try claim(3) == [Self.eventID, id(1)])
    #expect(try claim(3).isEmpty)
  }

  @Test func anAcceptedAnswerIsTerminalAndErasesTheCiphertextButKeepsTheRow() async throws {
    let (h, device) = try await queued()
    let attempt = try #require(try claim(h).first)
    try record(h, attempt, Self.verdict("accepted", "Accepted"))
    let row = try job(h)
    #expect(row.outcome == "accepted" && row.reason == "Accepted" && row.envelopeJSON == nil)
    let status = await h.testStatus(device.tokens.access, eventID: Self.eventID)
    #expect(status.data?["outcome"]?.stringValue == "accepted")
    #expect(try claim(h).isEmpty)
  }

  @Test func aRetryableAnswerSchedulesTheBackoffAndKeepsTheCiphertext() async throws {
    let (h, _) = try await queued()
    let first = try #require(try claim(h).first)
    try record(h, first, .failure)
    #expect(try job(h).outcome == "retryable" && job(h).envelopeJSON != nil)
    h.clock.advance(by: 3.9)
    #expect(try claim(h).isEmpty, "not due before 4 s")
    h.clock.advance(by: 0.1)
    let second = try #require(try claim(h).first)
    #expect(second.body == first.body, "a retry resends the same request, same event id")
    try record(h, second, .response(status: 500, body: Data()))
    h.clock.advance(by: 7.9)
    #expect(try claim(h).isEmpty, "8 s after the second attempt")
    h.clock.advance(by: 0.1)
    #expect(try claim(h).count == 1)
  }

  @Test func retriesNeverGoPastTheDeadlineAndThenExpire() async throws {
    let (h, device) = try await queued()
    h.clock.advance(by: 1798)
    let attempt = try #require(try claim(h).first)
    try record(h, attempt, .failure)
    let row = try job(h)
    #expect(row.nextAttemptAt == row.expiresAt * 1_000_000_000, "4 s backoff capped at expires_at")
    h.clock.advance(by: 2)
    #expect(try claim(h).isEmpty)
    let expired = try job(h)
    #expect(expired.outcome == "expired" && expired.reason == "Expired")
    #expect(expired.envelopeJSON == nil)
    let status = await h.testStatus(device.tokens.access, eventID: Self.eventID)
    #expect(status.data?["outcome"]?.stringValue == "expired")
  }

  @Test func aRetryableAnswerArrivingAfterTheDeadlineIsExpired() async throws {
    let (h, _) = try await queued()
    h.clock.advance(by: 1795)
    let attempt = try #require(try claim(h).first)
    h.clock.advance(by: 5)
    try record(h, attempt, Self.verdict("retryable", "ProviderUnavailable"))
    #expect(try job(h).outcome == "expired")
  }

  @Test func aJobIsStillSentAt1799SecondsAndExpiresAt1800() async throws {
    let (h, _) = try await queued()
    h.clock.advance(by: 1799)
    #expect(try claim(h).count == 1)
    let (late, _) = try await queued()
    late.clock.advance(by: 1800)
    #expect(try claim(late).isEmpty)
    #expect(try job(late).outcome == "expired")
  }

  @Test func aStaleAttemptCannotOverwriteANewerLease() async throws {
    let (h, _) = try await queued()
    let stale = try #require(try claim(h).first)
    h.clock.advance(by: 30)  // the 30 s lease ran out; another worker takes the job
    let fresh = try #require(try claim(h).first)
    try record(h, stale, Self.verdict("permanent", "BadDeviceToken"))
    #expect(try job(h).outcome == "pending", "the stale answer is dropped")
    try record(h, fresh, Self.verdict("accepted", "Accepted"))
    #expect(try job(h).outcome == "accepted")
  }

  @Test func aRestartReleasesTheLeaseAndTheJobIsRetriedWithTheSameIdentity() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "outbox-restart-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let body: Data
    do {
      let h = try Harness(directory: directory, keepDirectory: true) {
        $0.relayURL = Harness.relayPlaceholder
      }
      let device = try await h.pushDevice("admin")
      _ = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
      body = try #require(try claim(h).first).body  // sent; the process dies before the answer
    }
    let again = try Harness(directory: directory, keepDirectory: true) {
      $0.relayURL = Harness.relayPlaceholder
    }
    let retried = try #require(try claim(again).first)
    #expect(retried.body == body)
    #expect(try job(again).attempts == 2)
  }

  // MARK: Eligibility

  /// Queues a test and claims it (so the login's verdict of eligible is kept,
  /// ``SimulatorCore/eligibleLogins``), queues a second, applies `change`, then claims: the
  /// second job must end permanent/Ineligible with nothing sent.
  func expectIneligible(
    after change: (Harness, PushDevice) async throws -> Void, _ comment: Comment
  ) async throws {
    let (h, device) = try await queued()
    #expect(try claim(h).count == 1, comment)
    let second = "33333333-3333-4333-8333-333333333333"
    let reply = await h.sendTest(device.tokens.access, eventID: second, revision: 2)
    try #require(reply.status == 200, comment)
    try await change(h, device)
    #expect(try claim(h).isEmpty, comment)
    let row = try #require(
      try h.simulator.core.db.serial {
        try h.simulator.core.outboxRow(eventID: second, installationID: "INST-1")
      })
    #expect(row.outcome == "permanent" && row.reason == "Ineligible", comment)
    #expect(row.envelopeJSON == nil, comment)
  }

  /// The kept verdict of eligible lasts only until the login's session expires by the clock,
  /// with no write in between.
  @Test func theLoginsSessionExpiringByTheClockStopsQueuedWork() async throws {
    let (h, device) = try await queued()
    let core = h.simulator.core
    try core.db.execute(
      "UPDATE mobile_sessions SET expires_at = ? WHERE id = ?",
      [.int(core.now + 10 * SimulatorCore.second), .text(device.tokens.session)])
    #expect(try claim(h).count == 1)
    let second = "33333333-3333-4333-8333-333333333333"
    let reply = await h.sendTest(device.tokens.access, eventID: second, revision: 2)
    try #require(reply.status == 200)
    h.clock.advance(by: 10)
    #expect(try claim(h).isEmpty)
    let row = try #require(
      try core.db.serial { try core.outboxRow(eventID: second, installationID: "INST-1") })
    #expect(row.outcome == "permanent" && row.reason == "Ineligible")
  }

  @Test func disablingStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in
        _ = await h.putSettings(d.tokens.access, revision: 2, h.preferencesJSON(enabled: false))
      }, "disable")
  }

  @Test func changingTheCategoriesBumpsTheRevisionAndStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in
        _ = await h.putSettings(d.tokens.access, revision: 2, h.preferencesJSON(alerts: false))
      }, "new revision")
  }

  @Test func logoutStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in _ = await h.send(.post, "/api/mobile/auth/logout", bearer: d.tokens.access)
      },
      "logout")
  }

  @Test func revokingTheDeviceStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in
        _ = await h.send(
          .delete, "/api/mobile/auth/devices/\(d.tokens.session)", bearer: d.tokens.access)
      }, "device revoke")
  }

  @Test func aPasswordResetStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in _ = await h.control(.patch, "/users/\(d.tokens.userID)", ["password": "x"])
      },
      "admin password reset")
  }

  @Test func aRoleChangeSinceAdmissionStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in _ = await h.control(.patch, "/users/\(d.tokens.userID)", ["role": "member"])
      },
      "demotion")
  }

  @Test func mustChangePasswordStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in
        _ = await h.control(.patch, "/users/\(d.tokens.userID)", ["must_change_password": true])
      }, "must change password")
  }

  @Test func deletingTheUserStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in _ = await h.control(.delete, "/users/\(d.tokens.userID)") }, "user deleted")
  }

  @Test func reRegisteringOtherValuesStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, d in
        let key = try Harness.contentKey(userID: d.tokens.userID, installation: "INST-1", seed: 99)
        _ = await h.register(d.tokens.access, revision: 2, deviceToken: d.deviceToken, key: key)
      }, "re-register")
  }

  @Test func theLoginExpiringStopsQueuedWork() async throws {
    try await expectIneligible(
      after: { h, _ in
        _ = try h.simulator.core.db.execute("UPDATE mobile_sessions SET expires_at = 0")
      }, "login expired")
  }

  @Test func anIdenticalReRegisterKeepsQueuedWorkDeliverable() async throws {
    let (h, device) = try await queued()
    _ = await h.register(
      device.tokens.access, revision: 2, deviceToken: device.deviceToken, key: device.key)
    #expect(try claim(h).count == 1)
  }

  @Test func aRefreshKeepsQueuedWorkDeliverable() async throws {
    let (h, device) = try await queued()
    #expect(Harness.tokens(await h.refresh(device.tokens.refresh)) != nil)
    #expect(try claim(h).count == 1)
  }

  // MARK: 410 Unregistered

  @Test func unregisteredClearsTheTokenAndBumpsTheRevisionWhenNothingChanged() async throws {
    let (h, device) = try await queued()
    let attempt = try #require(try claim(h).first)
    try record(h, attempt, Self.verdict("permanent", "Unregistered", invalid: true))
    let data = try #require(await h.settings(device.tokens.access).data)
    #expect(data["revision"]?.numberValue == 3)
    #expect(data["registered"]?.boolValue == false)
    #expect(data["preferences"]?["enabled"]?.boolValue == true)
  }

  @Test func unregisteredWithoutDeviceInvalidOrAfterAChangeKeepsTheToken() async throws {
    let (h, device) = try await queued()
    let attempt = try #require(try claim(h).first)
    try record(h, attempt, Self.verdict("permanent", "Unregistered", invalid: false))
    #expect(try #require(await h.settings(device.tokens.access).data)["revision"]?.numberValue == 2)

    let (changed, other) = try await queued()
    let sent = try #require(try claim(changed).first)
    let key = try Harness.contentKey(userID: other.tokens.userID, installation: "INST-1", seed: 50)
    _ = await changed.register(
      other.tokens.access, revision: 2, deviceToken: other.deviceToken, key: key)
    try record(changed, sent, Self.verdict("permanent", "Unregistered", invalid: true))
    let data = try #require(await changed.settings(other.tokens.access).data)
    #expect(data["revision"]?.numberValue == 3, "only the re-register bumped it")
    #expect(data["registered"]?.boolValue == true)
  }

  @Test func otherPermanentAnswersNeverEraseTheToken() async throws {
    let (h, device) = try await queued()
    let attempt = try #require(try claim(h).first)
    try record(h, attempt, Self.verdict("permanent", "DeviceOrEnvironmentMismatch"))
    #expect(
      try #require(await h.settings(device.tokens.access).data)["registered"]?.boolValue == true)
  }
}
