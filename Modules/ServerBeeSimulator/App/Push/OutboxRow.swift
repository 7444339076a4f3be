import Foundation
import ServerBeeModels

/// One stored outbox job (Protocol/Push.md §5).
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

  /// The columns ``init(_:)-(Database.Columns)`` reads, in its order.
  static let columns = """
    event_id, installation_id, kind, category, user_id, mobile_session_id, role, revision, \
    device_token, environment, content_key_id, content_key_digest, deployment_id, created_at, \
    expires_at, envelope_json, outcome, reason, attempts, next_attempt_at, lease_id
    """

  /// ``columns`` with `NULL` for `envelope_json` (same indexes): for the readers that never
  /// look at the ciphertext.
  static let columnsWithoutCiphertext = """
    event_id, installation_id, kind, category, user_id, mobile_session_id, role, revision, \
    device_token, environment, content_key_id, content_key_digest, deployment_id, created_at, \
    expires_at, NULL, outcome, reason, attempts, next_attempt_at, lease_id
    """

  /// How many ``columns`` there are: a query may select more after them.
  static let columnCount: Int32 = 21

  /// Reads a row selected with ``columns`` by index, with no dictionary (the outbox
  /// pass read every job through one); the same values as ``init(_:)-(Row)`` on `SELECT *`.
  init(_ row: Database.Columns) {
    eventID = row.text(0) ?? ""
    installationID = row.text(1) ?? ""
    kind = row.text(2) ?? ""
    category = PushCategory(rawValue: row.text(3) ?? "") ?? .test
    userID = row.text(4) ?? ""
    mobileSessionID = row.text(5) ?? ""
    role = row.text(6) ?? ""
    revision = row.int(7) ?? 0
    deviceToken = row.text(8) ?? ""
    environment = row.text(9) ?? ""
    contentKeyID = row.text(10) ?? ""
    contentKeyDigest = row.text(11) ?? ""
    deploymentID = row.text(12) ?? ""
    createdAt = row.int(13) ?? 0
    expiresAt = row.int(14) ?? 0
    envelopeJSON = row.text(15)
    outcome = row.text(16) ?? ""
    reason = row.text(17) ?? ""
    attempts = row.int(18) ?? 0
    nextAttemptAt = row.int(19) ?? 0
    leaseID = row.text(20)
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
