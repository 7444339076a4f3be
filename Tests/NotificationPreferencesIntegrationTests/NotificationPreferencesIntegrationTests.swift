import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeRelay
import ServerBeeRoutes
import ServerBeeSimulator
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

@Suite(.timeLimit(.minutes(5))) struct NotificationPreferencesIntegrationTests {
  @Test func enablePermissionRegisterTestAccepted() async throws {
    let world = try await PushWorld()
    await world.client.reconcile()
    #expect(world.authorization.prompts == 0)
    #expect(world.client.state.confirmed?.revision == 0)

    let state = try await world.client.enable(PushPreferences(enabled: true, alerts: true))
    #expect(world.authorization.prompts == 1)
    #expect(state.registration == .registered)
    #expect(state.canSendTest)
    let revision = try #require(state.confirmed?.revision)
    #expect(revision == 2)
    let key = try #require(world.storedKey)
    #expect(key.deploymentID == PushWorld.server)
    #expect(key.userID == world.userID)

    world.provider.enqueue(.accepted)
    let status = try await world.sendTest(revision: revision)
    #expect(status.outcome == .accepted)
    let received = world.provider.received()
    #expect(received.count == 1)
    let token = try await LocalRelayDeviceTokenProvider(store: world.store).deviceToken()
    #expect(received.first?.deviceToken == token.hex)
  }

  /// The trackers poll on a manual clock: the test runs the server's outbox, then lets the
  /// tracker read again, so what it observes never depends on how fast the machine is.
  static let pollInterval = Duration.seconds(2)

  func tracker(_ world: PushWorld, clock: ManualClock) -> TestPushTracker {
    TestPushTracker(
      transport: world.wire, session: world.session, store: world.store,
      pollInterval: Self.pollInterval, maximumSendAttempts: 3, clock: clock, makeUUID: { UUID() })
  }

  /// Runs the outbox once the tracker reported `pending`, then wakes its next poll.
  func deliver(_ world: PushWorld, clock: ManualClock) async throws {
    _ = try await world.simulator.runOutbox()
    await clock.waitForSleepers(1)
    clock.advance(by: Self.pollInterval)
  }

  @Test func theTrackerFollowsARealTestFromQueuedToAccepted() async throws {
    let world = try await PushWorld()
    let state = try await world.client.enable(PushPreferences(enabled: true, alerts: true))
    let revision = try #require(state.confirmed?.revision)
    world.provider.enqueue(.accepted)
    let clock = ManualClock()
    let tracker = tracker(world, clock: clock)
    var lines: [String] = []
    for try await progress in await tracker.send(expectedRevision: revision) {
      lines.append(progress.statusLine(.english))
      if progress.outcome == .pending { try await deliver(world, clock: clock) }
    }
    #expect(
      lines == [
        "Encrypted test queued on the Server. Provider acceptance is pending.",
        "APNs accepted the notification. Device presentation has not been observed.",
      ])
    #expect(world.provider.received().count == 1)
    #expect(await tracker.resume() == nil, "a finished test is not resumed")
  }

  @Test func aLostTestReplyIsRetriedWithTheSameIDAndTheServerKeepsOneJob() async throws {
    let world = try await PushWorld()
    let state = try await world.client.enable(PushPreferences(enabled: true, alerts: true))
    let revision = try #require(state.confirmed?.revision)
    await world.wire.loseNextResponse(.post, RouteCatalogue.Push.sendTest.template.text)
    let clock = ManualClock()
    let tracker = tracker(world, clock: clock)
    let progress = await tracker.send(expectedRevision: revision)
    // The first reply is lost: the tracker waits one interval, then posts the same id again.
    await clock.waitForSleepers(1)
    clock.advance(by: Self.pollInterval)
    var outcomes: [PushOutcome] = []
    for try await step in progress {
      outcomes.append(step.outcome)
      if step.outcome == .pending { try await deliver(world, clock: clock) }
    }
    #expect(outcomes == [.pending, .accepted])
    #expect(
      await world.wire.count(RouteCatalogue.Push.sendTest.template.text) == 2,
      "posted twice, same id")
    #expect(world.provider.received().count == 1, "one job on the server, one delivery")
  }

  @Test func aRestartInTheMiddleOfATestResumesTheSameOne() async throws {
    let world = try await PushWorld()
    let state = try await world.client.enable(PushPreferences(enabled: true, alerts: true))
    let revision = try #require(state.confirmed?.revision)
    // The first tracker's clock never moves: after its first status it polls no more.
    let first = tracker(world, clock: ManualClock())
    var iterator = await first.send(expectedRevision: revision).makeAsyncIterator()
    let admitted = try #require(try await iterator.next())
    #expect(admitted.outcome == .pending)
    // The app is killed here; a new process builds a new tracker over the same store.
    let second = tracker(world, clock: ManualClock())
    #expect(await second.storedEventID == admitted.eventID)
    _ = try await world.simulator.runOutbox()
    var resumed: [TestPushTracker.Progress] = []
    for try await progress in try #require(await second.resume()) { resumed.append(progress) }
    #expect(resumed.map(\.outcome) == [.accepted])
    #expect(resumed.allSatisfy { $0.eventID == admitted.eventID }, "the same test, no new one")
    #expect(
      await world.wire.count(RouteCatalogue.Push.sendTest.template.text) == 1,
      "resuming never posts again")
  }

  static let verdicts: [(ProviderAnswer, PushOutcome)] = [
    (.accepted, .accepted), (.unregistered, .permanent), (.badDeviceToken, .permanent),
    (.rateLimited, .retryable), (.networkFailure, .retryable),
  ]

  @Test(arguments: 0..<verdicts.count)
  func theRelaysVerdictIsShown(_ index: Int) async throws {
    let (answer, outcome) = Self.verdicts[index]
    let world = try await PushWorld()
    let state = try await world.client.enable()
    world.provider.enqueue(answer)
    let status = try await world.sendTest(revision: try #require(state.confirmed?.revision))
    #expect(status.outcome == outcome)
  }

  @Test func aDemotedAdminsDisableClearsTheAdminCategories() async throws {
    let world = try await PushWorld()
    let everything = PushPreferences(
      enabled: true, alerts: true, security: true, taskFailure: true, taskSuccess: true)
    try await world.client.enable(everything)
    #expect(world.client.state.confirmedPreferences == everything)
    try await world.setRole("member")
    await world.client.reconcile()
    #expect(!world.client.state.offersSecurity && !world.client.state.offersTasks)
    #expect(world.client.state.confirmedPreferences.security)  // stored as saved
    try await world.client.disable()
    let stored = try await world.serverSettings()
    #expect(stored.preferences == PushPreferences(enabled: false, alerts: true))
    #expect(world.storedKey == nil)
  }

  @Test func disableClearsTheKey() async throws {
    let world = try await PushWorld()
    try await world.client.enable()
    #expect(world.storedKey != nil)
    try await world.client.disable()
    #expect(world.storedKey == nil)
    #expect(try await world.serverSettings().registered == false)
  }

  @Test func signingOutRemovesTheKey() async throws {
    let world = try await PushWorld()
    try await world.client.enable()
    #expect(world.storedKey != nil)
    var states = world.client.states().makeAsyncIterator()
    world.session.signOut()
    while let state = await states.next(), state.isSignedIn {}
    #expect(world.storedKey == nil)
  }

  @Test func aReplacementLoginGetsANewKeyOfItsOwnScope() async throws {
    let world = try await PushWorld()
    try await world.client.enable()
    let old = try #require(world.storedKey)
    // The old login's logout (AuthSession) unregisters it, which releases the installation row.
    let unregister = try #require(URL(string: PushWorld.server + "/api/mobile/push/unregister"))
    #expect(try await world.wire.send(HTTPRequest(method: .post, url: unregister)).status == 200)
    let identity = try await world.signIn()
    await world.client.reconcile()
    #expect(world.storedKey == nil)  // the old scope's key is gone
    try await world.client.enable()
    let new = try #require(world.storedKey)
    #expect(new.scope == identity.scope && new.scope != old.scope)
    #expect(new.keyID != old.keyID)
    #expect(world.client.state.registration == .registered)
  }

  @Test func aLostPutResponseIsConfirmedByTheNextReconcile() async throws {
    let world = try await PushWorld()
    await world.client.reconcile()
    await world.wire.loseNextResponse(.put, RouteCatalogue.Push.settings.template.text)
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await world.client.enable(PushPreferences(enabled: true, alerts: true))
    }
    #expect(error?.code == .transportFailed)
    #expect(world.client.state.saveError?.code == .transportFailed)
    #expect(world.client.state.confirmedPreferences.enabled == false)
    #expect(world.authorization.prompts == 0)  // never asked before the server confirmed

    await world.client.reconcile()  // network return: the save had landed at revision 1
    let state = world.client.state
    #expect(state.saveError == nil && state.unconfirmed == nil)
    #expect(state.confirmed?.revision == 1 && state.confirmedPreferences.enabled)
  }

  @Test func aLostRegisterResponseIsRecoveredWithoutANewRevision() async throws {
    let world = try await PushWorld()
    await world.client.reconcile()
    await world.wire.loseNextResponse(.post, RouteCatalogue.Push.encryptedRegister.template.text)
    let state = try await world.client.enable()
    #expect(state.registration.isFailed)
    let key = try #require(world.storedKey)
    let revision = try #require(world.client.state.confirmed?.revision)
    // The settings name no key id, so the unconfirmed registration is sent again, identically:
    // the server keeps its revision (Protocol/Push.md §2.5).
    await world.client.reconcile()
    #expect(world.client.state.registration == .registered)
    #expect(world.storedKey == key)  // the same key, still registered
    #expect(await world.wire.count(RouteCatalogue.Push.encryptedRegister.template.text) == 2)
    #expect(world.client.state.confirmed?.revision == revision + 1)
    await world.client.reconcile()  // confirmed now: nothing is sent again
    #expect(await world.wire.count(RouteCatalogue.Push.encryptedRegister.template.text) == 2)
  }
}

extension PushRegistrationStatus {
  var isFailed: Bool {
    if case .failed = self { return true }
    return false
  }
}
