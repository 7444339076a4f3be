import Foundation
import PushEnvelopeCrypto
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// Admission to the durable outbox (Protocol/Push.md §5), which alerts, security events, task
/// runs and test pushes share: one sealed envelope per eligible installation, and the checks
/// that keep a queued job eligible until it is sent.
///
/// Every time comes from the simulator clock, so a test covers the 30-minute lifetime by
/// advancing it. Only the envelope (ciphertext) is stored; it is erased at any terminal outcome
/// and the row is kept.
extension SimulatorCore {
  /// Every push lives exactly 30 minutes from its `created_at` (Protocol/Push.md §3.6).
  static let pushLifetime: Int64 = 1800

  /// The SQL of ``outboxRow(eventID:installationID:withCiphertext:)``, written once: an
  /// interpolated text was built and hashed anew for the statement cache on every call.
  static let outboxRowByKey =
    "SELECT \(OutboxRow.columns) FROM push_outbox WHERE event_id = ? AND installation_id = ?"

  /// The same without the ciphertext: `NULL` in its place, so the columns keep their indexes.
  static let outboxRowByKeyWithoutCiphertext =
    "SELECT \(OutboxRow.columnsWithoutCiphertext) FROM push_outbox"
    + " WHERE event_id = ? AND installation_id = ?"

  /// The SQL of ``pushRegistration(installationID:)``.
  static let registrationByInstallation =
    "SELECT \(PushRegistrationRow.columns) FROM push_registrations WHERE installation_id = ?"

  ///
  /// `withCiphertext: false` leaves ``OutboxRow/envelopeJSON`` `nil`, for the readers that never
  /// look at it (recording an answer, a test push's status): the sealed envelope is the largest
  /// column by far, and making it a string cost more than the rest of the row.
  func outboxRow(eventID: String, installationID: String, withCiphertext: Bool = true) throws
    -> OutboxRow?
  {
    try db.read(
      withCiphertext ? Self.outboxRowByKey : Self.outboxRowByKeyWithoutCiphertext,
      [.text(eventID), .text(installationID)]
    ) { OutboxRow($0) }.first
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
    try admission(template, category: category, to: registration, role: role) != .refused
  }

  /// What ``admission(_:category:to:role:)`` did.
  enum Admission {
    /// No usable key material, too large or past its lifetime: nothing queued.
    case refused
    /// A new job, stored `pending` with reason `Queued` and the content's `expires_at`.
    case queued
    /// The (event, installation) had a job already, which was left as it was.
    case duplicate
  }

  /// ``admit(_:category:to:role:)``, telling a new job from an existing one (whose row the
  /// caller then reads; a new one it knows).
  func admission(
    _ template: PushContent, category: PushCategory, to registration: PushRegistrationRow,
    role: String
  ) throws -> Admission {
    guard template.createdAt + Self.pushLifetime > nowSeconds,
      let deviceToken = registration.deviceToken, let environment = registration.environment,
      let keyID = registration.contentKeyID, let key = registration.contentKey,
      let deployment = registration.deploymentID
    else { return .refused }
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
      return .refused  // over 2048 bytes or an unusable key: skipped (Protocol/Push.md §3.5)
    }
    let envelopeJSON = OutboxWire.envelopeJSON(envelope)
    let inserted = try db.execute(
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
    return inserted > 0 ? .queued : .duplicate
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
    let rows = try db.read(
      "SELECT \(PushRegistrationRow.columns) FROM push_registrations WHERE enabled = 1"
    ) { PushRegistrationRow($0) }
    for registration in rows {
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

  /// Whether a queued job may still be sent (Protocol/Push.md §5): same user with the role recorded
  /// at admission, same live login on the same installation, same registration revision,
  /// registration complete and enabled, category still subscribed. Returns the `expires_at` of
  /// the login's session when it may (until then, the verdict holds as long as the rows it
  /// read are unchanged), else `nil`.
  func eligibleUntil(_ job: OutboxRow) throws -> Int64? {
    guard let registration = try pushRegistration(installationID: job.installationID),
      registration.userID == job.userID, registration.mobileSessionID == job.mobileSessionID,
      registration.revision == job.revision, registration.isRegistered,
      registration.subscribes(to: job.category),
      let user = try user(id: job.userID), user.role == job.role,
      !job.category.needsAdmin || user.role == "admin",
      let session = try liveLogin(registration, user)
    else { return nil }
    return session.expiresAt
  }

  /// The relay URL when it is usable (Protocol/Push.md §2.7), else `nil`.
  ///
  /// The verdict is kept for the last URL judged (``relayVerdict``): parsing it with
  /// `URLComponents` cost about 13 k instructions, three times a push (admission, claim, send).
  var usableRelayURL: String? {
    guard let text = relayURL.withLock({ $0 }) else { return nil }
    if let kept = relayVerdict.withLock({ $0 }), kept.text == text {
      return kept.usable ? text : nil
    }
    let usable = PushRules.isUsableURL(text)
    relayVerdict.withLock { $0 = (text, usable) }
    return usable ? text : nil
  }

  /// A login older than the user's last password change is dead ("token versioning").
  func loginIsCurrent(_ session: MobileSessionRow, _ user: UserRow) -> Bool {
    guard let changed = user.passwordChangedAt else { return true }
    return session.verifiedAt >= changed
  }

  func pushRegistration(installationID: String) throws -> PushRegistrationRow? {
    try db.read(Self.registrationByInstallation, [.text(installationID)]) {
      PushRegistrationRow($0)
    }.first
  }
}
