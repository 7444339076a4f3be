import ServerBeeModels

@testable import NotificationPreferences

/// Settings documents and events for the tables.
enum Fixture {
  static let token = PushDeviceToken(hex: String(repeating: "ab", count: 32), environment: .sandbox)

  static func document(
    _ revision: Int64, _ preferences: PushPreferences = PushPreferences(), admin: Bool = true,
    registered: Bool = false, delivery: Bool = true
  ) -> PushSetupResponse {
    PushSetupResponse(
      revision: revision, preferences: preferences, securityAllowed: admin, tasksAllowed: admin,
      taskFailureAvailable: true, registered: registered, deliveryAvailable: delivery,
      testAvailable: registered && delivery)
  }

  static let off = PushPreferences()
  static let alerts = PushPreferences(enabled: true, alerts: true)
  static let everything = PushPreferences(
    enabled: true, alerts: true, security: true, taskFailure: true, taskSuccess: true)

  static func failure(_ code: NotificationPreferencesError.Code) -> NotificationSettingsFailure {
    NotificationSettingsFailure(code, "scripted " + code.rawValue)
  }
}

/// Events that bring a machine to a known state.
enum Given {
  typealias Event = NotificationSettingsMachine.Event

  static let signedIn: [Event] = [.signedIn]
  static func loaded(
    _ document: PushSetupResponse, permission: PushPermissionStatus = .notDetermined,
    hasKey: Bool = false
  ) -> [Event] {
    [
      .signedIn, .reconcile, .permissionChecked(permission),
      .fetched(document, hasLocalKey: hasKey),
    ]
  }
  static let loading: [Event] = [.signedIn, .reconcile]
  /// Loaded at revision 1 (alerts on, admin) with a failed network save of `everything`.
  static let failedSave: [Event] =
    loaded(Fixture.document(1, Fixture.alerts, registered: true), hasKey: true) + [
      .save(Fixture.everything), .saveFailed(Fixture.failure(.transportFailed)),
    ]
  /// Enabled, saved and waiting for the permission answer.
  static let awaitingPermission: [Event] =
    loaded(Fixture.document(0)) + [
      .save(Fixture.alerts), .saved(Fixture.document(1, Fixture.alerts), hasLocalKey: false),
    ]
  /// Enabled and saved with permission, waiting for the token.
  static let awaitingToken: [Event] = awaitingPermission + [.permissionAnswered(.authorized)]
  /// Waiting for the `encrypted-register` answer.
  static let awaitingRegistration: [Event] = awaitingToken + [.deviceTokenReceived(Fixture.token)]
}
