import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

@Suite(.timeLimit(.minutes(5))) struct PersistenceTests {
  @Test func stateSurvivesARestartButPairCodesDoNot() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID())")
    var tokens: Harness.Tokens?
    var code = ""
    var serverID = ""
    var alertKey = ""
    do {
      let h = try Harness(directory: directory, keepDirectory: true)
      let id = await h.user("admin")
      tokens = await h.login("admin").1
      serverID = try #require(try h.simulator.createServers(count: 1).first)
      alertKey =
        await h.control(.post, "/alerts/fire", ["server_id": serverID])?["alert_key"]?.stringValue
        ?? ""
      code = await h.control(.post, "/users/\(id)/pair-code")?["code"]?.stringValue ?? ""
      _ = await h.control(.post, "/security-events", ["server_id": serverID])
    }
    let t = try #require(tokens)
    let h = try Harness(directory: directory)
    #expect(await h.devices(t.access).status == 200)
    let refreshed = await h.refresh(t.refresh)
    #expect(refreshed.status == 200)
    #expect(refreshed.data?["mobile_session_id"]?.stringValue == t.session)
    let access = try #require(Harness.tokens(refreshed)).access
    #expect(await h.send(.get, "/api/servers/\(serverID)", bearer: access).status == 200)
    #expect(await h.send(.get, "/api/alert-events/\(alertKey)", bearer: access).status == 200)
    let events = await h.send(.get, "/api/security/events", bearer: access)
    #expect(events.data?["items"]?[0]?["server_id"]?.stringValue == serverID)
    let redeem = await h.send(
      .post, "/api/mobile/auth/pair",
      json: ["code": code, "installation_id": "i", "device_name": "d"])
    #expect(redeem.message == "Bad request: Invalid pairing code")
    let version = try h.simulator.core.db.scalar("PRAGMA user_version").int
    #expect(version == Int64(Schema.migrations.count))
    let journal = try h.simulator.core.db.scalar("PRAGMA journal_mode").text
    #expect(journal == "wal")
  }

  @Test func ensureServersCreatesOnlyTheMissingNames() async throws {
    let h = try Harness()
    #expect(try h.simulator.ensureServers(count: 2).count == 2)
    #expect(try h.simulator.ensureServers(count: 2).isEmpty)
    #expect(try h.simulator.ensureServers(count: 3).count == 1)
    let names = try h.simulator.core.db.query("SELECT name FROM servers ORDER BY name")
      .compactMap { $0["name"].text }
    #expect(names == ["server-1", "server-2", "server-3"])
  }

  @Test func refreshTokensAreStoredOnlyAsDigests() async throws {
    let h = try Harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    let rows = try h.simulator.core.db.query(
      "SELECT refresh_hash, revocation_hash FROM mobile_sessions")
    #expect(rows.count == 1)
    #expect(rows[0]["refresh_hash"].text == SHA256.hex(t.refresh))
    #expect(rows[0]["refresh_hash"].text != t.refresh)
  }
}

@Suite struct RandomnessSeamTests {
  @Test func injectedRandomnessMakesIdentifiersDeterministic() async throws {
    func run() async throws -> String {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID())")
      defer { try? FileManager.default.removeItem(at: directory) }
      let counter = Counter()
      let simulator = try Simulator(
        configuration: .init(dataDirectory: directory), clock: SimulatorClock(start: Date()),
        random: { count in counter.next(count) })
      return try simulator.createUser(username: "a", password: "b")
    }
    #expect(try await run() == run())
  }
}

/// Counting "randomness" for the seam test.
private final class Counter: @unchecked Sendable {
  // Safety: used from one test task at a time (the simulator calls it synchronously).
  private var value: UInt8 = 0
  func next(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in
      value &+= 1
      return value
    }
  }
}
