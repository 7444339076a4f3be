import Foundation
import ServerBeeModels
import Testing

@Suite struct ServersResponseTests {
  @Test func serverListDecodesEveryField() throws {
    let servers = try APIResponse<[ServerResponse]>.payload(
      status: 200, body: Fixtures.data("servers/servers.json"))
    #expect(servers.count == 2)
    let full = servers[0]
    #expect(full.id == "c2f1a7de-5b0e-4f51-9d7c-2f4a8e61b3c0")
    #expect(full.cpuCores == 4)
    #expect(full.cpuArch == "x86_64")
    #expect(full.memTotal == 8_589_934_592)
    #expect(full.geoManual == false)
    #expect(full.weight == 10)
    #expect(full.price == 5.99)
    #expect(full.expiredAt == (try RFC3339Timestamp(parsing: "2027-01-01T00:00:00Z")))
    #expect(full.trafficLimit == 1_099_511_627_776)
    #expect(full.billingStartDay == 1)
    #expect(full.capabilities == .defaultMask)
    #expect(full.agentLocalCapabilities == Capabilities(rawValue: 1854))
    #expect(full.temporary.first?.cap == "exec")
    #expect(full.protocolVersion == 3)
    #expect(full.createdAt.nanoseconds == 123_456_789)

    let sparse = servers[1]
    #expect(sparse.name == "新加坡-BGP-000")
    #expect(sparse.cpuName == nil)
    #expect(sparse.price == nil)
    #expect(sparse.expiredAt == nil)
    #expect(sparse.hidden)
    #expect(sparse.agentLocalCapabilities == nil)
    #expect(sparse.agentAuthority.outstandingOffer?.codePrefix == "sb_enr_6c3u")
    #expect(sparse.outstandingEnrollment == sparse.agentAuthority.outstandingOffer)
  }

  @Test func serverListReencodesToTheSameBytes() throws {
    let path = "servers/servers.json"
    #expect(
      try Fixtures.reencoded(APIResponse<[ServerResponse]>.self, path) == Fixtures.text(path))
  }

  @Test func resolvedCapabilitiesFollowTheFallbackRule() {
    let configured = Capabilities([.terminal, .exec, .docker])
    #expect(
      Capabilities.resolved(configured: configured, agentLocal: [.exec], effective: [.terminal])
        == [.terminal])
    #expect(
      Capabilities.resolved(configured: configured, agentLocal: [.exec, .file], effective: nil)
        == [.exec])
    #expect(
      Capabilities.resolved(configured: configured, agentLocal: nil, effective: nil) == configured)
  }

  @Test func resolvedCapabilitiesOfDecodedServers() throws {
    let servers = try APIResponse<[ServerResponse]>.payload(
      status: 200, body: Fixtures.data("servers/servers.json"))
    #expect(servers[0].resolvedCapabilities == .defaultMask)
    #expect(!servers[0].resolvedCapabilities.contains(.terminal))
    #expect(servers[1].resolvedCapabilities == .defaultMask)
  }

  @Test func capabilityBitsMatchTheContract() {
    let bits: [(Capabilities, UInt32)] = [
      (.terminal, 1), (.exec, 2), (.upgrade, 4), (.pingICMP, 8), (.pingTCP, 16), (.pingHTTP, 32),
      (.file, 64), (.docker, 128), (.securityEvents, 256), (.firewallBlock, 512),
      (.ipQuality, 1024),
    ]
    for (capability, raw) in bits { #expect(capability.rawValue == raw) }
    #expect(Capabilities.all.rawValue == 2047)
    #expect(
      Capabilities.defaultMask
        == [.upgrade, .pingICMP, .pingTCP, .pingHTTP, .securityEvents, .firewallBlock, .ipQuality])
  }

  @Test func unknownCapabilityBitsSurviveARoundTrip() throws {
    let decoded = try WireJSON.decode(Capabilities.self, from: Data("4097".utf8))
    #expect(decoded.contains(.terminal))
    #expect(!decoded.contains(.docker))
    #expect(decoded.rawValue == 4097)
    #expect(String(decoding: try WireJSON.encode(decoded), as: UTF8.self) == "4097")
  }

  @Test func serverMissingCreatedAtThrowsNamingTheField() throws {
    let body = try Fixtures.text("servers/servers.json")
      .replacingOccurrences(of: #","created_at":"2026-03-28T09:31:43Z""#, with: "")
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<[ServerResponse]>.payload(status: 200, body: Data(body.utf8))
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("data[1].created_at"))
  }

  @Test func serverGroupsDecodeAndReencode() throws {
    let path = "servers/server_groups.json"
    let groups = try APIResponse<[ServerGroup]>.payload(status: 200, body: Fixtures.data(path))
    #expect(groups.map(\.name) == ["Production", "测试"])
    #expect(groups[0].weight == 10)
    #expect(groups[1].createdAt == (try RFC3339Timestamp(parsing: "2026-02-01T00:00:00Z")))
    #expect(try Fixtures.reencoded(APIResponse<[ServerGroup]>.self, path) == Fixtures.text(path))
  }

  @Test func notFoundIsATypedFailure() throws {
    let body = Data(#"{"error":{"code":"NOT_FOUND","message":"Not found: Server not found"}}"#.utf8)
    let failure = try #require(throws: APIFailure.self) {
      try APIResponse<ServerResponse>.payload(status: 404, body: body)
    }
    #expect(failure.kind == .notFound)
  }
}

/// `GET /api/servers` rows from an older or newer server never fail the list.
@Suite struct ServerResponseToleranceTests {
  static let minimal = #"""
    {"id":"s1","name":"vps-a","created_at":"2026-05-20T10:00:00Z",
     "updated_at":"2026-05-20T10:00:00Z"}
    """#

  @Test func aRowNeedsOnlyIDNameAndTimesAndTheRestTakesItsDefaults() throws {
    let row = try WireJSON.decode(ServerResponse.self, from: Data(Self.minimal.utf8))
    #expect(row.id == "s1" && row.name == "vps-a")
    #expect(row.memTotal == nil && row.cpuCores == nil && row.countryCode == nil)
    #expect(row.weight == 0 && !row.hidden && row.features.isEmpty && row.temporary.isEmpty)
    #expect(row.capabilities == .defaultMask && row.protocolVersion == 0 && !row.hasToken)
    #expect(row.agentAuthority == AgentAuthority(status: .unclaimed))
  }

  @Test func legacyAliasesAreReadAndWinOverTheCurrentKeys() throws {
    let json = #"""
      {"id":"s1","name":"a","memory_total":8,"mem_total":4,"country":"DE","country_code":"FR",
       "created_at":"2026-05-20T10:00:00Z","updated_at":"2026-05-20T10:00:00Z"}
      """#
    let row = try WireJSON.decode(ServerResponse.self, from: Data(json.utf8))
    #expect(row.memTotal == 8 && row.countryCode == "DE")
  }

  @Test func aRowWithoutANameStillFailsAsTheContractSays() {
    let json =
      #"{"id":"s1","created_at":"2026-05-20T10:00:00Z","updated_at":"2026-05-20T10:00:00Z"}"#
    #expect(throws: (any Error).self) {
      _ = try WireJSON.decode(ServerResponse.self, from: Data(json.utf8))
    }
  }
}
