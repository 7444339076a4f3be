import Foundation
import ServerBeeModels
import Testing

@testable import RealtimeStream

@Suite struct FleetStateTests {
  private func frame(_ text: String) throws -> LiveStreamMessage {
    try LiveFrameDecoder.decode(text)
  }

  private static func status(_ id: String, name: String, online: Bool = true) -> ServerStatus {
    ServerStatus(
      id: id, name: name, online: online, lastActive: 100, uptime: 5, cpu: 10, memUsed: 1,
      memTotal: 1000, swapUsed: 0, swapTotal: 50, diskUsed: 2, diskTotal: 2000, cpuName: "EPYC",
      os: "Debian 12", tags: ["web"])
  }

  private func synced(_ servers: [ServerStatus]) -> FleetState {
    var fleet = FleetState()
    fleet.apply(.fullSync(FullSync(servers: servers)))
    return fleet
  }

  @Test func aPartialUpdateMergesOnlyThePresentFields() throws {
    var fleet = synced([Self.status("a", name: "alpha")])
    let change = fleet.apply(
      try frame(
        #"{"type":"update","servers":[{"id":"a","name":"old-name","cpu":55.5,"mem_used":700}]}"#))
    #expect(change == .updated(ids: ["a"]))
    let server = try #require(fleet.server(id: "a"))
    #expect(server.cpu == 55.5)
    #expect(server.memUsed == 700)
    #expect(server.memTotal == 1000, "totals survive a partial frame")
    #expect(server.diskTotal == 2000)
    #expect(server.cpuName == "EPYC", "static facts survive")
    #expect(server.tags == ["web"])
    #expect(server.uptime == 5, "absent fields are not zeroed")
    #expect(server.name == "alpha", "the name in an update never overwrites the known name")
  }

  @Test func aNullFloatInAnUpdateBecomesNaNAndOthersStay() throws {
    var fleet = synced([Self.status("a", name: "alpha")])
    fleet.apply(
      try frame(#"{"type":"update","servers":[{"id":"a","name":"n","cpu":null,"load1":0.5}]}"#))
    let server = try #require(fleet.server(id: "a"))
    #expect(server.cpu?.isNaN == true)
    #expect(server.load1 == 0.5)
  }

  @Test func aRepeatedFullSyncReplacesEverything() throws {
    var fleet = synced([Self.status("a", name: "alpha"), Self.status("b", name: "beta")])
    fleet.apply(.fullSync(FullSync(servers: [Self.status("c", name: "gamma")])))
    #expect(fleet.servers.map(\.id) == ["c"])
    #expect(fleet.server(id: "a") == nil)
    fleet.apply(try frame(#"{"type":"full_sync","servers":[],"upgrades":[]}"#))
    #expect(fleet.servers.isEmpty)
    #expect(fleet.isSynchronized)
  }

  @Test func onlineAndOfflineFlipTheFlag() throws {
    var fleet = synced([Self.status("a", name: "alpha")])
    #expect(
      fleet.apply(try frame(#"{"type":"server_offline","server_id":"a"}"#)) == .changed(id: "a"))
    #expect(fleet.server(id: "a")?.online == false)
    fleet.apply(try frame(#"{"type":"server_online","server_id":"a"}"#))
    #expect(fleet.server(id: "a")?.online == true)
    #expect(fleet.apply(try frame(#"{"type":"server_online","server_id":"zzz"}"#)) == .none)
  }

  @Test func anUpdateForAnUnknownServerAddsIt() throws {
    var fleet = synced([Self.status("a", name: "alpha")])
    fleet.apply(try frame(#"{"type":"update","servers":[{"id":"new","name":"fresh","cpu":1.5}]}"#))
    #expect(fleet.servers.map(\.id) == ["a", "new"])
    #expect(fleet.server(id: "new")?.name == "fresh")
    #expect(fleet.server(id: "new")?.cpu == 1.5)
  }

  @Test func agentAuthorityCapabilitiesAndAgentInfoAreTracked() throws {
    var fleet = synced([Self.status("a", name: "alpha")])
    fleet.apply(
      try frame(
        #"{"type":"agent_authority_changed","server_id":"a","agent_authority":{"status":"claimed","outstanding_offer":null}}"#
      ))
    #expect(fleet.server(id: "a")?.hasToken == true)
    fleet.apply(
      try frame(
        #"{"type":"capabilities_changed","server_id":"a","capabilities":1852,"agent_local_capabilities":1852,"effective_capabilities":1852,"temporary":[]}"#
      ))
    #expect(fleet.capabilities["a"]?.capabilities.rawValue == 1852)
    fleet.apply(
      try frame(
        #"{"type":"agent_info_updated","server_id":"a","protocol_version":3,"agent_version":"1.4.0"}"#
      ))
    #expect(fleet.agents["a"]?.agentVersion == "1.4.0")
  }

  @Test func upgradeProgressAndResultsUpdateTheJob() throws {
    var fleet = FleetState()
    fleet.apply(
      try frame(
        #"{"type":"full_sync","servers":[],"upgrades":[{"server_id":"s1","job_id":"j1","target_version":"1.2.0","stage":"downloading","status":"running","error":null,"backup_path":null,"started_at":"2026-03-28T10:15:30Z","finished_at":null}]}"#
      ))
    fleet.apply(
      try frame(
        #"{"type":"upgrade_progress","server_id":"s1","job_id":"j1","target_version":"1.2.0","stage":"installing"}"#
      ))
    #expect(fleet.upgrades[0].stage == .installing)
    let received = RFC3339Timestamp(secondsSince1970: 1_774_700_000)
    fleet.apply(
      try frame(
        #"{"type":"upgrade_result","server_id":"s1","job_id":"j1","target_version":"1.2.0","status":"failed","stage":"verifying","error":"checksum","backup_path":null}"#
      ), receivedAt: received)
    #expect(fleet.upgrades[0].status == .failed)
    #expect(fleet.upgrades[0].error == "checksum")
    #expect(fleet.upgrades[0].finishedAt == received)
  }

  @Test func anUpdateNeverLetsAZeroCapacityOrAnAbsentKeyEraseWhatIsKnown() throws {
    var fleet = synced([
      ServerStatus(id: "a", name: "alpha", memTotal: 8, diskTotal: 100, os: "Debian", tags: ["x"])
    ])
    fleet.apply(
      try frame(
        #"{"type":"update","servers":[{"id":"a","name":"old","mem_total":0,"memory_used":3}]}"#))
    let server = try #require(fleet.server(id: "a"))
    #expect(server.name == "alpha")
    #expect(server.memTotal == 8)
    #expect(server.memUsed == 3)
    #expect(server.diskTotal == 100)
    #expect(server.os == "Debian")
    #expect(server.tags == ["x"])
  }

  @Test func eventsAndUnknownTypesChangeNothing() throws {
    var fleet = synced([Self.status("a", name: "alpha")])
    let before = fleet
    #expect(fleet.apply(try frame(#"{"type":"future_thing","server_id":"a"}"#)) == .none)
    #expect(fleet == before)
  }

  @Test func aSnapshotIsUnaffectedByLaterMerges() throws {
    let servers = (0..<100).map { Self.status("s\($0)", name: "n\($0)") }
    var fleet = synced(servers)
    let snapshot = fleet
    fleet.apply(try frame(#"{"type":"update","servers":[{"id":"s70","name":"n","cpu":99.0}]}"#))
    #expect(snapshot.server(id: "s70")?.cpu == 10)
    #expect(fleet.server(id: "s70")?.cpu == 99)
    #expect(Array(fleet.servers.map(\.id)) == servers.map(\.id))
  }
}
