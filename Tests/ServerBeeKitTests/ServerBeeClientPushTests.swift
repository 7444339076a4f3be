import Foundation
import ServerBeeKit
import ServerBeeRelay
import ServerBeeSimulator
import Testing

/// The facade's push half as an integrator uses it: enable notifications (server-confirmed),
/// send a test and follow it to `accepted`, against the simulator and a real relay on loopback.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeClientPushTests {
  /// A real relay with a scripted provider, and a simulator that delivers through it, with the
  /// admin `ada` (password `pw`).
  struct PushWorld {
    let provider = ScriptedPushProvider()
    let relay: RelayServer
    let simulator: Simulator
    let url: URL

    init() async throws {
      relay = RelayServer(provider: provider)
      let relay = relay
      let relayURL = try await Task(priority: .high) { try relay.start() }.value
      var configuration = Simulator.Configuration()
      configuration.metricsInterval = nil
      configuration.relayURL = relayURL.absoluteString
      let simulator = try Simulator(configuration: configuration)
      self.simulator = simulator
      try simulator.createUser(username: "ada", password: "pw", role: "admin")
      url = try await Task(priority: .high) { try simulator.start() }.value
    }

    func stop() {
      simulator.stop()
      relay.stop()
    }
  }

  @Test func enableThenSendATestThatTheProviderAccepts() async throws {
    let world = try await PushWorld()
    defer { world.stop() }
    let (provider, url) = (world.provider, world.url)

    let client = ServerBeeClient(
      store: InMemoryCredentialStore(), configuration: .init(deviceName: "Status board"))
    try await client.restore()
    _ = try await client.signIn(server: url.absoluteString, username: "ada", password: "pw")
    let state = try await client.notifications.enable(PushPreferences(enabled: true, alerts: true))
    #expect(state.registration == .registered && state.canSendTest)
    let revision = try #require(state.confirmed?.revision)
    var outcomes: [PushOutcome] = []
    for try await progress in await client.testPushes().send(expectedRevision: revision) {
      outcomes.append(progress.outcome)
    }
    #expect(outcomes.last == .accepted)
    #expect(provider.received().count == 1)
    _ = try await client.signOut()
  }

  /// An app's APNs wiring through the public facade alone: `.remoteNotifications` asks the
  /// system (here a recorder) for a token when notifications are enabled, the app delegate's
  /// callback hands it over with `deliverDeviceToken`, and the relay gets exactly that token in
  /// the APNs environment of the configuration.
  @Test func anAppDelegatesTokenIsTheOneTheRelayDeliversTo() async throws {
    let world = try await PushWorld()
    defer { world.stop() }
    let (provider, url) = (world.provider, world.url)

    let asked = Locked(0)
    let clientBox = Locked<ServerBeeClient?>(nil)
    let apnsToken = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
    // The system's `registerForRemoteNotifications()`: the app delegate answers later.
    let tokens = RemoteNotificationsDeviceTokenProvider(environment: .sandbox) {
      asked.withLock { $0 += 1 }
      let client = clientBox.withLock { $0 }
      Task { client?.deliverDeviceToken(apnsToken) }
    }
    let client = ServerBeeClient(
      store: InMemoryCredentialStore(),
      configuration: .init(deviceName: "Phone", apnsEnvironment: .sandbox),
      push: .remoteNotifications(tokens, authorization: AlwaysAuthorizedPushAuthorization()))
    clientBox.withLock { $0 = client }
    try await client.restore()
    _ = try await client.signIn(server: url.absoluteString, username: "ada", password: "pw")
    let state = try await client.notifications.enable(PushPreferences(enabled: true, alerts: true))
    #expect(state.registration == .registered)
    #expect(asked.withLock { $0 } == 1)
    let revision = try #require(state.confirmed?.revision)
    for try await _ in await client.testPushes().send(expectedRevision: revision) {}
    let delivered = try #require(provider.received().first)
    #expect(delivered.request.deviceToken == apnsToken.map { String(format: "%02x", $0) }.joined())
    #expect(delivered.request.environment == .sandbox)
    // The facade hands out the same token (asking the system again, as APNs wants).
    let again = try await client.pushDeviceToken()
    #expect(again.hex == delivered.request.deviceToken && again.environment == .sandbox)
    #expect(asked.withLock { $0 } == 2)
    _ = try await client.signOut()
  }

  /// A failed APNs registration reaches the settings state as a registration failure instead
  /// of hanging the enable.
  @Test func anAppDelegatesRegistrationFailureEndsTheWait() async throws {
    struct NoAPNs: Error {}
    let clientBox = Locked<ServerBeeClient?>(nil)
    let tokens = RemoteNotificationsDeviceTokenProvider(environment: .production) {
      let client = clientBox.withLock { $0 }
      Task { client?.failDeviceTokenRegistration(NoAPNs()) }
    }
    let world = try await PushWorld()
    defer { world.stop() }
    let (provider, url) = (world.provider, world.url)
    let client = ServerBeeClient(
      store: InMemoryCredentialStore(), configuration: .init(deviceName: "Phone"),
      push: .remoteNotifications(tokens, authorization: AlwaysAuthorizedPushAuthorization()))
    clientBox.withLock { $0 = client }
    try await client.restore()
    _ = try await client.signIn(server: url.absoluteString, username: "ada", password: "pw")
    let state = try await client.notifications.enable(PushPreferences(enabled: true, alerts: true))
    guard case .failed(let failure) = state.registration else {
      Issue.record("the registration did not fail: \(state.registration)")
      return
    }
    #expect(!failure.message.isEmpty)
    #expect(provider.received().isEmpty)
  }
}
