import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// `GET`/`PUT /api/mobile/push/settings` and `POST /api/mobile/push/encrypted-register`
// (Protocol/Push.md §2.2–§2.5).
//
// The routes are registered as `.open` and authenticate here, because Protocol/Push.md §2.1's
// session rules answer every failure (including `must_change_password`) with a JSON 401 and because
// encrypted-register validates its body between the header check and the session check.

extension PushArea {
  static let settingsChanged = "Notification settings changed; reload before saving"

  static let anotherLogin = "This installation belongs to another login"

  static let enableFirst = "Enable notifications first"

  /// The live mobile login behind `Authorization: Bearer`; anything else is a JSON 401.
  func pushCaller(_ context: RequestContext) throws -> PushCaller {
    guard let authorization = context.request.headers["authorization"],
      authorization.hasPrefix("Bearer "),
      let (caller, session) = try core.callerWithSession(
        token: String(authorization.dropFirst(7)), viaBearer: true),
      caller.source == "mobile", caller.mobileSessionID != nil,
      let session, session.expiresAt > now,
      session.userID == caller.user.id, !caller.user.mustChangePassword,
      core.loginIsCurrent(session, caller.user)
    else { throw APIError.unauthorized }
    return PushCaller(user: caller.user, session: session)
  }

  /// The caller's row, or `nil`; 403 when the installation's row belongs to another login.
  private func ownedRegistration(_ caller: PushCaller) throws -> PushRegistrationRow? {
    let row = try core.pushRegistration(installationID: caller.session.installationID)
    if let row, row.userID != caller.user.id || row.mobileSessionID != caller.session.id {
      throw APIError.forbidden(Self.anotherLogin)
    }
    return row
  }

  func settingsDocument(_ row: PushRegistrationRow?, _ caller: PushCaller) -> PushSetupResponse {
    let registered = row?.isRegistered ?? false
    let delivery = core.usableRelayURL != nil
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
          // Disabling forgets the delivery material: re-enabling needs a new register
          // (Protocol/Push.md §2.4).
          try db.execute(
            """
            UPDATE push_registrations SET device_token = NULL, environment = NULL,
              content_key_id = NULL, content_key = NULL, deployment_id = NULL
            WHERE installation_id = ?
            """, [.text(caller.session.installationID)])
        }
      }
      let saved = try core.pushRegistration(installationID: caller.session.installationID)
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
    guard core.usableRelayURL != nil else {
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
      let saved = try core.pushRegistration(installationID: row.installationID)
      return Reply.data(settingsDocument(saved, caller))
    }
  }
}
