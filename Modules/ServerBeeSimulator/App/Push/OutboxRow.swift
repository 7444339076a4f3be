import Foundation
import ServerBeeModels

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
