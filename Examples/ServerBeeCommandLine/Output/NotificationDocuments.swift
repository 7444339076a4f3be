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
    var status: String
  }

  var eventID: String
  var outcome: String
  var reason: String
  var status: String
  var updates: [Update]

  init(_ updates: [TestPushTracker.Progress], _ language: TestPushStatusText.Language) {
    let last = updates.last
    eventID = last?.eventID ?? ""
    outcome = last?.outcome.rawValue ?? ""
    reason = last?.reason.rawValue ?? ""
    status = last?.statusLine(language) ?? ""
    self.updates = updates.map {
      Update(
        outcome: $0.outcome.rawValue, reason: $0.reason.rawValue, status: $0.statusLine(language))
    }
  }

  enum CodingKeys: String, CodingKey {
    case outcome, reason, status, updates
    case eventID = "event_id"
  }
}
