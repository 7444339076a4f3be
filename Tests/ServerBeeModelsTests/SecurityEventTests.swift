import Foundation
import ServerBeeModels
import Testing

@Suite struct SecurityEventTests {
  private func page(_ path: String) throws -> SecurityEventPage {
    try APIResponse<SecurityEventPage>.payload(status: 200, body: Fixtures.data(path))
  }

  @Test func cursorPageDecodesItemsAndCursor() throws {
    let page = try page("security/security_events_page.json")
    #expect(page.items.count == 5)
    #expect(page.nextCursor?.hasPrefix("MjAyNi0wMy0yOF") == true)
    let brute = page.items[0]
    #expect(brute.id == "8b0e4c1a-51f7-4c33-a4f2-0b7de3c9a6e2")
    #expect(brute.eventType == .sshBruteForce)
    #expect(brute.severity == .high)
    #expect(brute.sourceIP == "203.0.113.7")
    #expect(brute.sourcePort == nil)
    #expect(brute.startedAt.formatted(.utcOffset) == "2026-03-28T10:15:00+00:00")
    #expect(brute.startedAt.secondsSince1970 == 1_774_692_900)
    #expect(brute.detectorSource == .journal)
    #expect(brute.createdAt.nanoseconds == 123_456_789)
  }

  @Test func lastPageHasNoCursor() throws {
    let page = try page("security/security_events_last_page.json")
    #expect(page == SecurityEventPage(items: [], nextCursor: nil))
  }

  @Test(arguments: [
    "security/security_events_page.json", "security/security_events_last_page.json",
  ])
  func pagesReencodeToTheSameBytesWhereOrderIsKnown(path: String) throws {
    // The unknown-kind evidence is open JSON (member order not kept), so compare it as JSON.
    let reencoded = try Fixtures.reencoded(APIResponse<SecurityEventPage>.self, path)
    let original = try Fixtures.text(path)
    #expect(
      try WireJSON.decode(JSONValue.self, from: Data(reencoded.utf8))
        == WireJSON.decode(JSONValue.self, from: Data(original.utf8)))
    let typedItems = try page(path).items.filter {
      if case .unknown? = $0.evidence { return false }
      return true
    }
    for item in typedItems {
      let json = String(decoding: try WireJSON.encode(item), as: UTF8.self)
      #expect(original.contains(json))
    }
  }

  @Test func evidenceKindsDecodeToTheirCases() throws {
    let items = try page("security/security_events_page.json").items
    #expect(
      items[0].evidence
        == .sshBruteForce(
          SSHBruteForceEvidence(
            failedCount: 42, distinctUsers: 3, sampleUsers: ["root", "admin", "ubuntu"],
            invalidUserCount: 2, windowSeconds: 60, threshold: 10)))
    #expect(items[1].evidence == .sshLogin(SSHLoginEvidence(authMethod: .publickey)))
    #expect(
      items[2].evidence
        == .portScan(
          PortScanEvidence(
            distinctPorts: 120, samplePorts: [22, 80, 443, 3306, 5432], totalAttempts: 480,
            windowSeconds: 60, threshold: 50, blockedCount: 0)))
    #expect(items[3].evidence == nil)
    guard case .unknown(let kind, let raw)? = items[4].evidence else {
      Issue.record("expected unknown evidence")
      return
    }
    #expect(kind == "dns_tunnel")
    #expect(raw["queries"] == .number(900))
    #expect(items[4].eventType == SecurityEventType(rawValue: "dns_tunnel"))
  }

  @Test func evidenceEncodesKindFirst() throws {
    let evidence = SecurityEventEvidence.sshLogin(
      SSHLoginEvidence(authMethod: .keyboardInteractive))
    #expect(
      String(decoding: try WireJSON.encode(evidence), as: UTF8.self)
        == #"{"kind":"ssh_login","auth_method":"keyboard_interactive"}"#)
    let scan = SecurityEventEvidence.portScan(
      PortScanEvidence(
        distinctPorts: 2, samplePorts: [22, 23], totalAttempts: 5, windowSeconds: 60,
        threshold: 1, blockedCount: 5))
    #expect(
      String(decoding: try WireJSON.encode(scan), as: UTF8.self)
        == #"{"kind":"port_scan","distinct_ports":2,"sample_ports":[22,23],"total_attempts":5,"window_seconds":60,"threshold":1,"blocked_count":5}"#
    )
  }

  @Test func evidenceWithoutKindIsUnknown() throws {
    let evidence = try WireJSON.decode(
      SecurityEventEvidence.self, from: Data(#"{"auth_method":"password"}"#.utf8))
    #expect(evidence == .unknown(kind: nil, raw: .object([("auth_method", .string("password"))])))
    #expect(evidence.kind == nil)
  }

  @Test func knownEvidenceKindWithBadMembersThrowsNamingTheField() throws {
    let body = try Fixtures.text("security/security_events_page.json")
      .replacingOccurrences(of: #""failed_count":42"#, with: #""failed_count":"many""#)
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<SecurityEventPage>.payload(status: 200, body: Data(body.utf8))
    }
    #expect(error.code == .invalidField)
    #expect(error.message.contains("data.items[0].evidence.failed_count"))
  }

  @Test func detailAndStatsDecode() throws {
    let detailBody = try Fixtures.text("security/security_events_page.json")
    let page = try WireJSON.decode(APIResponse<SecurityEventPage>.self, from: Data(detailBody.utf8))
    let event = try #require(page.data.items.first)
    let single = try APIResponse<SecurityEvent>.payload(
      status: 200, body: WireJSON.encode(APIResponse(data: event)))
    #expect(single == event)

    let stats = try APIResponse<[SecurityStatsEntry]>.payload(
      status: 200, body: Fixtures.data("security/security_stats.json"))
    #expect(
      stats == [
        SecurityStatsEntry(key: "ssh_login", count: 120),
        SecurityStatsEntry(key: "ssh_brute_force", count: 14),
        SecurityStatsEntry(key: "port_scan", count: 3),
      ])
    let byDay = try APIResponse<[SecurityStatsEntry]>.payload(
      status: 200, body: Fixtures.data("security/security_stats_by_day.json"))
    #expect(byDay.first?.key == "2026-05-20")
    #expect(
      try Fixtures.reencoded(APIResponse<[SecurityStatsEntry]>.self, "security/security_stats.json")
        == Fixtures.text("security/security_stats.json"))
    #expect(SecurityStatsGrouping.sourceIP.rawValue == "source_ip")
  }

  @Test func pageMissingItemsThrowsNamingTheField() throws {
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<SecurityEventPage>.payload(status: 200, body: Data(#"{"data":{}}"#.utf8))
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("data.items"))
  }

  @Test func liveSecurityEventUsesUnixSecondsAndMatchesTheRESTEvent() throws {
    let lines = try Fixtures.lines("realtime/messages.jsonl")
    let frame = try #require(lines.first { $0.contains(#""event_type":"ssh_brute_force""#) })
    guard case .securityEvent(let live) = try LiveStreamMessage(decoding: frame) else {
      Issue.record("expected security_event")
      return
    }
    let rest = try page("security/security_events_page.json").items[0]
    #expect(live.eventID == rest.id)
    #expect(live.event.startedAt == rest.startedAt.secondsSince1970)
    #expect(live.event.endedAt == rest.endedAt.secondsSince1970)
    #expect(live.event.evidence == rest.evidence)
  }
}
