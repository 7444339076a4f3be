import ServerBeeModels
import Testing

@testable import NotificationPreferences

/// One row of the transition table: the events before, the event, the actions and a check of
/// the state after.
struct Transition: Sendable, CustomTestStringConvertible {
  typealias Event = NotificationSettingsMachine.Event
  typealias Action = NotificationSettingsMachine.Action

  let name: String
  let given: [Event]
  let when: Event
  let then: [Action]
  let check: @Sendable (NotificationSettingsState) -> Bool

  var testDescription: String { name }

  init(
    _ name: String, given: [Event], when: Event, then: [Action],
    check: @escaping @Sendable (NotificationSettingsState) -> Bool = { _ in true }
  ) {
    self.name = name
    self.given = given
    self.when = when
    self.then = then
    self.check = check
  }
}

@Suite struct NotificationSettingsMachineTests {
  typealias F = Fixture

  static let sessionRows: [Transition] = [
    Transition("sign-in starts empty", given: [], when: .signedIn, then: []) {
      $0.isSignedIn && $0.confirmed == nil
    },
    Transition(
      "sign-out forgets and clears the key", given: Given.loaded(F.document(2, F.alerts)),
      when: .signedOut, then: [.clearKey]
    ) { !$0.isSignedIn && $0.confirmed == nil },
    Transition(
      "another login clears the old key and the old document",
      given: Given.loaded(F.document(2, F.alerts)), when: .accountChanged, then: [.clearKey]
    ) { $0.isSignedIn && $0.confirmed == nil && $0.saveError == nil },
    Transition(
      "sign-out keeps the permission (it belongs to the device)",
      given: Given.loaded(F.document(0), permission: .denied), when: .signedOut, then: [.clearKey]
    ) { $0.permission == .denied },
  ]

  static let loadRows: [Transition] = [
    Transition(
      "reconcile checks the permission and loads", given: Given.signedIn, when: .reconcile,
      then: [.checkPermission, .fetch]
    ) { $0.isLoading },
    Transition(
      "reconcile during a load only checks, and loads again after",
      given: Given.loading, when: .reconcile, then: [.checkPermission]
    ) { $0.isLoading },
    Transition(
      "a load answered after a second reconcile loads once more",
      given: Given.loading + [.reconcile], when: .fetched(F.document(0), hasLocalKey: false),
      then: [.clearKey, .fetch]),
    Transition(
      "a permission check never prompts", given: Given.loading,
      when: .permissionChecked(.notDetermined), then: []
    ) { $0.permission == .notDetermined },
    Transition(
      "disabled settings delete the local key", given: Given.loading,
      when: .fetched(F.document(3, F.off), hasLocalKey: true), then: [.clearKey]
    ) { $0.confirmed?.revision == 3 && $0.registration == .notRegistered && !$0.isLoading },
    Transition(
      "enabled, registered and keyed is registered",
      given: Given.loading + [.permissionChecked(.authorized)],
      when: .fetched(F.document(3, F.alerts, registered: true), hasLocalKey: true), then: []
    ) { $0.registration == .registered },
    Transition(
      "a pending registration is retried when permission is granted",
      given: Given.loading + [.permissionChecked(.authorized)],
      when: .fetched(F.document(3, F.alerts), hasLocalKey: false), then: [.obtainDeviceToken]
    ) { $0.registration == .registering },
    Transition(
      "registered on the server but no local key (another scope's was removed) re-registers",
      given: Given.loading + [.permissionChecked(.authorized)],
      when: .fetched(F.document(3, F.alerts, registered: true), hasLocalKey: false),
      then: [.obtainDeviceToken]),
    Transition(
      "a reconcile without permission never prompts",
      given: Given.loading + [.permissionChecked(.notDetermined)],
      when: .fetched(F.document(3, F.alerts), hasLocalKey: false), then: []
    ) { $0.registration == .needsPermission },
    Transition(
      "a load older than the confirmed revision is ignored",
      given: Given.loaded(F.document(5, F.alerts)) + [.reconcile],
      when: .fetched(F.document(4, F.off), hasLocalKey: false), then: []
    ) { $0.confirmed?.revision == 5 && $0.confirmed?.preferences == F.alerts },
    Transition(
      "a failed load keeps the document and shows the error",
      given: Given.loaded(F.document(2, F.alerts)) + [.reconcile],
      when: .fetchFailed(F.failure(.transportFailed)), then: []
    ) { $0.confirmed?.revision == 2 && $0.loadError?.code == .transportFailed },
    Transition(
      "a v1 server is unsupported", given: Given.loading,
      when: .fetchFailed(F.failure(.unsupportedByServer)), then: []
    ) { $0.isUnsupportedByServer },
  ]

  static let saveRows: [Transition] = [
    Transition(
      "a member's save drops security and tasks", given: Given.loaded(F.document(0, admin: false)),
      when: .save(F.everything),
      then: [.put(PushSettingsUpdate(expectedRevision: 0, preferences: F.alerts))]
    ) { $0.isSaving && $0.unconfirmed == F.alerts && $0.confirmed?.revision == 0 },
    Transition(
      "an admin's save keeps every category", given: Given.loaded(F.document(4, F.alerts)),
      when: .save(F.everything),
      then: [.put(PushSettingsUpdate(expectedRevision: 4, preferences: F.everything))]),
    Transition(
      "a demoted admin's disable clears the categories no longer allowed",
      given: Given.loaded(F.document(6, F.everything, admin: false, registered: true)),
      when: .save(PushPreferences(enabled: false, alerts: true, security: true, taskFailure: true)),
      then: [
        .put(
          PushSettingsUpdate(
            expectedRevision: 6, preferences: PushPreferences(enabled: false, alerts: true)))
      ]),
    Transition(
      "tasks_allowed missing (older server) drops the task categories",
      given: Given.loaded(
        PushSetupResponse(
          revision: 1, preferences: F.off, securityAllowed: true, tasksAllowed: nil,
          taskFailureAvailable: nil, registered: false, deliveryAvailable: true,
          testAvailable: nil)),
      when: .save(F.everything),
      then: [
        .put(
          PushSettingsUpdate(
            expectedRevision: 1,
            preferences: PushPreferences(enabled: true, alerts: true, security: true)))
      ]),
    Transition(
      "a confirmed enabling save asks for permission",
      given: Given.loaded(F.document(0)) + [
        .save(F.alerts)
      ], when: .saved(F.document(1, F.alerts), hasLocalKey: false), then: [.requestPermission]
    ) {
      $0.confirmed?.preferences == F.alerts && $0.unconfirmed == nil && !$0.isSaving
        && $0.registration == .needsPermission
    },
    Transition(
      "a confirmed enabling save with permission already granted gets the token",
      given: Given.loaded(F.document(0), permission: .authorized) + [.save(F.alerts)],
      when: .saved(F.document(1, F.alerts), hasLocalKey: false), then: [.obtainDeviceToken]),
    Transition(
      "a confirmed enabling save never prompts once denied",
      given: Given.loaded(F.document(0), permission: .denied) + [.save(F.alerts)],
      when: .saved(F.document(1, F.alerts), hasLocalKey: false), then: []
    ) { $0.registration == .needsPermission },
    Transition(
      "a confirmed category change of a registered device registers nothing",
      given: Given.loaded(F.document(2, F.alerts, registered: true), hasKey: true) + [
        .save(F.everything)
      ], when: .saved(F.document(3, F.everything, registered: true), hasLocalKey: true), then: []
    ) { $0.registration == .registered },
    Transition(
      "a confirmed disable clears the key",
      given: Given.loaded(F.document(2, F.alerts, registered: true), hasKey: true) + [
        .save(F.off)
      ], when: .saved(F.document(3, F.off), hasLocalKey: true), then: [.clearKey]
    ) { $0.registration == .notRegistered && $0.confirmed?.revision == 3 },
    Transition(
      "a failed save keeps the confirmed document, the choice and the error",
      given: Given.loaded(F.document(1, F.alerts)) + [.save(F.everything)],
      when: .saveFailed(F.failure(.transportFailed)), then: []
    ) {
      $0.confirmed?.preferences == F.alerts && $0.unconfirmed == F.everything
        && $0.saveError?.code == .transportFailed && !$0.isSaving
    },
    Transition(
      "a 409 reloads and says so",
      given: Given.loaded(F.document(1, F.alerts)) + [
        .save(F.everything)
      ], when: .saveFailed(F.failure(.conflict)), then: [.fetch]
    ) { $0.notice == .reloadedAfterConflict && $0.saveError?.code == .conflict },
    Transition(
      "a 403 is shown and nothing is reloaded",
      given: Given.loaded(F.document(1, F.alerts)) + [.save(F.everything)],
      when: .saveFailed(F.failure(.notPermitted)), then: []
    ) { $0.saveError?.code == .notPermitted },
    Transition(
      "a save answer older than a newer load does not overwrite it",
      given: Given.loaded(F.document(1, F.alerts)) + [.save(F.everything), .reconcile] + [
        .permissionChecked(.notDetermined),
        .fetched(F.document(3, F.off), hasLocalKey: false),
      ], when: .saved(F.document(2, F.everything), hasLocalKey: false), then: []
    ) { $0.confirmed?.revision == 3 && $0.confirmed?.preferences == F.off },
    Transition(
      "a success after a failure clears the error",
      given: Given.failedSave + [.save(F.everything)],
      when: .saved(F.document(2, F.everything, registered: true), hasLocalKey: true), then: []
    ) { $0.saveError == nil && $0.unconfirmed == nil },
  ]

  static let failureVisibilityRows: [Transition] = [
    Transition(
      "the error stays across a reconcile at the same revision",
      given: Given.failedSave + [.reconcile, .permissionChecked(.authorized)],
      when: .fetched(F.document(1, F.alerts, registered: true), hasLocalKey: true), then: []
    ) { $0.saveError != nil && $0.unconfirmed == F.everything },
    Transition(
      "the error stays when a newer revision has other preferences",
      given: Given.failedSave + [.reconcile, .permissionChecked(.authorized)],
      when: .fetched(F.document(2, F.off), hasLocalKey: true), then: [.clearKey]
    ) { $0.saveError != nil && $0.unconfirmed == F.everything },
    Transition(
      "the same preferences at a newer revision confirm the lost save",
      given: Given.failedSave + [.reconcile, .permissionChecked(.authorized)],
      when: .fetched(F.document(2, F.everything, registered: true), hasLocalKey: true), then: []
    ) { $0.saveError == nil && $0.unconfirmed == nil && $0.confirmed?.revision == 2 },
    Transition(
      "a registration success alone never confirms the choice",
      given: Given.failedSave + [.reconcile, .permissionChecked(.authorized)] + [
        .fetched(F.document(1, F.alerts, registered: true), hasLocalKey: false),
        .deviceTokenReceived(F.token),
      ], when: .registered(F.document(2, F.alerts, registered: true)), then: []
    ) { $0.saveError != nil && $0.unconfirmed == F.everything && $0.registration == .registered },
    Transition(
      "the error stays across network return with the load failing",
      given: Given.failedSave + [.reconcile],
      when: .fetchFailed(F.failure(.transportFailed)), then: []
    ) { $0.saveError?.code == .transportFailed && $0.unconfirmed == F.everything },
    Transition(
      "a demotion seen in a load re-filters the unconfirmed choice",
      given: Given.failedSave + [.reconcile, .permissionChecked(.authorized)],
      when: .fetched(F.document(1, F.alerts, admin: false, registered: true), hasLocalKey: true),
      then: []
    ) { $0.unconfirmed == F.alerts && $0.offersSecurity == false && $0.offersTasks == false },
  ]

  static let registrationRows: [Transition] = [
    Transition(
      "permission granted gets the token", given: Given.awaitingPermission,
      when: .permissionAnswered(.authorized), then: [.obtainDeviceToken]
    ) { $0.permission == .authorized && $0.registration == .registering },
    Transition(
      "permission refused leaves it to the system settings", given: Given.awaitingPermission,
      when: .permissionAnswered(.denied), then: []
    ) { $0.permission == .denied && $0.registration == .needsPermission },
    Transition(
      "a token registers at the confirmed revision", given: Given.awaitingToken,
      when: .deviceTokenReceived(F.token),
      then: [.register(expectedRevision: 1, deviceToken: F.token)]),
    Transition(
      "no token is a registration failure", given: Given.awaitingToken,
      when: .deviceTokenFailed(F.failure(.deviceTokenUnavailable)), then: []
    ) { $0.registration == .failed(F.failure(.deviceTokenUnavailable)) },
    Transition(
      "a registered answer at a newer revision confirms the registration",
      given: Given.awaitingRegistration,
      when: .registered(F.document(2, F.alerts, registered: true)), then: []
    ) { $0.registration == .registered && $0.confirmed?.revision == 2 && $0.canSendTest },
    Transition(
      "an answer that is not registered is not confirmed", given: Given.awaitingRegistration,
      when: .registered(F.document(2, F.alerts, registered: false)), then: []
    ) { $0.registration.failureCode == .registrationNotConfirmed },
    Transition(
      "an answer that went back in revision is not confirmed", given: Given.awaitingRegistration,
      when: .registered(F.document(0, F.alerts, registered: true)), then: []
    ) { $0.confirmed?.revision == 1 && !$0.isRegistered },
    Transition(
      "a 409 on registration reloads", given: Given.awaitingRegistration,
      when: .registrationFailed(F.failure(.conflict)), then: [.fetch]),
    Transition(
      "a failed registration is shown", given: Given.awaitingRegistration,
      when: .registrationFailed(F.failure(.transportFailed)), then: []
    ) { $0.registration == .failed(F.failure(.transportFailed)) },
    Transition(
      "a failed registration is retried by the next reconcile",
      given: Given.awaitingRegistration + [
        .registrationFailed(F.failure(.transportFailed)), .reconcile,
        .permissionChecked(.authorized),
      ], when: .fetched(F.document(1, F.alerts), hasLocalKey: true), then: [.obtainDeviceToken]),
    Transition(
      "a reconcile during a registration does not start another",
      given: Given.awaitingRegistration + [.reconcile, .permissionChecked(.authorized)],
      when: .fetched(F.document(1, F.alerts), hasLocalKey: true), then: []
    ) { $0.registration == .registering },
    Transition(
      "a token arriving after notifications were turned off registers nothing",
      given: Given.awaitingToken + [.reconcile, .permissionChecked(.authorized)] + [
        .fetched(F.document(2, F.off), hasLocalKey: false)
      ], when: .deviceTokenReceived(F.token), then: []
    ) { $0.registration == .notRegistered },
  ]

  static let all = sessionRows + loadRows + saveRows + failureVisibilityRows + registrationRows

  @Test(arguments: all)
  func transition(_ row: Transition) {
    var machine = NotificationSettingsMachine()
    for event in row.given { _ = machine.handle(event) }
    let actions = machine.handle(row.when)
    #expect(actions == row.then, "\(row.name)")
    #expect(row.check(machine.state), "\(row.name): \(machine.state)")
  }

  @Test func filteringFollowsTheServersFlags() {
    let member = Fixture.document(0, admin: false)
    #expect(NotificationSettingsMachine.filtered(Fixture.everything, for: member) == Fixture.alerts)
    let admin = Fixture.document(0)
    #expect(
      NotificationSettingsMachine.filtered(Fixture.everything, for: admin) == Fixture.everything)
  }
}

extension NotificationSettingsState {
  var isRegistered: Bool { registration == .registered }
}

extension PushRegistrationStatus {
  /// The failure's code, when failed.
  var failureCode: NotificationPreferencesError.Code? {
    if case .failed(let failure) = self { return failure.code }
    return nil
  }
}
