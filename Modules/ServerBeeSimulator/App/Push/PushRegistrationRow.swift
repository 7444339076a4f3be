import ServerBeeModels

/// One installation's encrypted-push registration (Protocol/Push.md §2.1–§2.5).
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

  /// The columns ``init(_:)-(Database.Columns)`` reads, in its order.
  static let columns = """
    installation_id, user_id, mobile_session_id, revision, enabled, alerts, security, \
    task_failure, task_success, device_token, environment, content_key_id, content_key, \
    deployment_id
    """

  /// Reads a row selected with ``columns`` by index, with no dictionary; the same
  /// values as ``init(_:)-(Row)`` on `SELECT *`.
  init(_ row: Database.Columns) {
    installationID = row.text(0) ?? ""
    userID = row.text(1) ?? ""
    mobileSessionID = row.text(2) ?? ""
    revision = row.int(3) ?? 0
    preferences = PushPreferences(
      enabled: row.bool(4), alerts: row.bool(5), security: row.bool(6),
      taskFailure: row.bool(7), taskSuccess: row.bool(8))
    deviceToken = row.text(9)
    environment = row.text(10)
    contentKeyID = row.text(11)
    contentKey = row.text(12)
    deploymentID = row.text(13)
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

/// The outbox category of a push: which preference admits it (Protocol/Push.md §4, §5).
enum PushCategory: String, Sendable, CaseIterable {
  case test
  case alerts
  case security
  case taskFailure = "task_failure"
  case taskSuccess = "task_success"

  /// Security and task pushes go to administrators only.
  var needsAdmin: Bool { self == .security || self == .taskFailure || self == .taskSuccess }
}

/// The validation rules the server applies to push input (Protocol/Push.md §2.5, §2.7): the
/// shared `PushRegistrationRules` of ServerBeeModels, which clients check before sending too.
typealias PushRules = PushRegistrationRules

/// The caller of a push route: the Bearer of a live mobile session (Protocol/Push.md §2.1).
struct PushCaller: Sendable {
  var user: UserRow
  var session: MobileSessionRow
  var isAdmin: Bool { user.role == "admin" }
}
