import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// Each call: exact method, path and query as sent, and the decoded result.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeAPIClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  // MARK: Servers

  @Test func serversListsTheConfiguration() async throws {
    await http.expect(.get, "/api/servers", reply: try Samples.reply([Samples.server]))
    #expect(try await api.servers() == [Samples.server])
    #expect(try await sut.onlyURL() == Samples.base + "/api/servers")
    let request = try #require(await http.received.first)
    #expect(request.headers["accept"] == "application/json")
    #expect(request.body.isEmpty)
    await http.verifyAllConsumed()
  }

  @Test func serverDetailPutsTheIDInThePath() async throws {
    await http.expect(.get, "/api/servers/s1", reply: try Samples.reply(Samples.server))
    #expect(try await api.server(id: "s1") == Samples.server)
    await http.verifyAllConsumed()
  }

  @Test func idsArePercentEncodedSoTheyCannotChangeTheRoute() async throws {
    await http.expect(.get, "/api/servers/a/b?c#d", reply: try Samples.reply(Samples.server))
    _ = try await api.server(id: "a/b?c#d")
    #expect(try await sut.onlyURL() == Samples.base + "/api/servers/a%2Fb%3Fc%23d")
    await http.verifyAllConsumed()
  }

  @Test func dotSegmentIDsAreEncoded() async throws {
    await http.expect(.get, "/api/servers/..", reply: try Samples.reply(Samples.server))
    _ = try await api.server(id: "..")
    #expect(try await sut.onlyURL() == Samples.base + "/api/servers/%2E%2E")
  }

  @Test func emptyIDsAreRefusedBeforeSending() async throws {
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.server(id: "")
    }
    #expect(error.code == .invalidArgument)
    #expect(await http.received.isEmpty)
  }

  @Test func recordsSendTheRangeInZuluFormAndTheInterval() async throws {
    await http.expect(.get, "/api/servers/s1/records", reply: try Samples.reply([Samples.record]))
    let from = try RFC3339Timestamp(parsing: "2027-01-15T10:00:00+00:00")
    let to = try RFC3339Timestamp(parsing: "2027-01-15T11:30:00.5+00:00")
    #expect(
      try await api.records(serverID: "s1", from: from, to: to, interval: .raw) == [Samples.record])
    #expect(
      try await sut.onlyURL()
        == Samples.base
        + "/api/servers/s1/records?from=2027-01-15T10:00:00Z&to=2027-01-15T11:30:00.500Z&interval=raw"
    )
    await http.verifyAllConsumed()
  }

  @Test func recordsDefaultToAuto() async throws {
    await http.expect(.get, "/api/servers/s1/records", reply: try Samples.reply([ServerRecord]()))
    let query = ServerRecordsQuery(from: Samples.time, to: Samples.time)
    #expect(try await api.records(serverID: "s1", query: query).isEmpty)
    #expect(try await sut.onlyURL().hasSuffix("&interval=auto"))
  }

  @Test func serverGroupsAreListed() async throws {
    await http.expect(.get, "/api/server-groups", reply: try Samples.reply([Samples.group]))
    #expect(try await api.serverGroups() == [Samples.group])
    await http.verifyAllConsumed()
  }

  // MARK: Alerts

  @Test func alertEventsSendTheLimit() async throws {
    await http.expect(.get, "/api/alert-events", reply: try Samples.reply([Samples.event]))
    #expect(try await api.alertEvents(limit: 50) == [Samples.event])
    #expect(try await sut.onlyURL() == Samples.base + "/api/alert-events?limit=50")
    await http.verifyAllConsumed()
  }

  @Test func alertEventsWithoutLimitLeaveItToTheServer() async throws {
    await http.expect(.get, "/api/alert-events", reply: try Samples.reply([AlertEvent]()))
    #expect(try await api.alertEvents().isEmpty)
    #expect(try await sut.onlyURL() == Samples.base + "/api/alert-events")
  }

  @Test func negativeAlertLimitIsRefused() async throws {
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.alertEvents(limit: -1)
    }
    #expect(error.code == .invalidArgument)
    #expect(await http.received.isEmpty)
  }

  @Test func alertDetailSendsAV1KeyUnchanged() async throws {
    let key = Samples.v1Key
    await http.expect(
      .get, "/api/alert-events/\(key)", reply: try Samples.reply(Samples.detail(key: key)))
    #expect(try await api.alertEvent(key: key) == Samples.detail(key: key))
    #expect(try await sut.onlyURL() == Samples.base + "/api/alert-events/" + key)
    await http.verifyAllConsumed()
  }

  @Test func alertDetailSendsALegacyKeyWithItsColon() async throws {
    await http.expect(
      .get, "/api/alert-events/rule-1:s1",
      reply: try Samples.reply(Samples.detail(key: "rule-1:s1")))
    let key = try AlertKey(legacyRuleID: "rule-1", serverID: "s1")
    #expect(try await api.alertEvent(key).alertKey == "rule-1:s1")
    #expect(try await sut.onlyURL() == Samples.base + "/api/alert-events/rule-1:s1")
  }

  @Test func alertRulesAndStatesAreRead() async throws {
    await http.expect(.get, "/api/alert-rules", reply: try Samples.reply([Samples.rule]))
    await http.expect(.get, "/api/alert-rules/rule-1", reply: try Samples.reply(Samples.rule))
    await http.expect(
      .get, "/api/alert-rules/rule-1/states", reply: try Samples.reply([Samples.ruleState]))
    #expect(try await api.alertRules() == [Samples.rule])
    #expect(try await api.alertRule(id: "rule-1").ruleTypes == ["cpu"])
    #expect(try await api.alertRuleStates(ruleID: "rule-1") == [Samples.ruleState])
    await http.verifyAllConsumed()
  }

  // MARK: Tasks

  @Test func tasksListOptionallyFiltersByType() async throws {
    await http.expect(.get, "/api/tasks", reply: try Samples.reply([Samples.task]))
    await http.expect(.get, "/api/tasks", reply: try Samples.reply([Samples.task]))
    #expect(try await api.tasks() == [Samples.task])
    #expect(try await api.tasks(type: .scheduled) == [Samples.task])
    let urls = await http.received.map(\.url.absoluteString)
    #expect(urls == [Samples.base + "/api/tasks", Samples.base + "/api/tasks?type=scheduled"])
    await http.verifyAllConsumed()
  }

  @Test func taskDetailAndResults() async throws {
    let rows = [Samples.result(id: 2, runID: "run-b"), Samples.result(id: 1, runID: "run-a")]
    await http.expect(.get, "/api/tasks/t1", reply: try Samples.reply(Samples.task))
    await http.expect(.get, "/api/tasks/t1/results", reply: try Samples.reply(rows))
    #expect(try await api.task(id: "t1") == Samples.task)
    #expect(try await api.taskResults(taskID: "t1") == rows)
    await http.verifyAllConsumed()
  }

  @Test func taskRunResultsSendRunID() async throws {
    let rows = [
      Samples.result(id: 2, runID: "run-a", server: "s2"), Samples.result(id: 1, runID: "run-a"),
    ]
    await http.expect(.get, "/api/tasks/t1/results", reply: try Samples.reply(rows))
    #expect(try await api.taskResults(taskID: "t1", runID: "run-a") == rows)
    #expect(try await sut.onlyURL() == Samples.base + "/api/tasks/t1/results?run_id=run-a")
    await http.verifyAllConsumed()
  }

  @Test func taskRunResultsFromAServerIgnoringRunIDAreServerTooOld() async throws {
    let rows = [Samples.result(id: 2, runID: "run-b"), Samples.result(id: 1, runID: "run-a")]
    await http.expect(.get, "/api/tasks/t1/results", reply: try Samples.reply(rows))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.taskResults(taskID: "t1", runID: "run-a")
    }
    #expect(error.code == .serverTooOld)
    #expect(error.httpStatus == 200)
  }

  // MARK: Security

  @Test func securityEventPageSendsFiltersInContractOrder() async throws {
    let page = SecurityEventPage(items: [Samples.securityEvent(id: "e1")], nextCursor: "abc")
    await http.expect(.get, "/api/security/events", reply: try Samples.reply(page))
    let query = SecurityEventQuery(
      serverID: "s1", eventType: .sshBruteForce, sourceIP: "2001:db8::1", severity: .high,
      since: try RFC3339Timestamp(parsing: "2027-01-15T10:00:00+01:00"), until: Samples.time,
      pageSize: 25)
    #expect(
      try await api.securityEventPage(query, cursor: "MjAyNy0wMS0xNVQxMDowMDowMFp8ZTE") == page)
    #expect(
      try await sut.onlyURL()
        == Samples.base
        + "/api/security/events?server_id=s1&event_type=ssh_brute_force&source_ip=2001:db8::1"
        + "&severity=high&since=2027-01-15T09:00:00Z&until=2027-01-15T08:00:00Z"
        + "&cursor=MjAyNy0wMS0xNVQxMDowMDowMFp8ZTE&limit=25")
    await http.verifyAllConsumed()
  }

  @Test func queryValuesEncodePlusAndReservedCharacters() async throws {
    await http.expect(
      .get, "/api/security/events", reply: try Samples.reply(SecurityEventPage(items: [])))
    _ = try await api.securityEventPage(cursor: "a+b/c=d&e")
    #expect(
      try await sut.onlyURL() == Samples.base + "/api/security/events?cursor=a%2Bb%2Fc%3Dd%26e")
  }

  @Test func securityEventDetailAndDelete() async throws {
    let event = Samples.securityEvent(id: "e1")
    await http.expect(.get, "/api/security/events/e1", reply: try Samples.reply(event))
    await http.expect(.delete, "/api/security/events/e1", reply: try Samples.reply(true))
    #expect(try await api.securityEvent(id: "e1") == event)
    try await api.deleteSecurityEvent(id: "e1")
    await http.verifyAllConsumed()
  }

  @Test func securityStatsSendGroupingAndFilters() async throws {
    let rows = [SecurityStatsEntry(key: "203.0.113.7", count: 9)]
    await http.expect(.get, "/api/security/stats", reply: try Samples.reply(rows))
    await http.expect(.get, "/api/security/stats", reply: try Samples.reply(rows))
    #expect(try await api.securityStats(groupedBy: .sourceIP) == rows)
    #expect(
      try await api.securityStats(
        groupedBy: .day, serverID: "s1", since: Samples.time, until: Samples.time, limit: 10)
        == rows)
    let urls = await http.received.map(\.url.absoluteString)
    #expect(
      urls == [
        Samples.base + "/api/security/stats?group_by=source_ip",
        Samples.base
          + "/api/security/stats?server_id=s1&since=2027-01-15T08:00:00Z"
          + "&until=2027-01-15T08:00:00Z&group_by=day&limit=10",
      ])
    await http.verifyAllConsumed()
  }

  // MARK: Account

  @Test func currentUserAndDevices() async throws {
    await http.expect(.get, "/api/auth/me", reply: try Samples.reply(Samples.user))
    await http.expect(.get, "/api/mobile/auth/devices", reply: try Samples.reply([Samples.device]))
    #expect(try await api.currentUser() == Samples.user)
    #expect(try await api.devices() == [Samples.device])
    await http.verifyAllConsumed()
  }

  @Test func revokeDeviceSendsDelete() async throws {
    await http.expect(.delete, "/api/mobile/auth/devices/d1", reply: .json(200, #"{"data":"ok"}"#))
    try await api.revokeDevice(id: "d1")
    let request = try #require(await http.received.first)
    #expect(request.method == .delete)
    #expect(request.body.isEmpty)
    await http.verifyAllConsumed()
  }

  static let pairCode = "sb_pair_" + String(repeating: "A", count: 43)

  @Test func createPairingCodePostsWithoutABodyAndBuildsTheQRText() async throws {
    await http.expect(
      .post, "/api/mobile/pair",
      reply: .json(200, #"{"data":{"code":"\#(Self.pairCode)","expires_in_secs":300}}"#))
    let pairing = try await api.createPairingCode()
    let request = try #require(await http.received.first)
    #expect(request.method == .post && request.body.isEmpty)
    #expect(try await sut.onlyURL() == Samples.base + "/api/mobile/pair")
    #expect(pairing.code == Self.pairCode)
    #expect(pairing.expiresInSeconds == 300)
    #expect(pairing.payload.server == api.server)
    #expect(
      pairing.qrText
        == #"{"type":"serverbee_pair","server_url":"\#(Samples.base)","code":"\#(Self.pairCode)"}"#)
    #expect(try PairingPayload(scanned: pairing.qrText) == pairing.payload)
    #expect(!"\(pairing)".contains(Self.pairCode), "the code is never printed")
    await http.verifyAllConsumed()
  }

  static let unusablePairingAnswers = [
    #"{"data":{"code":"","expires_in_secs":300}}"#,
    #"{"data":{"code":"sb_pair_x","expires_in_secs":0}}"#,
    #"{"data":{"expires_in_secs":300}}"#,
    #"{"data":"ok"}"#,
  ]

  @Test(arguments: unusablePairingAnswers)
  func createPairingCodeRefusesAnAnswerWithoutAUsableCode(_ body: String) async throws {
    await http.expect(.post, "/api/mobile/pair", reply: .json(200, body))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.createPairingCode()
    }
    #expect(error.code == .decoding)
    #expect(!error.message.contains("sb_pair_x"))
  }

  @Test func createPairingCodeOnAServerWithoutTheRouteIsTooOld() async throws {
    await http.expect(.post, "/api/mobile/pair", reply: .json(404, ""))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.createPairingCode()
    }
    #expect(error.code == .serverTooOld)
  }

  @Test func serverURLWithAPathPrefixKeepsIt() async throws {
    let http = StubHTTPTransport()
    let api = ServerBeeAPIClient(
      server: try ServerURL("https://bee.example/monitor/"), transport: http)
    await http.expect(.get, "/monitor/api/servers", reply: try Samples.reply([ServerResponse]()))
    #expect(try await api.servers().isEmpty)
    await http.verifyAllConsumed()
  }
}
