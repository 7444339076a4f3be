import Foundation
import ServerBeeKit
import ServerBeeSimulator
import ServerBeeTestSupport
import Testing

/// `restore()` at launch: the sessions interrupted sign-ins left on the server go, without the
/// app doing anything but restoring.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeClientRestoreTests {
  static let server = "http://sim.test"

  private static func client(_ link: SimulatorLink, store: any CredentialStore)
    -> ServerBeeClient
  {
    ServerBeeClient(
      store: store, configuration: .init(deviceName: "Status board"),
      transports: .init(http: link, webSocket: FakeWebSocketTransport()))
  }

  @Test func aSessionLeftByASignInWhoseAnswerWasLostIsRevokedAtTheNextRestore() async throws {
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    let simulator = try Simulator(configuration: configuration)
    let userID = try simulator.createUser(username: "ada", password: "pw", role: "admin")
    let link = SimulatorLink(simulator)
    let store = InMemoryCredentialStore()

    // The server creates a session, the answer never arrives.
    let first = Self.client(link, store: store)
    try await first.restore()
    link.answerLost.withLock { _ = $0.insert("/api/mobile/auth/login") }
    await #expect(throws: AuthSessionError.self) {
      try await first.signIn(server: Self.server, username: "ada", password: "pw")
    }
    link.answerLost.withLock { $0.removeAll() }
    guard
      case .signedIn(let identity) = try await first.signIn(
        server: Self.server, username: "ada", password: "pw"),
      let ownSession = identity.mobileSessionID
    else {
      Issue.record("not signed in")
      return
    }
    #expect(try await link.sessionIDs(of: userID).count == 2, "one of them belongs to nobody")

    // The next launch: restoring is all the app does.
    let next = Self.client(link, store: store)
    let restored = try await next.restoreWithReport()
    #expect(restored.state == .signedIn(identity))
    guard case .cleaned(let revoked, let resolved)? = restored.signInSweep else {
      Issue.record("the sweep did not clean: \(String(describing: restored.signInSweep))")
      return
    }
    #expect(revoked == 1 && resolved == 1)
    #expect(try await link.sessionIDs(of: userID) == [ownSession])
    #expect(try await next.auth.pendingSignInAttempts().isEmpty)

    // Nothing recorded any more: a further launch sends no request for it.
    let again = try await Self.client(link, store: store).restoreWithReport()
    guard case .nothingPending? = again.signInSweep else {
      Issue.record("expected nothing pending, got \(String(describing: again.signInSweep))")
      return
    }
  }

  @Test func signedOutThereIsNoSweepToReport() async throws {
    let client = ServerBeeClient(
      store: InMemoryCredentialStore(), configuration: .init(deviceName: "Status board"),
      transports: .init(http: StubHTTPTransport(), webSocket: FakeWebSocketTransport()))
    let restored = try await client.restoreWithReport()
    #expect(restored.state == .signedOut)
    #expect(restored.signInSweep == nil && restored.pendingCleanups == nil)
  }
}
