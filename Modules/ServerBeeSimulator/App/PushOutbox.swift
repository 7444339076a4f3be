import Foundation
import PushEnvelopeCrypto
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// One stored outbox job (wire contract v2 §6).
struct OutboxRow: Sendable {
  var eventID: String
  var installationID: String
  var kind: String
  var category: PushCategory
  var userID: String
  var mobileSessionID: String
  var role: String
  var revision: Int64
  var deviceToken: String
  var environment: String
  var contentKeyID: String
  var contentKeyDigest: String
  var deploymentID: String
  var createdAt: Int64
  var expiresAt: Int64
  var envelopeJSON: String?
  var outcome: String
  var reason: String
  var attempts: Int64
  var nextAttemptAt: Int64
  var leaseID: String?

  init(_ row: Row) {
    eventID = row["event_id"].text ?? ""
    installationID = row["installation_id"].text ?? ""
    kind = row["kind"].text ?? ""
    category = PushCategory(rawValue: row["category"].text ?? "") ?? .test
    userID = row["user_id"].text ?? ""
    mobileSessionID = row["mobile_session_id"].text ?? ""
    role = row["role"].text ?? ""
    revision = row["revision"].int ?? 0
    deviceToken = row["device_token"].text ?? ""
    environment = row["environment"].text ?? ""
    contentKeyID = row["content_key_id"].text ?? ""
    contentKeyDigest = row["content_key_digest"].text ?? ""
    deploymentID = row["deployment_id"].text ?? ""
    createdAt = row["created_at"].int ?? 0
    expiresAt = row["expires_at"].int ?? 0
    envelopeJSON = row["envelope_json"].text
    outcome = row["outcome"].text ?? ""
    reason = row["reason"].text ?? ""
    attempts = row["attempts"].int ?? 0
    nextAttemptAt = row["next_attempt_at"].int ?? 0
    leaseID = row["lease_id"].text
  }
}

/// One claimed attempt: the exact relay request body and the lease that owns the job.
struct RelayAttempt: Sendable {
  var eventID: String
  var installationID: String
  var leaseID: String
  var body: Data
}

/// What came back from one relay request.
enum RelayAnswer: Sendable, Equatable {
  /// An HTTP response (any status).
  case response(status: Int, body: Data)
  /// No response: connection refused or lost, or the relay timeout passed.
  case failure
}

/// The verdict stored for one attempt.
struct RelayClassification: Sendable, Equatable {
  var outcome: PushOutcome
  var reason: PushDeliveryReason
  var deviceInvalid = false
}

/// The durable outbox (wire contract v2 §6): admission seals one envelope per eligible installation;
/// ``claimDueAttempts(limit:)`` re-checks eligibility under the database lock and leases a job;
/// ``record(_:_:)`` classifies the relay's answer.
///
/// Every time comes from the simulator clock, so a test covers the 30-minute lifetime by
/// advancing it. Only the envelope (ciphertext) is stored; it is erased at any terminal outcome
/// and the row is kept.
extension SimulatorCore {
  /// Every push lives exactly 30 minutes from its `created_at` (wire contract v2 §4.6).
  static let pushLifetime: Int64 = 1800
  /// How long one attempt owns a job (30 s).
  static let leaseNanos: Int64 = 30 * second

  /// Backoff after attempt `n`: `min(2^min(n+1, 8), 300)` seconds.
  static func backoff(afterAttempt attempt: Int64) -> Int64 {
    min(Int64(1) << min(max(attempt, 0) + 1, 8), 300)
  }

  func outboxRow(eventID: String, installationID: String) throws -> OutboxRow? {
    try db.query(
      "SELECT * FROM push_outbox WHERE event_id = ? AND installation_id = ?",
      [.text(eventID), .text(installationID)]
    ).first.map(OutboxRow.init)
  }

  /// Seals `template` for one registration and queues it; `false` when the registration has no
  /// usable key material, the plaintext is over 2048 bytes or the event is past its lifetime.
  /// A duplicate (event, installation) is ignored and still counts as queued. Run inside the
  /// caller's transaction.
  @discardableResult
  func admit(
    _ template: PushContent, category: PushCategory, to registration: PushRegistrationRow,
    role: String
  ) throws -> Bool {
    guard template.createdAt + Self.pushLifetime > nowSeconds,
      let deviceToken = registration.deviceToken, let environment = registration.environment,
      let keyID = registration.contentKeyID, let key = registration.contentKey,
      let deployment = registration.deploymentID
    else { return false }
    var content = template
    content.deploymentID = deployment
    content.userID = registration.userID
    content.installationID = registration.installationID
    content.expiresAt = content.createdAt + Self.pushLifetime
    let contentKey = PushContentKey(
      keyID: keyID, key: key, deploymentID: deployment, userID: registration.userID,
      installationID: registration.installationID, scope: "")
    let random = self.random
    let envelope: PushEnvelope
    do {
      envelope = try PushEnvelopeSealer(randomBytes: { random($0) }).seal(content, with: contentKey)
    } catch {
      return false  // over 2048 bytes or an unusable key: skipped for this installation (§4.5)
    }
    let envelopeJSON = String(decoding: try WireJSON.encode(envelope), as: UTF8.self)
    try db.execute(
      """
      INSERT OR IGNORE INTO push_outbox (event_id, installation_id, kind, category, user_id,
        mobile_session_id, role, revision, device_token, environment, content_key_id,
        content_key_digest, deployment_id, created_at, expires_at, envelope_json, outcome, reason,
        attempts, next_attempt_at, admitted_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 'Queued', 0, ?, ?, ?)
      """,
      [
        .text(content.eventID), .text(registration.installationID), .text(content.kind.rawValue),
        .text(category.rawValue), .text(registration.userID),
        .text(registration.mobileSessionID), .text(role), .int(registration.revision),
        .text(deviceToken), .text(environment), .text(keyID), .text(SHA256.hex(key)),
        .text(deployment), .int(content.createdAt), .int(content.expiresAt), .text(envelopeJSON),
        .int(now), .int(now), .int(now),
      ])
    outboxSignal.signal()
    return true
  }

  /// Admits an event for every eligible registration: enabled, subscribed to `category`,
  /// registered, on a live login of a user who may receive it (`adminOnly`), optionally only
  /// `userID`'s. Nothing is admitted without a usable relay. Returns how many were queued.
  @discardableResult
  func admitEverywhere(
    _ template: PushContent, category: PushCategory, adminOnly: Bool, userID: String? = nil
  ) throws -> Int {
    guard usableRelayURL != nil, template.createdAt + Self.pushLifetime > nowSeconds else {
      return 0
    }
    var queued = 0
    let rows = try db.query("SELECT * FROM push_registrations WHERE enabled = 1")
    for registration in rows.map(PushRegistrationRow.init) {
      guard registration.isRegistered, registration.subscribes(to: category),
        userID == nil || registration.userID == userID,
        let user = try user(id: registration.userID), !adminOnly || user.role == "admin",
        try liveLogin(registration, user) != nil
      else { continue }
      if try admit(template, category: category, to: registration, role: user.role) {
        queued += 1
      }
    }
    return queued
  }

  /// The registration's login when it is still alive: unexpired, on the same installation and
  /// user, not older than a password change, and the user not `must_change_password`.
  private func liveLogin(_ registration: PushRegistrationRow, _ user: UserRow) throws
    -> MobileSessionRow?
  {
    guard let session = try mobileSession(id: registration.mobileSessionID),
      session.expiresAt > now, session.installationID == registration.installationID,
      session.userID == user.id, !user.mustChangePassword, loginIsCurrent(session, user)
    else { return nil }
    return session
  }

  /// Whether a queued job may still be sent (wire contract v2 §6): same user with the role recorded at
  /// admission, same live login on the same installation, same registration revision,
  /// registration complete and enabled, category still subscribed.
  func isStillEligible(_ job: OutboxRow) throws -> Bool {
    guard let registration = try pushRegistration(installationID: job.installationID),
      registration.userID == job.userID, registration.mobileSessionID == job.mobileSessionID,
      registration.revision == job.revision, registration.isRegistered,
      registration.subscribes(to: job.category),
      let user = try user(id: job.userID), user.role == job.role,
      !job.category.needsAdmin || user.role == "admin",
      try liveLogin(registration, user) != nil
    else { return false }
    return true
  }

  /// Leases up to `limit` due jobs. Jobs past their deadline become `expired`, ineligible ones
  /// `permanent`/`Ineligible` (nothing sent), both with the ciphertext erased.
  func claimDueAttempts(limit: Int) throws -> [RelayAttempt] {
    try db.transaction {
      let due = try db.query(
        """
        SELECT * FROM push_outbox WHERE outcome IN ('pending', 'retryable')
          AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
        ORDER BY next_attempt_at, admitted_at LIMIT ?
        """, [.int(now), .int(now), .int(Int64(limit))]
      ).map(OutboxRow.init)
      var attempts: [RelayAttempt] = []
      for job in due {
        if job.expiresAt <= nowSeconds {
          try finish(job, RelayClassification(outcome: .expired, reason: .expired))
          continue
        }
        guard try isStillEligible(job) else {
          try finish(job, RelayClassification(outcome: .permanent, reason: .ineligible))
          continue
        }
        guard let relay = usableRelayURL, !relay.isEmpty, let body = try relayBody(job) else {
          try finish(job, RelayClassification(outcome: .permanent, reason: .relayNotConfigured))
          continue
        }
        let lease = Crypto.token(random, bytes: 16)
        try db.execute(
          """
          UPDATE push_outbox SET lease_id = ?, lease_until = ?, attempts = attempts + 1,
            updated_at = ? WHERE event_id = ? AND installation_id = ?
          """,
          [
            .text(lease), .int(now + Self.leaseNanos), .int(now), .text(job.eventID),
            .text(job.installationID),
          ])
        attempts.append(
          RelayAttempt(
            eventID: job.eventID, installationID: job.installationID, leaseID: lease, body: body))
      }
      return attempts
    }
  }

  private func relayBody(_ job: OutboxRow) throws -> Data? {
    guard let text = job.envelopeJSON,
      let envelope = try? WireJSON.decode(PushEnvelope.self, from: Data(text.utf8))
    else { return nil }
    return try WireJSON.encode(
      RelaySendRequest(
        deviceToken: job.deviceToken, environment: PushEnvironment(rawValue: job.environment),
        eventID: job.eventID, expiresAt: job.expiresAt, envelope: envelope))
  }

  /// Stores the answer to one attempt, if the attempt still holds its lease.
  func record(_ attempt: RelayAttempt, _ answer: RelayAnswer) throws {
    try db.transaction {
      guard
        let job = try outboxRow(eventID: attempt.eventID, installationID: attempt.installationID),
        job.leaseID == attempt.leaseID
      else { return }
      var verdict = Self.classify(answer)
      if verdict.outcome == .retryable {
        if nowSeconds >= job.expiresAt {
          verdict = RelayClassification(outcome: .expired, reason: .expired)
        } else {
          let next = min(
            now + Self.backoff(afterAttempt: job.attempts) * Self.second,
            job.expiresAt * Self.second)
          try db.execute(
            """
            UPDATE push_outbox SET outcome = 'retryable', reason = ?, next_attempt_at = ?,
              lease_id = NULL, lease_until = NULL, updated_at = ?
            WHERE event_id = ? AND installation_id = ?
            """,
            [
              .text(verdict.reason.rawValue), .int(next), .int(now), .text(job.eventID),
              .text(job.installationID),
            ])
          return
        }
      }
      try finish(job, verdict)
      if verdict.outcome == .permanent, verdict.reason == .unregistered, verdict.deviceInvalid {
        try clearUnregisteredToken(job)
      }
    }
  }

  /// A terminal outcome: stored, lease released, ciphertext erased, row kept.
  private func finish(_ job: OutboxRow, _ verdict: RelayClassification) throws {
    try db.execute(
      """
      UPDATE push_outbox SET outcome = ?, reason = ?, envelope_json = NULL, lease_id = NULL,
        lease_until = NULL, updated_at = ? WHERE event_id = ? AND installation_id = ?
      """,
      [
        .text(verdict.outcome.rawValue), .text(verdict.reason.rawValue), .int(now),
        .text(job.eventID), .text(job.installationID),
      ])
  }

  /// APNs 410: clears the device token and bumps the revision, only when the token,
  /// environment, key id, key, deployment, login and revision are all still those of the send.
  private func clearUnregisteredToken(_ job: OutboxRow) throws {
    guard let registration = try pushRegistration(installationID: job.installationID),
      registration.userID == job.userID, registration.mobileSessionID == job.mobileSessionID,
      registration.revision == job.revision, registration.deviceToken == job.deviceToken,
      registration.environment == job.environment, registration.contentKeyID == job.contentKeyID,
      registration.contentKey.map(SHA256.hex) == job.contentKeyDigest,
      registration.deploymentID == job.deploymentID
    else { return }
    try db.execute(
      """
      UPDATE push_registrations SET device_token = NULL, revision = revision + 1, updated_at = ?
      WHERE installation_id = ? AND revision = ?
      """, [.int(now), .text(job.installationID), .int(job.revision)])
  }

  /// The classification table of wire contract v2 §6.
  static func classify(_ answer: RelayAnswer) -> RelayClassification {
    guard case .response(let status, let body) = answer else {
      return RelayClassification(outcome: .retryable, reason: .relayUnavailable)
    }
    switch status {
    case 200..<300:
      guard let verdict = try? WireJSON.decode(RelayVerdict.self, from: body) else {
        return RelayClassification(outcome: .retryable, reason: .relayUnavailable)
      }
      let known = knownReasons.contains(verdict.reason)
      switch verdict.outcome {
      case .accepted:
        return RelayClassification(outcome: .accepted, reason: known ? verdict.reason : .accepted)
      case .retryable:
        return RelayClassification(
          outcome: .retryable, reason: known ? verdict.reason : .providerUnavailable)
      case .expired:
        return RelayClassification(outcome: .expired, reason: known ? verdict.reason : .expired)
      case .permanent:
        return RelayClassification(
          outcome: .permanent, reason: known ? verdict.reason : "ProviderRejected",
          deviceInvalid: verdict.deviceInvalid)
      default:
        return RelayClassification(outcome: .retryable, reason: .relayUnavailable)
      }
    case 408:
      return RelayClassification(outcome: .retryable, reason: .requestTimeout)
    case 503:
      if let verdict = try? WireJSON.decode(RelayVerdict.self, from: body),
        verdict.outcome == .permanent, verdict.reason == .relayNotConfigured
      {
        return RelayClassification(outcome: .permanent, reason: .relayNotConfigured)
      }
      return RelayClassification(outcome: .retryable, reason: .relayUnavailable)
    case 429, 500..<600:
      return RelayClassification(outcome: .retryable, reason: .relayUnavailable)
    case 400..<500:
      return RelayClassification(outcome: .permanent, reason: .relayPayloadRejected)
    default:
      // 1xx/3xx (redirects are never followed): the relay did not answer as a relay does.
      return RelayClassification(outcome: .retryable, reason: .relayUnavailable)
    }
  }

  /// The reasons wire contract v2 §3.6 lists; a relay's other reasons are mapped per outcome.
  static let knownReasons: Set<PushDeliveryReason> = [
    "Queued", "Accepted", "Expired", "Ineligible", "Unregistered", "BadTopic", "BadDeviceToken",
    "DeviceTokenNotForTopic", "TooManyRequests", "ServiceUnavailable", "InternalServerError",
    "Shutdown", "ProviderUnavailable", "NetworkUnavailable", "RequestTimeout",
    "DeviceOrEnvironmentMismatch", "ProviderConfigurationOrPayload", "PayloadTooLarge",
    "RelayUnavailable", "RelayNotConfigured", "RelayPayloadRejected", "InvalidEnvelope",
    "ProviderRejected",
  ]
}
