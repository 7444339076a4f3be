import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// `POST /api/mobile/push/test` and `GET /api/mobile/push/test/{event_id}` (Protocol/Push.md §2.6):
// a test push is an outbox job of kind `test` for the caller's own login.

extension PushArea {
  func sendTestPush(_ context: RequestContext) throws -> HTTPResponse {
    let caller = try pushCaller(context)
    let body = try context.jsonBody()
    try body.requireExactly(["event_id", "expected_revision"])
    let rawID = try body.string("event_id")
    guard UUIDText.isCanonical(rawID) else { throw APIError.validation("Invalid test event UUID") }
    let eventID = rawID.lowercased()
    let expected = try body.requiredInt("expected_revision")
    return try db.transaction {
      let installation = caller.session.installationID
      if let existing = try testJob(eventID: eventID, installationID: installation),
        existing.kind == PushContentKind.test.rawValue
      {
        guard existing.userID == caller.user.id, existing.mobileSessionID == caller.session.id
        else { throw APIError.forbidden("This test belongs to another login") }
        guard existing.revision == expected else {
          throw APIError.conflict("Test identity already used with another revision")
        }
        return Self.reply(testStatus(existing))
      }
      guard let row = try core.pushRegistration(installationID: installation) else {
        throw APIError.forbidden(Self.enableFirst)
      }
      guard row.userID == caller.user.id, row.mobileSessionID == caller.session.id else {
        throw APIError.forbidden(Self.anotherLogin)
      }
      guard row.revision == expected else { throw APIError.conflict(Self.settingsChanged) }
      guard row.isRegistered, core.usableRelayURL != nil else {
        throw APIError.forbidden("Retry notification setup first")
      }
      guard caller.user.role == "admin" || caller.user.role == "member" else {
        throw APIError.forbidden("Account role unavailable")
      }
      let content = PushContent(
        kind: .test, deploymentID: "", userID: "", installationID: "", eventID: eventID,
        createdAt: nowSeconds, expiresAt: nowSeconds + SimulatorCore.pushLifetime)
      switch try core.admission(content, category: .test, to: row, role: caller.user.role) {
      case .refused: throw APIError.forbidden("Content key is not registered")
      case .queued:
        // The row just stored, as reading it back gives it.
        return Self.reply(
          testStatus(
            eventID: eventID, outcome: .pending, reason: .queued,
            expiresAt: content.createdAt + SimulatorCore.pushLifetime))
      case .duplicate: break
      }
      guard let queued = try testJob(eventID: eventID, installationID: installation) else {
        throw APIError.forbidden("Content key is not registered")
      }
      return Self.reply(testStatus(queued))
    }
  }

  func testPushStatus(_ context: RequestContext) throws -> HTTPResponse {
    let caller = try pushCaller(context)
    guard
      let row = try testJob(
        eventID: context.parameter(0), installationID: caller.session.installationID),
      row.kind == PushContentKind.test.rawValue, row.userID == caller.user.id,
      row.mobileSessionID == caller.session.id
    else { throw APIError.notFound("Test notification unavailable") }
    return Self.reply(testStatus(row))
  }

  /// `{"data": status}` as ``Reply/data(_:)`` writes it, byte for byte, through ``WireWriter``:
  /// the generic encoder's node tree cost about 27 k instructions an answer, and every test
  /// push is answered twice (admission and the status read).
  static func reply(_ status: TestPushResponse) -> HTTPResponse {
    var writer = WireWriter(capacity: 160)
    writer.raw(#"{"data":{"event_id":"#)
    writer.string(status.eventID)
    writer.raw(#","outcome":"#)
    writer.string(status.outcome.rawValue)
    writer.raw(#","reason":"#)
    writer.string(status.reason.rawValue)
    writer.raw(#","presentation":"#)
    writer.string(status.presentation)
    writer.raw("}}")
    return Reply.json(body: writer.takeData())
  }

  /// What the test routes read of an outbox job.
  struct TestJob {
    var eventID: String
    var kind: String
    var userID: String
    var mobileSessionID: String
    var revision: Int64
    var outcome: String
    var reason: String
    var expiresAt: Int64
  }

  /// The SQL of ``testJob(eventID:installationID:)``.
  static let testJobByKey = """
    SELECT event_id, kind, user_id, mobile_session_id, revision, outcome, reason, expires_at
    FROM push_outbox WHERE event_id = ? AND installation_id = ?
    """

  /// The job's owner and state, or `nil`: only the columns the test routes read (the whole
  /// row, twenty columns made into values, cost about twice as much).
  func testJob(eventID: String, installationID: String) throws -> TestJob? {
    try db.read(Self.testJobByKey, [.text(eventID), .text(installationID)]) {
      TestJob(
        eventID: $0.text(0) ?? "", kind: $0.text(1) ?? "", userID: $0.text(2) ?? "",
        mobileSessionID: $0.text(3) ?? "", revision: $0.int(4) ?? 0, outcome: $0.text(5) ?? "",
        reason: $0.text(6) ?? "", expiresAt: $0.int(7) ?? 0)
    }.first
  }

  /// The stored status; a job still in progress past its deadline reads as expired
  /// (Protocol/Push.md §2.6).
  func testStatus(_ row: TestJob) -> TestPushResponse {
    testStatus(
      eventID: row.eventID, outcome: PushOutcome(rawValue: row.outcome),
      reason: PushDeliveryReason(rawValue: row.reason), expiresAt: row.expiresAt)
  }

  /// ``testStatus(_:)`` of a job with these columns.
  func testStatus(
    eventID: String, outcome: PushOutcome, reason: PushDeliveryReason, expiresAt: Int64
  ) -> TestPushResponse {
    guard outcome.isInProgress, nowSeconds >= expiresAt else {
      return TestPushResponse(eventID: eventID, outcome: outcome, reason: reason)
    }
    return TestPushResponse(eventID: eventID, outcome: .expired, reason: .expired)
  }
}
