import Foundation
import ServerBeeKit
import ServerBeeRelay
import ServerBeeSimulator
import ServerBeeTestSupport
import Testing

/// The facade's push half as an integrator uses it: enable notifications (server-confirmed),
/// send a test and follow it to `accepted`, against the simulator and a real relay on loopback.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeClientPushTests {
  @Test func enableThenSendATestThatTheProviderAccepts() async throws {
    let provider = ScriptedPushProvider()
    let relay = RelayServer(provider: provider)
    let relayURL = try await Task(priority: .high) { try relay.start() }.value
    defer { relay.stop() }
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    configuration.relayURL = relayURL.absoluteString
    let simulator = try Simulator(configuration: configuration)
    try simulator.createUser(username: "ada", password: "pw", role: "admin")
    let url = try await Task(priority: .high) { try simulator.start() }.value
    defer { simulator.stop() }

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
}
