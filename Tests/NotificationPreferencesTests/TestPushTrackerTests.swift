import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// The test-push tracker (Protocol/Push.md §2.6): persist before POST, the same UUID on a lost
/// reply, polling on the clock, 404 before vs after admission, restart resumes, login change
/// stops.
@Suite(.timeLimit(.minutes(5))) struct TestPushTrackerTests {
  static let id = "00000000-0000-4000-8000-000000000001"
  let http = StubHTTPTransport()
  let session = FakeSessionContext()
  let store = InMemoryCredentialStore()
  let clock = ManualClock()

  init() throws {
    session.signIn(try FakeSessionContext.identity(user: "ada"))
  }

  func tracker() -> TestPushTracker {
    TestPushTracker(
      transport: http, session: session, store: store, pollInterval: .seconds(2),
      maximumSendAttempts: 3, clock: clock,
      makeUUID: { UUID(uuidString: Self.id) ?? UUID() })
  }

  static func status(_ outcome: String, _ reason: String) -> HTTPResponse {
    .json(
      200,
      #"{"data":{"event_id":"\#(id)","outcome":"\#(outcome)","reason":"\#(reason)","presentation":"unobserved"}}"#
    )
  }

  /// Collects the stream while stepping the clock through every poll.
  func collect(_ stream: AsyncThrowingStream<TestPushTracker.Progress, any Error>) async
    -> (outcomes: [String], error: (any Error)?)
  {
    let clock = self.clock
    let stepper = Task {
      while !Task.isCancelled {
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
      }
    }
    defer { stepper.cancel() }
    var outcomes: [String] = []
    do {
      for try await progress in stream { outcomes.append(progress.outcome.rawValue) }
      return (outcomes, nil)
    } catch {
      return (outcomes, error)
    }
  }

  @Test func theTestIsStoredBeforeThePostThenPolledToAccepted() async throws {
    let store = self.store
    await http.expect(.post, "/api/mobile/push/test") { request in
      let stored = try store.value(
        TestPushTracker.Record.self, forKey: TestPushTracker.storeKey, in: .appPrivate)
      #expect(stored?.request.eventID == Self.id && stored?.admitted == false)
      let body = try WireJSON.decode(TestPushRequest.self, from: request.body)
      #expect(body == TestPushRequest(eventID: Self.id, expectedRevision: 2))
      return Self.status("pending", "Queued")
    }
    await http.expect(
      .get, "/api/mobile/push/test/\(Self.id)",
      reply: Self.status("retryable", "ProviderUnavailable"))
    await http.expect(
      .get, "/api/mobile/push/test/\(Self.id)", reply: Self.status("accepted", "Accepted"))
    let (outcomes, error) = await collect(await tracker().send(expectedRevision: 2))
    #expect(error == nil)
    #expect(outcomes == ["pending", "retryable", "accepted"])
    await http.verifyAllConsumed()
  }

  @Test func aLostReplyIsRetriedWithTheSameIDAndRevision() async throws {
    await http.expect(
      .post, "/api/mobile/push/test",
      throwing: ServerBeeTransportError(.connectionLost, "lost"))
    await http.expect(.post, "/api/mobile/push/test") { request in
      let body = try WireJSON.decode(TestPushRequest.self, from: request.body)
      #expect(body == TestPushRequest(eventID: Self.id, expectedRevision: 2))
      return Self.status("accepted", "Accepted")
    }
    let (outcomes, error) = await collect(await tracker().send(expectedRevision: 2))
    #expect(error == nil && outcomes == ["accepted"])
    let bodies = await http.received.map(\.body)
    #expect(bodies.count == 2 && bodies[0] == bodies[1])
  }

  @Test func a404BeforeAdmissionRePostsTheSameID() async throws {
    try store.setValue(
      TestPushTracker.Record(
        scope: try #require(session.currentIdentity?.scope),
        request: TestPushRequest(eventID: Self.id, expectedRevision: 2), admitted: false),
      forKey: TestPushTracker.storeKey, in: .appPrivate)
    // A restart before the first answer: the stored, never-confirmed test is posted again.
    await http.expect(.post, "/api/mobile/push/test", reply: Self.status("pending", "Queued"))
    await http.expect(
      .get, "/api/mobile/push/test/\(Self.id)",
      reply: .json(
        404, #"{"error":{"code":"NOT_FOUND","message":"Not found: Test notification unavailable"}}"#
      ))
    await http.expect(
      .get, "/api/mobile/push/test/\(Self.id)",
      reply: .json(
        404, #"{"error":{"code":"NOT_FOUND","message":"Not found: Test notification unavailable"}}"#
      ))
    let stream = try #require(await tracker().resume())
    let (outcomes, error) = await collect(stream)
    #expect(outcomes == ["pending"])
    let failure = try #require(error as? NotificationPreferencesError)
    #expect(failure.code == .testNotFound, "a 404 after admission is an error")
  }

  @Test func aRestartResumesTheSameTestWithoutANewPost() async throws {
    try store.setValue(
      TestPushTracker.Record(
        scope: try #require(session.currentIdentity?.scope),
        request: TestPushRequest(eventID: Self.id, expectedRevision: 2), admitted: true,
        lastOutcome: "pending"),
      forKey: TestPushTracker.storeKey, in: .appPrivate)
    await http.expect(
      .get, "/api/mobile/push/test/\(Self.id)", reply: Self.status("expired", "Expired"))
    let fresh = TestPushTracker(
      transport: http, session: session, store: store, pollInterval: .seconds(2),
      maximumSendAttempts: 3, clock: clock, makeUUID: { UUID() })
    #expect(await fresh.storedEventID == Self.id)
    let (outcomes, error) = await collect(try #require(await fresh.resume()))
    #expect(error == nil && outcomes == ["expired"])
    #expect(await fresh.resume() == nil, "a finished test is not resumed")
  }

  @Test func theLastTestIsReadAgainEvenWhenFinishedWithoutANewPost() async throws {
    try store.setValue(
      TestPushTracker.Record(
        scope: try #require(session.currentIdentity?.scope),
        request: TestPushRequest(eventID: Self.id, expectedRevision: 2), admitted: true,
        lastOutcome: "accepted"),
      forKey: TestPushTracker.storeKey, in: .appPrivate)
    await http.expect(
      .get, "/api/mobile/push/test/\(Self.id)", reply: Self.status("accepted", "Accepted"))
    let relaunched = TestPushTracker(
      transport: http, session: session, store: store, pollInterval: .seconds(2),
      maximumSendAttempts: 3, clock: clock, makeUUID: { UUID() })
    let (outcomes, error) = await collect(try #require(await relaunched.lastTest()))
    #expect(error == nil && outcomes == ["accepted"])
    #expect(await http.requests(to: "/api/mobile/push/test").isEmpty, "no new test is posted")
    await http.verifyAllConsumed()
  }

  @Test func aTestWhoseFirstAnswerWasLostIsPostedAgainWithTheSameIDByLastTest() async throws {
    await http.expect(
      .post, "/api/mobile/push/test", throwing: ServerBeeTransportError(.connectionLost, "lost"))
    await http.expect(
      .post, "/api/mobile/push/test", throwing: ServerBeeTransportError(.connectionLost, "lost"))
    await http.expect(
      .post, "/api/mobile/push/test", throwing: ServerBeeTransportError(.connectionLost, "lost"))
    let first = await collect(await tracker().send(expectedRevision: 2))
    let lost = try #require(first.error as? NotificationPreferencesError)
    #expect(lost.code == .transportFailed)
    await http.expect(.post, "/api/mobile/push/test") { request in
      let body = try WireJSON.decode(TestPushRequest.self, from: request.body)
      #expect(body == TestPushRequest(eventID: Self.id, expectedRevision: 2))
      return Self.status("accepted", "Accepted")
    }
    let relaunched = TestPushTracker(
      transport: http, session: session, store: store, pollInterval: .seconds(2),
      maximumSendAttempts: 3, clock: clock, makeUUID: { UUID() })
    let (outcomes, error) = await collect(try #require(await relaunched.lastTest()))
    #expect(error == nil && outcomes == ["accepted"])
  }

  @Test func withALimitFailedReadsInARowEndFollowingAndAReadInBetweenResetsTheCount()
    async throws
  {
    try store.setValue(
      TestPushTracker.Record(
        scope: try #require(session.currentIdentity?.scope),
        request: TestPushRequest(eventID: Self.id, expectedRevision: 2), admitted: true,
        lastOutcome: "pending"),
      forKey: TestPushTracker.storeKey, in: .appPrivate)
    let path = "/api/mobile/push/test/\(Self.id)"
    let refused = ServerBeeTransportError(.connectionLost, "connection refused")
    await http.expect(.get, path, throwing: refused)
    await http.expect(.get, path, reply: Self.status("retryable", "ProviderUnavailable"))
    await http.expect(.get, path, throwing: refused)
    await http.expect(.get, path, throwing: refused)
    let limited = TestPushTracker(
      transport: http, session: session, store: store, pollInterval: .seconds(2),
      maximumSendAttempts: 3, maximumFailedReads: 2, clock: clock, makeUUID: { UUID() })
    let (outcomes, error) = await collect(try #require(await limited.lastTest()))
    #expect(outcomes == ["retryable"])
    let failure = try #require(error as? NotificationPreferencesError)
    #expect(failure.code == .transportFailed)
    await http.verifyAllConsumed()
    #expect(await limited.storedEventID == Self.id, "the test stays stored for later")
  }

  @Test func withNoStoredTestLastTestIsNil() async {
    #expect(await tracker().lastTest() == nil)
  }

  @Test func anotherLoginNeverResumesOrFollowsThisTest() async throws {
    await http.expect(.post, "/api/mobile/push/test", reply: Self.status("pending", "Queued"))
    let tracker = tracker()
    let stream = await tracker.send(expectedRevision: 2)
    var iterator = stream.makeAsyncIterator()
    #expect(try await iterator.next()?.outcome == .pending)
    session.signIn(try FakeSessionContext.identity(user: "bob", loginID: "login-2"))
    // The tracker yields, then stores and sleeps: moving time before it sleeps would wake
    // nobody, and its poll would then wait for the clock forever.
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(2))
    await #expect(throws: NotificationPreferencesError.self) { _ = try await iterator.next() }
    #expect(await tracker.resume() == nil)
    #expect(await tracker.storedEventID == nil)
  }

  @Test func theStatusLinesSpeakBothLanguages() {
    let progress = TestPushTracker.Progress(eventID: Self.id, outcome: .accepted, reason: .accepted)
    #expect(progress.statusLine(.english).hasPrefix("APNs accepted the notification."))
    #expect(progress.statusLine(.simplifiedChinese).hasPrefix("APNs 已接受该通知"))
    #expect(progress.isFinal)
  }
}
