import Foundation
import ServerBeeKit
import ServerBeeSimulator
import Testing

/// The live fleet on an API key alone (a bot, a wallboard): `GET /api/servers` and the stream
/// both present `X-API-Key`, against the simulator over loopback.
@Suite(.timeLimit(.minutes(5))) struct LiveFleetAPIKeyTests {
  @Test func aKeyAloneWatchesTheFleetAndADeletedKeyIsRefused() async throws {
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    let simulator = try Simulator(configuration: configuration)
    try simulator.createUser(username: "ada", password: "pw", role: "admin")
    try simulator.createServers(count: 2)
    let url = try await Task(priority: .high) { try simulator.start() }.value
    defer { simulator.stop() }
    let server = try ServerURL(url.absoluteString)

    // An admin signs in once to make the key; the bot then needs nothing else.
    let admin = ServerBeeClient(
      store: InMemoryCredentialStore(), configuration: .init(deviceName: "Admin"))
    _ = try await admin.signIn(server: url.absoluteString, username: "ada", password: "pw")
    let record = try await admin.api().createAPIKey(name: "wallboard")
    let key = try APIKey(try #require(record.key))
    let transports = ServerBeeClient.Transports.platformDefault(.init(deviceName: "Wallboard"))

    let fleet = try await LiveFleet.watch(server: server, apiKey: key, transports: transports)
    let first = try await fleet.firstSync(timeout: .seconds(30))
    #expect(first.isSynchronized)
    #expect(Set(first.servers.map(\.name)) == ["server-1", "server-2"])
    await fleet.stop()

    try await admin.api().deleteAPIKey(id: record.id)
    let refused = await #expect(throws: ServerBeeAPIError.self) {
      _ = try await LiveFleet.watch(server: server, apiKey: key, transports: transports)
    }
    #expect(refused?.code == .apiKeyRejected)
    // A key is never refreshed.
    await #expect(throws: ServerBeeAPIError.self) {
      _ = try await key.accessToken(afterRejectionOf: key.text)
    }
    #expect(key.credentialHeaders(for: key.text)["x-api-key"] == key.text)
    #expect(key.credentialHeaders(for: key.text)["authorization"] == nil)
  }
}
