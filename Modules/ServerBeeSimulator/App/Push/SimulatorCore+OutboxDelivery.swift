import Foundation
import PushEnvelopeCrypto
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// Delivery from the durable outbox (Protocol/Push.md §5): ``claimDueAttempts(limit:)`` re-checks
/// eligibility under the database lock and leases a job; ``record(_:_:)`` classifies the relay's
/// answer with the table of ``classify(_:)``. The outbox workers and the outbox run route drive
/// these (`Network/OutboxWorkers.swift`).
extension SimulatorCore {
  /// How long one attempt owns a job (30 s).
  static let leaseNanos: Int64 = 30 * second

  /// Backoff after attempt `n`: `min(2^min(n+1, 8), 300)` seconds.
  static func backoff(afterAttempt attempt: Int64) -> Int64 {
    min(Int64(1) << min(max(attempt, 0) + 1, 8), 300)
  }

  /// Leases up to `limit` due jobs. Jobs past their deadline become `expired`, ineligible ones
  /// `permanent`/`Ineligible` (nothing sent), both with the ciphertext erased.
  func claimDueAttempts(limit: Int) throws -> [RelayAttempt] {
    try claimDueJobs(limit: limit).attempts
  }

  /// ``claimDueAttempts(limit:)``, and whether the claim found `limit` due jobs, so more may be
  /// due; when it did not, every job due at the claim was taken (sent or finished).
  func claimDueJobs(limit: Int) throws -> (attempts: [RelayAttempt], full: Bool) {
    try db.transaction {
      let due = try dueJobs(limit: limit)
      var attempts: [RelayAttempt] = []
      // Jobs of one login are judged once a claim: inside the transaction nothing the check
      // reads changes (three row reads per job).
      var judged: [EligibilityKey: Bool] = [:]
      for job in due {
        if job.expiresAt <= nowSeconds {
          try finish(job, RelayClassification(outcome: .expired, reason: .expired))
          continue
        }
        let key = EligibilityKey(job)
        let eligible = try judged[key] ?? isStillEligibleKept(job, key)
        judged[key] = eligible
        guard eligible else {
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
      return (attempts, limit >= 0 && due.count >= limit)
    }
  }

  /// Up to `limit` due, unleased jobs, oldest `next_attempt_at` first, then `admitted_at`.
  ///
  /// One query per outcome, merged here: with `outcome IN ('pending', 'retryable')`
  /// SQLite sorted every pending job, leased ones included, on each claim, so a claim cost in
  /// proportion to the backlog; with one outcome the index `push_outbox_due` gives the order
  /// of `next_attempt_at` and the `LIMIT` stops the scan early.
  ///
  /// The queries select only the row id and the two times, in the index's order alone: ordering
  /// by `admitted_at` too made SQLite build a sorter for every query (about 30 k instructions
  /// each, two per claim, most claims finding one job or none). Ties on `next_attempt_at` are
  /// then ordered here; only when a query fills the limit can jobs with the last
  /// `next_attempt_at` lie beyond it, and those (up to `limit`, by `admitted_at`) are read
  /// again. The chosen jobs are read whole by row id (selecting every column, the ciphertext
  /// too, for every candidate and copying them through the merge cost as much again).
  private func dueJobs(limit: Int) throws -> [OutboxRow] {
    var due: [DueKey] = []
    for outcome in ["pending", "retryable"] {
      due += try dueKeys(outcome: outcome, limit: limit)
    }
    due.sort { ($0.nextAttemptAt, $0.admittedAt) < ($1.nextAttemptAt, $1.admittedAt) }
    // A negative limit is none, as SQLite's `LIMIT` reads it.
    return try (limit < 0 ? due[...] : due.prefix(limit)).compactMap { key in
      try db.read(Self.jobByRowID, [.int(key.rowID)]) { OutboxRow($0) }.first
    }
  }

  /// A due job's row id and sort keys.
  private typealias DueKey = (rowID: Int64, nextAttemptAt: Int64, admittedAt: Int64)

  /// The first `limit` due, unleased jobs of one outcome by (`next_attempt_at`, `admitted_at`),
  /// in no particular order.
  private func dueKeys(outcome: String, limit: Int) throws -> [DueKey] {
    let keys = try db.read(
      Self.dueKeys, [.text(outcome), .int(now), .int(now), .int(Int64(limit))], Self.dueKey)
    guard limit >= 0, keys.count >= limit, let last = keys.last?.nextAttemptAt else {
      return keys
    }
    // Full: jobs with the last `next_attempt_at` may have been cut off by the limit although
    // they were admitted earlier than some that made it. Take that time's first `limit` by
    // `admitted_at` instead of those that made it.
    let tied = try db.read(
      Self.dueKeysAt, [.text(outcome), .int(last), .int(now), .int(Int64(limit))], Self.dueKey)
    return keys.filter { $0.nextAttemptAt != last } + tied
  }

  private static func dueKey(_ row: Database.Columns) -> DueKey {
    (row.int(0) ?? 0, row.int(1) ?? 0, row.int(2) ?? 0)
  }

  /// The due, unleased jobs of one outcome in the order of `push_outbox_due`.
  private static let dueKeys = """
    SELECT rowid, next_attempt_at, admitted_at FROM push_outbox WHERE outcome = ?
      AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
    ORDER BY next_attempt_at LIMIT ?
    """

  /// The unleased jobs of one outcome due at exactly one time, the earliest admitted first.
  private static let dueKeysAt = """
    SELECT rowid, next_attempt_at, admitted_at FROM push_outbox WHERE outcome = ?
      AND next_attempt_at = ? AND (lease_until IS NULL OR lease_until <= ?)
    ORDER BY admitted_at LIMIT ?
    """

  /// One job by row id (inside the claim's transaction, so it is the row ``dueKeys`` found).
  private static let jobByRowID = "SELECT \(OutboxRow.columns) FROM push_outbox WHERE rowid = ?"

  /// ``eligibleUntil(_:)`` as a verdict, from ``eligibleLogins`` when the rows that decided it are
  /// unchanged (``Database/eligibilityVersion``) and the login's session has not expired since.
  ///
  /// The check reads the registration, the user and the mobile session (about 60 k
  /// instructions a claim); only a verdict of eligible is kept, with the session's
  /// `expires_at`, the one part of it the clock can change.
  private func isStillEligibleKept(_ job: OutboxRow, _ key: EligibilityKey) throws -> Bool {
    let version = db.eligibilityVersion
    if let until = eligibleLogins.value(for: key, at: version), until > now { return true }
    guard let until = try eligibleUntil(job) else { return false }
    eligibleLogins.keep(until, for: key, at: version)
    return true
  }
}

/// What ``SimulatorCore/eligibleUntil(_:)`` reads of a job.
struct EligibilityKey: Hashable, Sendable {
  var installationID: String
  var userID: String
  var mobileSessionID: String
  var revision: Int64
  var category: PushCategory
  var role: String

  init(_ job: OutboxRow) {
    installationID = job.installationID
    userID = job.userID
    mobileSessionID = job.mobileSessionID
    revision = job.revision
    category = job.category
    role = job.role
  }
}

extension SimulatorCore {
  private func relayBody(_ job: OutboxRow) throws -> Data? { try OutboxWire.relayBody(job) }

  /// Stores the answer to one attempt, if the attempt still holds its lease.
  func record(_ attempt: RelayAttempt, _ answer: RelayAnswer) throws {
    try db.transaction { try recordInTransaction(attempt, answer) }
  }

  /// Stores the answers to the attempts of one claim in one transaction (one per answer spent a
  /// `BEGIN`/`COMMIT` and a WAL append per push); each as ``record(_:_:)`` stores it. A failure
  /// rolls them all back: the jobs keep their leases and are sent again when they lapse, as a
  /// failed ``record(_:_:)`` leaves its job.
  func record(_ answers: some Sequence<(RelayAttempt, RelayAnswer)>) throws {
    try db.transaction {
      for (attempt, answer) in answers { try recordInTransaction(attempt, answer) }
    }
  }

  private func recordInTransaction(_ attempt: RelayAttempt, _ answer: RelayAnswer) throws {
    guard let job = try leasedJob(attempt), job.leaseID == attempt.leaseID else { return }
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
    if verdict.outcome == .permanent, verdict.reason == .unregistered, verdict.deviceInvalid,
      // The columns it compares are not among those `finish` wrote.
      let whole = try outboxRow(
        eventID: job.eventID, installationID: job.installationID, withCiphertext: false)
    {
      try clearUnregisteredToken(whole)
    }
  }

  /// What recording an answer reads of a job (the whole row only for an APNs 410).
  private struct LeasedJob {
    var eventID: String
    var installationID: String
    var leaseID: String?
    var attempts: Int64
    var expiresAt: Int64
  }

  /// The SQL of ``leasedJob(_:)``.
  private static let leasedJobByKey = """
    SELECT event_id, installation_id, lease_id, attempts, expires_at FROM push_outbox
    WHERE event_id = ? AND installation_id = ?
    """

  /// The attempt's job as recording its answer needs it, or `nil` when it is gone: five
  /// columns instead of the row's twenty made into values.
  private func leasedJob(_ attempt: RelayAttempt) throws -> LeasedJob? {
    try db.read(Self.leasedJobByKey, [.text(attempt.eventID), .text(attempt.installationID)]) {
      LeasedJob(
        eventID: $0.text(0) ?? "", installationID: $0.text(1) ?? "", leaseID: $0.text(2),
        attempts: $0.int(3) ?? 0, expiresAt: $0.int(4) ?? 0)
    }.first
  }

  /// A terminal outcome: stored, lease released, ciphertext erased, row kept.
  private func finish(_ job: OutboxRow, _ verdict: RelayClassification) throws {
    try finish(eventID: job.eventID, installationID: job.installationID, verdict)
  }

  private func finish(_ job: LeasedJob, _ verdict: RelayClassification) throws {
    try finish(eventID: job.eventID, installationID: job.installationID, verdict)
  }

  private func finish(
    eventID: String, installationID: String, _ verdict: RelayClassification
  ) throws {
    try db.execute(
      """
      UPDATE push_outbox SET outcome = ?, reason = ?, envelope_json = NULL, lease_id = NULL,
        lease_until = NULL, updated_at = ? WHERE event_id = ? AND installation_id = ?
      """,
      [
        .text(verdict.outcome.rawValue), .text(verdict.reason.rawValue), .int(now),
        .text(eventID), .text(installationID),
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

  /// The classification table of Protocol/Push.md §5.
  static func classify(_ answer: RelayAnswer) -> RelayClassification {
    guard case .response(let status, let body) = answer else {
      return RelayClassification(outcome: .retryable, reason: .relayUnavailable)
    }
    switch status {
    case 200..<300:
      guard let verdict = OutboxWire.verdict(body) else {
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
      if let verdict = OutboxWire.verdict(body),
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

  /// The reasons Protocol/Push.md §2.6 lists; a relay's other reasons are mapped per outcome.
  static let knownReasons: Set<PushDeliveryReason> = [
    "Queued", "Accepted", "Expired", "Ineligible", "Unregistered", "BadTopic", "BadDeviceToken",
    "DeviceTokenNotForTopic", "TooManyRequests", "ServiceUnavailable", "InternalServerError",
    "Shutdown", "ProviderUnavailable", "NetworkUnavailable", "RequestTimeout",
    "DeviceOrEnvironmentMismatch", "ProviderConfigurationOrPayload", "PayloadTooLarge",
    "RelayUnavailable", "RelayNotConfigured", "RelayPayloadRejected", "InvalidEnvelope",
    "ProviderRejected",
  ]
}
