import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// The simulator's outbox against a real `serverbee-relay` over loopback HTTP (Protocol/Push.md §5,
/// Protocol/Relay.md): the outcome table end to end, a lost answer retried with the same event id,
/// a restart in the middle of an attempt, queued work stopped before anything is sent, and the
/// 30-minute expiry.
@Suite(.timeLimit(.minutes(5))) struct PushDeliveryTests {
  static let eventID = "33333333-3333-4333-8333-333333333333"

  /// A simulator in process whose relay is a real `RelayServer` on loopback with a scripted
  /// provider; both read the simulator's manual clock.
  struct World {
    let h: Harness
    let relay: RelayServer
    let provider: ScriptedPushProvider
    let device: PushDevice

    @discardableResult func pass() async throws -> Int { try await h.simulator.runOutbox() }

    func status() async -> JSONValue? {
      await h.testStatus(device.tokens.access, eventID: PushDeliveryTests.eventID).data
    }
  }

  func world(
    relayTimeout: TimeInterval = 5, providerTimeout: Duration = .seconds(5),
    directory: URL? = nil
  ) async throws -> World {
    let clock = SimulatorClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let relayClock = RelayClock(now: { Int64(clock.now.timeIntervalSince1970) })
    let provider = ScriptedPushProvider()
    let relay = RelayServer(
      configuration: .init(providerTimeout: providerTimeout), provider: provider,
      clock: relayClock)
    let url = try await Task(priority: .high) { try relay.start() }.value
    let h = try Harness(directory: directory, keepDirectory: directory != nil, clock: clock) {
      $0.relayURL = url.absoluteString
      $0.relayTimeout = relayTimeout
      $0.accessTTL = 7200
    }
    let device = try await h.pushDevice("admin")
    let sent = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    try #require(sent.status == 200)
    return World(h: h, relay: relay, provider: provider, device: device)
  }

  static let table: [(ProviderAnswer, String, String)] = [
    (.accepted, "accepted", "Accepted"),
    (.unregistered, "permanent", "Unregistered"),
    (.badDeviceToken, "permanent", "DeviceOrEnvironmentMismatch"),
    (.rejected(status: 403, reason: "BadTopic"), "permanent", "ProviderConfigurationOrPayload"),
    (.rateLimited, "retryable", "ProviderUnavailable"),
    (.serverError(status: 503), "retryable", "ProviderUnavailable"),
    (.networkFailure, "retryable", "NetworkUnavailable"),
    (.malformedReply, "retryable", "NetworkUnavailable"),
  ]

  @Test(arguments: 0..<table.count)
  func everyProviderAnswerEndsAsTheContractSays(_ index: Int) async throws {
    let (answer, outcome, reason) = Self.table[index]
    let w = try await world()
    defer { w.relay.stop() }
    w.provider.enqueue(answer)
    #expect(try await w.pass() == 1)
    let status = await w.status()
    #expect(status?["outcome"]?.stringValue == outcome)
    #expect(status?["reason"]?.stringValue == reason)
    let received = w.provider.received()
    #expect(received.count == 1)
    #expect(received.first?.eventID == Self.eventID)
    #expect(received.first?.deviceToken == w.device.deviceToken)
  }

  @Test func theDeviceReceivesAnEnvelopeItCanOpenAndRender() async throws {
    let w = try await world()
    defer { w.relay.stop() }
    try await w.pass()
    let delivery = try #require(w.provider.received().first)
    let opened = try PushEnvelopeOpener(now: { w.h.clock.now }).open(
      apnsPayload: delivery.payload, with: w.device.key, for: .delivery)
    #expect(opened.content.kind == .test)
    let english = PushNotificationRenderer(language: .english).render(opened)
    #expect(english.title == "Test notification")
    #expect(english.body == "Your encrypted ServerBee notification is ready.")
    let chinese = PushNotificationRenderer(language: .simplifiedChinese).render(opened)
    #expect(chinese.title == "测试通知")
  }

  @Test func unregisteredFromTheRelayClearsTheStoredToken() async throws {
    let w = try await world()
    defer { w.relay.stop() }
    w.provider.enqueue(.unregistered)
    try await w.pass()
    let settings = try #require(await w.h.settings(w.device.tokens.access).data)
    #expect(settings["registered"]?.boolValue == false)
    #expect(settings["revision"]?.numberValue == 3)
  }

  @Test func aRelayThatDoesNotAnswerIsRetryableRelayUnavailable() async throws {
    let w = try await world()
    w.relay.stop()
    try await w.pass()
    #expect(await w.status()?["reason"]?.stringValue == "RelayUnavailable")
  }

  @Test func aLostAnswerIsRetriedWithTheSameEventID() async throws {
    let w = try await world(relayTimeout: 0.3)
    defer { w.relay.stop() }
    // The relay accepts, but only after the simulator gave up waiting: an ambiguous failure.
    w.provider.enqueue(ScriptedAnswer.delayed(.accepted, by: .seconds(1)))
    try await w.pass()
    #expect(await w.status()?["outcome"]?.stringValue == "retryable")
    await w.provider.waitUntilReceived(count: 1)
    w.h.clock.advance(by: 4)
    try await w.pass()
    #expect(await w.status()?["outcome"]?.stringValue == "accepted")
    let bodies = w.provider.received().map(\.body)
    #expect(bodies.count == 2)
    #expect(bodies.first == bodies.last, "the same request, the same event id, both times")
    #expect(w.provider.received().allSatisfy { $0.eventID == Self.eventID })
  }

  @Test func aRestartInTheMiddleOfAnAttemptResendsTheSameJobOnce() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "delivery-restart-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let w = try await world(directory: directory)
    defer { w.relay.stop() }
    w.provider.enqueue(ScriptedAnswer.held(.accepted))
    let first = Task { try await w.h.simulator.runOutbox() }
    await w.provider.waitUntilReceived(count: 1)
    // The first simulator lets go of the directory while its attempt still waits for the relay
    // (as a crashed process does), and a second one opens the same database: the stale lease
    // is released and the job is sent again. (A live owner keeps the directory to itself.)
    w.h.simulator.stop()
    let restarted = try Harness(directory: directory, keepDirectory: true, clock: w.h.clock) {
      $0.relayURL = w.h.simulator.core.usableRelayURL
      $0.accessTTL = 7200
    }
    #expect(try await restarted.simulator.runOutbox() == 1)
    w.provider.release()
    _ = try await first.value
    let status = await restarted.testStatus(w.device.tokens.access, eventID: Self.eventID)
    #expect(status.data?["outcome"]?.stringValue == "accepted")
    let sent = w.provider.received()
    #expect(sent.count == 2 && Set(sent.map(\.body)).count == 1)
    let row = try #require(
      try restarted.simulator.core.db.serial {
        try restarted.simulator.core.outboxRow(eventID: Self.eventID, installationID: "INST-1")
      })
    #expect(row.attempts == 2 && row.envelopeJSON == nil)
  }

  @Test func workStoppedByLogoutNeverReachesTheRelay() async throws {
    let w = try await world()
    defer { w.relay.stop() }
    _ = await w.h.send(.post, "/api/mobile/auth/logout", bearer: w.device.tokens.access)
    try await w.pass()
    #expect(w.relay.received().isEmpty)
    let row = try #require(await w.h.outbox().first)
    #expect(row["outcome"]?.stringValue == "permanent")
    #expect(row["reason"]?.stringValue == "Ineligible")
  }

  @Test func atExactlyThirtyMinutesNothingIsSentAndTheTestIsExpired() async throws {
    let w = try await world()
    defer { w.relay.stop() }
    w.h.clock.advance(by: 1800)
    try await w.pass()
    #expect(w.relay.received().isEmpty)
    #expect(await w.status()?["outcome"]?.stringValue == "expired")
  }

  @Test func aRetryJustBeforeTheDeadlineIsStillSentAndAcceptedByTheRelay() async throws {
    let w = try await world()
    defer { w.relay.stop() }
    w.provider.enqueue(.serverError(status: 500))
    try await w.pass()
    w.h.clock.advance(by: 1799)
    try await w.pass()
    #expect(await w.status()?["outcome"]?.stringValue == "accepted")
    #expect(w.relay.received().count == 2)
  }
}
