import Foundation
import ServerBeeKit
import ServerBeeSimulator
import Testing

/// The facade as an integrator uses it: sign in, list servers, watch the fleet, sign out —
/// against the simulator over loopback with the live transports.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeClientTests {
  func simulator() async throws -> (Simulator, URL) {
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    let simulator = try Simulator(configuration: configuration)
    try simulator.createUser(username: "ada", password: "pw", role: "admin")
    try simulator.createServers(count: 3)
    let url = try await Task(priority: .high) { try simulator.start() }.value
    return (simulator, url)
  }

  @Test func signInListWatchAndSignOutInAFewLines() async throws {
    let (simulator, url) = try await simulator()
    defer { simulator.stop() }
    let client = ServerBeeClient(
      store: InMemoryCredentialStore(), configuration: .init(deviceName: "Status board"))
    try await client.restore()
    let outcome = try await client.signIn(
      server: url.absoluteString, username: "ada", password: "pw")
    guard case .signedIn(let identity) = outcome else {
      Issue.record("not signed in: \(outcome)")
      return
    }
    #expect(identity.user.username == "ada")
    let servers = try await client.api().servers()
    #expect(servers.map(\.name).sorted() == ["server-1", "server-2", "server-3"])
    let fleet = try await client.watchFleet()
    let first = try await fleet.firstSync(timeout: .seconds(20))
    #expect(first.isSynchronized)
    #expect(Set(first.servers.map(\.name)) == Set(servers.map(\.name)))
    await fleet.stop()
    _ = try await client.signOut()
    #expect(client.state.identity == nil)
    #expect(throws: ServerBeeClientError.self) { _ = try client.api() }
  }

  @Test func beforeSigningInEveryCallSaysSoInASentence() async throws {
    let client = ServerBeeClient(
      store: InMemoryCredentialStore(), configuration: .init(deviceName: "Status board"))
    try await client.restore()
    do {
      _ = try await client.watchFleet()
      Issue.record("watchFleet worked without a login")
    } catch let error as any ServerBeeErrorProtocol {
      #expect(error.domainName == "ServerBeeKit" && error.codeName == "not_signed_in")
      #expect(error.localizedDescription == "No login is stored: sign in or pair first.")
    }
  }

  @Test func aWrongPasswordIsOneCatchableErrorWithAReadableSentence() async throws {
    let (simulator, url) = try await simulator()
    defer { simulator.stop() }
    let client = ServerBeeClient(
      store: InMemoryCredentialStore(), configuration: .init(deviceName: "Status board"))
    try await client.restore()
    do {
      _ = try await client.signIn(server: url.absoluteString, username: "ada", password: "nope")
      Issue.record("signed in with a wrong password")
    } catch let error as any ServerBeeErrorProtocol {
      #expect(error.httpStatus == 401)
      #expect(!error.localizedDescription.contains("could not be completed"))
      #expect(!error.localizedDescription.contains("nope"))
    }
  }
}
