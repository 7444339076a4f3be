import DeepLinkValidation
import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The router with a stub server and a fake session: buffering, consume once, account switch.
@Suite struct TapRouterTests {
  let http = StubHTTPTransport()
  let session = FakeSessionContext()
  let store = InMemoryCredentialStore()
  let identity: SessionIdentity
  let key: PushContentKey
  let router: TapRouter

  init() throws {
    identity = try Fix.identity()
    key = try Fix.key(for: identity)
    router = TapRouter(
      session: session, store: store, transport: http, now: { Fix.afterDeadline })
  }

  func signInAndStoreKey() throws {
    session.signIn(identity)
    try store.setValue(key, forKey: TapRouter.contentKeyName, in: .sharedWithExtension)
  }

  var alertPath: String { "/api/alert-events/" + Fix.alertKeyText }

  @Test func coldStartBuffersUntilReadyThenConsumesOnce() async throws {
    await router.receive(try Fix.tap(.alert, for: key))
    #expect(await router.consume() == nil)
    #expect(await router.hasPendingTap)
    try signInAndStoreKey()
    await router.markReady()
    await http.expect(.get, alertPath, reply: try Fix.reply(Fix.detail()))
    #expect(await router.consume() == .open(.alertDetail(Fix.detail())))
    #expect(await router.consume() == nil)
    #expect(await !router.hasPendingTap)
    await http.verifyAllConsumed()
  }

  @Test func nothingBufferedConsumesNothing() async throws {
    try signInAndStoreKey()
    await router.markReady()
    #expect(await router.consume() == nil)
    #expect(await http.received.isEmpty)
  }

  @Test func aLaterTapReplacesAnUnconsumedOne() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.alert, for: key))
    await router.receive(try Fix.tap(.test, for: key))
    await router.markReady()
    #expect(await router.consume() == .open(.home))
    #expect(await router.consume() == nil)
    #expect(await http.received.isEmpty)
  }

  @Test func noStoredKeyNeverLoads() async throws {
    session.signIn(identity)
    await router.receive(try Fix.tap(.alert, for: key))
    await router.markReady()
    #expect(await router.consume() == .unavailable(.noKey))
    #expect(await http.received.isEmpty)
  }

  @Test func aReplacementLoginNeverLoads() async throws {
    try signInAndStoreKey()
    session.signIn(try Fix.identity(loginID: "login-2"))
    await router.receive(try Fix.tap(.alert, for: key))
    await router.markReady()
    #expect(await router.consume() == .unavailable(.otherScope))
    #expect(await http.received.isEmpty)
  }

  @Test func legacyOnlyCallbackNeverLoads() async throws {
    try signInAndStoreKey()
    await router.receive(PushTap(apnsPayload: Data(#"{"server_id":"s1"}"#.utf8)))
    await router.markReady()
    #expect(await router.consume() == .unavailable(.legacyOnly))
    #expect(await http.received.isEmpty)
  }

  @Test func aDeletedAlertShowsAlertNotFound() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.alert, for: key))
    await router.markReady()
    await http.expect(
      .get, alertPath,
      reply: .json(404, #"{"error":{"code":"NOT_FOUND","message":"Not found: alert event"}}"#))
    #expect(await router.consume() == .unavailable(.alertNotFound))
    await http.verifyAllConsumed()
  }

  @Test func taskRunLoadsWithRunIDFilter() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.taskFailure, for: key))
    await router.markReady()
    let rows = [Fix.row(id: 1), Fix.row(id: 2)]
    await http.expect(.get, "/api/tasks/\(Fix.taskID)/results", reply: try Fix.reply(rows))
    #expect(
      await router.consume()
        == .open(.taskRunResults(taskID: Fix.taskID, runID: Fix.runID, results: rows)))
    let sent = try #require(await http.received.first)
    #expect(sent.url.query == "run_id=" + Fix.runID)
  }

  @Test func securityWalksTheChainInOrder() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.security, for: key))
    await router.markReady()
    await http.expect(.get, "/api/auth/me", reply: try Fix.reply(Fix.me(identity)))
    await http.expect(.get, "/api/servers/\(Fix.serverID)", reply: try Fix.reply(Fix.server()))
    await http.expect(
      .get, "/api/security/events/\(Fix.securityEventID)", reply: try Fix.reply(Fix.event()))
    await http.expect(.get, "/api/auth/me", reply: try Fix.reply(Fix.me(identity)))
    #expect(await router.consume() == .open(.securityEvent(Fix.event())))
    await http.verifyAllConsumed()
  }

  @Test func anAccountSwitchMidLoadDiscardsTheAnswer() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.alert, for: key))
    await router.markReady()
    let gate = Gate()
    await http.expect(.get, alertPath) { _ in
      await gate.wait()
      return try Fix.reply(Fix.detail())
    }
    let consuming = Task { await router.consume() }
    await gate.waitForArrivals(1)
    session.signIn(try Fix.identity(user: "bob"))
    await gate.open()
    #expect(await consuming.value == .unavailable(.accountChanged))
    #expect(await router.consume() == nil)
  }

  @Test func anAccountSwitchMidSecurityChainStopsBeforeTheNextRequest() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.security, for: key))
    await router.markReady()
    let gate = Gate()
    await http.expect(.get, "/api/auth/me") { _ in
      await gate.wait()
      return try Fix.reply(Fix.me(identity))
    }
    let consuming = Task { await router.consume() }
    await gate.waitForArrivals(1)
    session.signOut()
    await gate.open()
    #expect(await consuming.value == .unavailable(.accountChanged))
    #expect(await http.received.count == 1)
  }

  @Test func aCancelledLoadOpensNothing() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.alert, for: key))
    await router.markReady()
    let gate = Gate()
    await http.expect(.get, alertPath) { _ in
      await gate.wait()
      return try Fix.reply(Fix.detail())
    }
    let consuming = Task { await router.consume() }
    await gate.waitForArrivals(1)
    consuming.cancel()
    await gate.open()
    #expect(await consuming.value == .unavailable(.cancelled))
    #expect(await router.consume() == nil)
  }

  @Test func concurrentConsumesHandleTheTapOnce() async throws {
    try signInAndStoreKey()
    await router.receive(try Fix.tap(.test, for: key))
    await router.markReady()
    async let first = router.consume()
    async let second = router.consume()
    let outcomes = await [first, second]
    #expect(outcomes.compactMap { $0 } == [.open(.home)])
  }
}
