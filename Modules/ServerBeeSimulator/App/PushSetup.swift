import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// One installation's encrypted-push registration (wire contract v2 §3.1–§3.5).
struct PushRegistrationRow: Sendable, Equatable {
  var installationID: String
  var userID: String
  var mobileSessionID: String
  var revision: Int64
  var preferences: PushPreferences
  var deviceToken: String?
  var environment: String?
  var contentKeyID: String?
  var contentKey: String?
  var deploymentID: String?

  init(_ row: Row) {
    installationID = row["installation_id"].text ?? ""
    userID = row["user_id"].text ?? ""
    mobileSessionID = row["mobile_session_id"].text ?? ""
    revision = row["revision"].int ?? 0
    preferences = PushPreferences(
      enabled: row["enabled"].bool, alerts: row["alerts"].bool, security: row["security"].bool,
      taskFailure: row["task_failure"].bool, taskSuccess: row["task_success"].bool)
    deviceToken = row["device_token"].text
    environment = row["environment"].text
    contentKeyID = row["content_key_id"].text
    contentKey = row["content_key"].text
    deploymentID = row["deployment_id"].text
  }

  /// `registered` of the settings document: enabled, and all five delivery values stored and
  /// valid (a 410 clears the token, a disable clears all five).
  var isRegistered: Bool {
    guard preferences.enabled, let deviceToken, let environment, let contentKeyID, let contentKey,
      let deploymentID
    else { return false }
    return PushRules.isValid(
      deviceToken: deviceToken, environment: environment, contentKeyID: contentKeyID,
      contentKey: contentKey, deploymentID: deploymentID)
  }

  /// Whether the row subscribes to an outbox category (`test` needs none).
  func subscribes(to category: PushCategory) -> Bool {
    switch category {
    case .test: return true
    case .alerts: return preferences.alerts
    case .security: return preferences.security
    case .taskFailure: return preferences.taskFailure
    case .taskSuccess: return preferences.taskSuccess
    }
  }
}

/// The outbox category of a push: which preference admits it (wire contract v2 §5, §6).
enum PushCategory: String, Sendable, CaseIterable {
  case test
  case alerts
  case security
  case taskFailure = "task_failure"
  case taskSuccess = "task_success"

  /// Security and task pushes go to administrators only.
  var needsAdmin: Bool { self == .security || self == .taskFailure || self == .taskSuccess }
}

/// The validation rules the server applies to push input (wire contract v2 §3.5, §3.7): the
/// shared `PushRegistrationRules` of ServerBeeModels, which clients check before sending too.
typealias PushRules = PushRegistrationRules

/// The caller of a push route: the Bearer of a live mobile session (wire contract v2 §3.1).
struct PushCaller: Sendable {
  var user: UserRow
  var session: MobileSessionRow
  var isAdmin: Bool { user.role == "admin" }
}

/// `GET`/`PUT /api/mobile/push/settings`, `POST /api/mobile/push/encrypted-register`,
/// `POST /api/mobile/push/test` and `GET /api/mobile/push/test/{event_id}` (wire contract v2 §3.2–§3.6).
///
/// The routes are registered as `.open` and authenticate here, because §3.1's session rules
/// answer every failure (including `must_change_password`) with a JSON 401 and because
/// encrypted-register validates its body between the header check and the session check.
extension SimulatorCore {
  static let settingsChanged = "Notification settings changed; reload before saving"
  static let anotherLogin = "This installation belongs to another login"
  static let enableFirst = "Enable notifications first"

  /// The relay URL when it is usable (wire contract v2 §3.7), else `nil`.
  var usableRelayURL: String? {
    relayURL.withLock { $0 }.flatMap { PushRules.isUsableURL($0) ? $0 : nil }
  }

  /// The live mobile login behind `Authorization: Bearer`; anything else is a JSON 401.
  func pushCaller(_ context: RequestContext) throws -> PushCaller {
    guard let authorization = context.request.headers["authorization"],
      authorization.hasPrefix("Bearer "),
      let caller = try caller(token: String(authorization.dropFirst(7)), viaBearer: true),
      caller.source == "mobile", let sessionID = caller.mobileSessionID,
      let session = try mobileSession(id: sessionID), session.expiresAt > now,
      session.userID == caller.user.id, !caller.user.mustChangePassword,
      loginIsCurrent(session, caller.user)
    else { throw APIError.unauthorized }
    return PushCaller(user: caller.user, session: session)
  }

  /// A login older than the user's last password change is dead ("token versioning").
  func loginIsCurrent(_ session: MobileSessionRow, _ user: UserRow) -> Bool {
    guard let changed = user.passwordChangedAt else { return true }
    return session.verifiedAt >= changed
  }

  func pushRegistration(installationID: String) throws -> PushRegistrationRow? {
    try db.query(
      "SELECT * FROM push_registrations WHERE installation_id = ?", [.text(installationID)]
    ).first.map(PushRegistrationRow.init)
  }

  /// The caller's row, or `nil`; 403 when the installation's row belongs to another login.
  private func ownedRegistration(_ caller: PushCaller) throws -> PushRegistrationRow? {
    let row = try pushRegistration(installationID: caller.session.installationID)
    if let row, row.userID != caller.user.id || row.mobileSessionID != caller.session.id {
      throw APIError.forbidden(Self.anotherLogin)
    }
    return row
  }

  func settingsDocument(_ row: PushRegistrationRow?, _ caller: PushCaller) -> PushSetupResponse {
    let registered = row?.isRegistered ?? false
    let delivery = usableRelayURL != nil
    return PushSetupResponse(
      revision: row?.revision ?? 0, preferences: row?.preferences ?? PushPreferences(),
      securityAllowed: caller.isAdmin, tasksAllowed: caller.isAdmin, taskFailureAvailable: true,
      registered: registered, deliveryAvailable: delivery, testAvailable: registered && delivery)
  }

  func pushSettings(_ context: RequestContext) throws -> HTTPResponse {
    let caller = try pushCaller(context)
    return Reply.data(settingsDocument(try ownedRegistration(caller), caller))
  }

  func updatePushSettings(_ context: RequestContext) throws -> HTTPResponse {
    let caller = try pushCaller(context)
    let body = try context.jsonBody()
    try body.requireExactly(["expected_revision", "preferences"])
    let expected = try body.requiredInt("expected_revision")
    let fields = try body.object(
      "preferences", exactly: ["enabled", "alerts", "security", "task_failure", "task_success"])
    let preferences = PushPreferences(
      enabled: try fields.requiredBool("enabled"), alerts: try fields.requiredBool("alerts"),
      security: try fields.requiredBool("security"),
      taskFailure: try fields.requiredBool("task_failure"),
      taskSuccess: try fields.requiredBool("task_success"))
    return try db.transaction {
      let row = try ownedRegistration(caller)
      guard (row?.revision ?? 0) == expected else { throw APIError.conflict(Self.settingsChanged) }
      if preferences.security, !caller.isAdmin {
        throw APIError.forbidden("Security notifications require an administrator")
      }
      if preferences.taskFailure || preferences.taskSuccess, !caller.isAdmin {
        throw APIError.forbidden("Task notifications require an administrator")
      }
      let flags: [SQLValue] = [
        preferences.enabled.sql, preferences.alerts.sql, preferences.security.sql,
        preferences.taskFailure.sql, preferences.taskSuccess.sql,
      ]
      if row == nil {
        try db.execute(
          """
          INSERT INTO push_registrations (installation_id, user_id, mobile_session_id, revision,
            enabled, alerts, security, task_failure, task_success, updated_at)
          VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)
          """,
          [.text(caller.session.installationID), .text(caller.user.id), .text(caller.session.id)]
            + flags + [.int(now)])
      } else {
        try db.execute(
          """
          UPDATE push_registrations SET revision = ?, enabled = ?, alerts = ?, security = ?,
            task_failure = ?, task_success = ?, updated_at = ? WHERE installation_id = ?
          """, [.int(expected + 1)] + flags + [.int(now), .text(caller.session.installationID)])
        if !preferences.enabled {
          // Disabling forgets the delivery material: re-enabling needs a new register (§3.4).
          try db.execute(
            """
            UPDATE push_registrations SET device_token = NULL, environment = NULL,
              content_key_id = NULL, content_key = NULL, deployment_id = NULL
            WHERE installation_id = ?
            """, [.text(caller.session.installationID)])
        }
      }
      let saved = try pushRegistration(installationID: caller.session.installationID)
      return Reply.data(settingsDocument(saved, caller))
    }
  }

  func encryptedRegister(_ context: RequestContext) throws -> HTTPResponse {
    guard context.request.headers["authorization"]?.hasPrefix("Bearer ") == true else {
      throw APIError.unauthorized
    }
    let body = try context.jsonBody()
    let keys = [
      "expected_revision", "device_token", "environment", "content_key_id", "content_key",
      "deployment_id",
    ]
    try body.requireExactly(keys)
    let expected = try body.requiredInt("expected_revision")
    let deviceToken = try body.string("device_token")
    let environment = try body.string("environment")
    let keyID = try body.string("content_key_id")
    let key = try body.string("content_key")
    let deployment = try body.string("deployment_id")
    guard
      PushRules.isValid(
        deviceToken: deviceToken, environment: environment, contentKeyID: keyID,
        contentKey: key, deploymentID: deployment)
    else {
      throw APIError.validation(
        "Invalid device token, environment, content key or deployment identity")
    }
    guard usableRelayURL != nil else {
      throw APIError.badRequest("Encrypted push relay is not configured")
    }
    let caller = try pushCaller(context)
    return try db.transaction {
      let row = try ownedRegistration(caller)
      guard (row?.revision ?? 0) == expected else { throw APIError.conflict(Self.settingsChanged) }
      guard let row, row.preferences.enabled else { throw APIError.forbidden(Self.enableFirst) }
      let identical =
        row.deviceToken == deviceToken && row.environment == environment
        && row.contentKeyID == keyID && row.contentKey == key && row.deploymentID == deployment
      if !identical {
        try db.execute(
          """
          UPDATE push_registrations SET revision = ?, device_token = ?, environment = ?,
            content_key_id = ?, content_key = ?, deployment_id = ?, updated_at = ?
          WHERE installation_id = ?
          """,
          [
            .int(expected + 1), .text(deviceToken), .text(environment), .text(keyID),
            .text(key), .text(deployment), .int(now), .text(row.installationID),
          ])
      }
      try db.execute(
        "INSERT OR IGNORE INTO push_migrations VALUES (?, ?, ?)",
        [.text(row.installationID), .text(caller.user.id), .int(now)])
      try db.execute(
        "DELETE FROM push_legacy_tokens WHERE installation_id = ? AND user_id = ?",
        [.text(row.installationID), .text(caller.user.id)])
      let saved = try pushRegistration(installationID: row.installationID)
      return Reply.data(settingsDocument(saved, caller))
    }
  }

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
      if let existing = try outboxRow(eventID: eventID, installationID: installation),
        existing.kind == PushContentKind.test.rawValue
      {
        guard existing.userID == caller.user.id, existing.mobileSessionID == caller.session.id
        else { throw APIError.forbidden("This test belongs to another login") }
        guard existing.revision == expected else {
          throw APIError.conflict("Test identity already used with another revision")
        }
        return Reply.data(testStatus(existing))
      }
      guard let row = try pushRegistration(installationID: installation) else {
        throw APIError.forbidden(Self.enableFirst)
      }
      guard row.userID == caller.user.id, row.mobileSessionID == caller.session.id else {
        throw APIError.forbidden(Self.anotherLogin)
      }
      guard row.revision == expected else { throw APIError.conflict(Self.settingsChanged) }
      guard row.isRegistered, usableRelayURL != nil else {
        throw APIError.forbidden("Retry notification setup first")
      }
      guard caller.user.role == "admin" || caller.user.role == "member" else {
        throw APIError.forbidden("Account role unavailable")
      }
      let content = PushContent(
        kind: .test, deploymentID: "", userID: "", installationID: "", eventID: eventID,
        createdAt: nowSeconds, expiresAt: nowSeconds + Self.pushLifetime)
      guard try admit(content, category: .test, to: row, role: caller.user.role) else {
        throw APIError.forbidden("Content key is not registered")
      }
      guard let queued = try outboxRow(eventID: eventID, installationID: installation) else {
        throw APIError.forbidden("Content key is not registered")
      }
      return Reply.data(testStatus(queued))
    }
  }

  func testPushStatus(_ context: RequestContext) throws -> HTTPResponse {
    let caller = try pushCaller(context)
    guard
      let row = try outboxRow(
        eventID: context.parameter(0), installationID: caller.session.installationID),
      row.kind == PushContentKind.test.rawValue, row.userID == caller.user.id,
      row.mobileSessionID == caller.session.id
    else { throw APIError.notFound("Test notification unavailable") }
    return Reply.data(testStatus(row))
  }

  /// The stored status; a job still in progress past its deadline reads as expired (§3.6).
  func testStatus(_ row: OutboxRow) -> TestPushResponse {
    var outcome = PushOutcome(rawValue: row.outcome)
    var reason = PushDeliveryReason(rawValue: row.reason)
    if outcome.isInProgress, nowSeconds >= row.expiresAt {
      outcome = .expired
      reason = .expired
    }
    return TestPushResponse(eventID: row.eventID, outcome: outcome, reason: reason)
  }
}
