import NotificationPreferences
import ServerBeeModels

/// `notifications show|enable|disable|set --json`: the state as one document.
struct SettingsDocument: Encodable {
  struct Failure: Encodable {
    var code: String
    var message: String
    var httpStatus: Int?

    init(_ failure: NotificationSettingsFailure) {
      code = failure.code.rawValue
      message = TerminalText.safe(failure.message)
      httpStatus = failure.httpStatus
    }

    enum CodingKeys: String, CodingKey {
      case code, message
      case httpStatus = "http_status"
    }
  }

  var revision: Int64?
  var preferences: PushPreferences?
  var securityAllowed: Bool?
  var tasksAllowed: Bool?
  var permission: String
  var registration: String
  var registrationError: Failure?
  var deliveryAvailable: Bool?
  var testAvailable: Bool
  var unconfirmed: PushPreferences?
  var lastSaveError: Failure?
  var loadError: Failure?

  init(_ state: NotificationSettingsState) {
    revision = state.confirmed?.revision
    preferences = state.confirmed?.preferences
    securityAllowed = state.confirmed?.securityAllowed
    tasksAllowed = state.confirmed?.tasksAllowed
    permission = "\(state.permission)"
    switch state.registration {
    case .notRegistered: registration = "not_registered"
    case .needsPermission: registration = "needs_permission"
    case .registering: registration = "registering"
    case .registered: registration = "registered"
    case .failed(let failure):
      registration = "failed"
      registrationError = Failure(failure)
    }
    deliveryAvailable = state.confirmed?.deliveryAvailable
    testAvailable = state.canSendTest
    unconfirmed = state.unconfirmed
    lastSaveError = state.saveError.map(Failure.init)
    loadError = state.loadError.map(Failure.init)
  }

  enum CodingKeys: String, CodingKey {
    case revision, preferences, permission, registration, unconfirmed
    case securityAllowed = "security_allowed"
    case tasksAllowed = "tasks_allowed"
    case registrationError = "registration_error"
    case deliveryAvailable = "delivery_available"
    case testAvailable = "test_available"
    case lastSaveError = "last_save_error"
    case loadError = "load_error"
  }
}

/// `notifications test --json`: the test and every outcome it went through, as one document.
struct TestDocument: Encodable {
  struct Update: Encodable {
    var outcome: String
    var reason: String
    /// `TestPushStatusText.reasonLine`: what the reason means and what to check; `null` for
    /// a test on its way or delivered.
    var reasonLine: String?
    var status: String

    enum CodingKeys: String, CodingKey {
      case outcome, reason, status
      case reasonLine = "reason_line"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(outcome, forKey: .outcome)
      try container.encode(reason, forKey: .reason)
      try container.encode(reasonLine, forKey: .reasonLine)  // null, not left out
      try container.encode(status, forKey: .status)
    }
  }

  var eventID: String
  var outcome: String
  var reason: String
  var reasonLine: String?
  var status: String
  var updates: [Update]

  init(_ updates: [TestPushTracker.Progress], _ language: TestPushStatusText.Language) {
    self.updates = updates.map {
      Update(
        outcome: $0.outcome.rawValue, reason: $0.reason.rawValue,
        reasonLine: TestPushStatusText.reasonLine(for: $0.reason, language: language),
        status: $0.statusLine(language))
    }
    let last = self.updates.last
    eventID = updates.last?.eventID ?? ""
    outcome = last?.outcome ?? ""
    reason = last?.reason ?? ""
    reasonLine = last?.reasonLine
    status = last?.status ?? ""
  }

  enum CodingKeys: String, CodingKey {
    case outcome, reason, status, updates
    case reasonLine = "reason_line"
    case eventID = "event_id"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(eventID, forKey: .eventID)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(reason, forKey: .reason)
    try container.encode(reasonLine, forKey: .reasonLine)
    try container.encode(status, forKey: .status)
    try container.encode(updates, forKey: .updates)
  }
}
