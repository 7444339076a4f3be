import Foundation
import ServerBeeModels
import Testing

@Suite struct AlertEventTests {
  private func list(_ path: String) throws -> [AlertEvent] {
    try APIResponse<[AlertEvent]>.payload(status: 200, body: Fixtures.data(path))
  }

  @Test func v1ListWithoutAlertKeyDecodes() throws {
    let events = try list("alerts/alert_events_v1.json")
    #expect(events.count == 5)
    let first = events[0]
    #expect(first.alertKey == nil)
    #expect(first.ruleID == "r1")
    #expect(first.ruleName == "High CPU")
    #expect(first.serverName == "vps-a")
    #expect(first.status == .firing)
    #expect(first.eventAt.formatted(.utcOffset) == "2026-05-20T10:05:00.412+00:00")
    #expect(first.resolvedAt == nil)
    #expect(first.count == 4)
    #expect(events[1].status == .resolved)
    #expect(events[1].resolvedAt == events[1].eventAt)
    #expect(events[4].ruleName == "Unknown")
  }

  @Test func v1DetailKeyAndIdentityFollowTheIOSRule() throws {
    let events = try list("alerts/alert_events_v1.json")
    #expect(events[0].detailKey == "r1:s1")
    #expect(events[0].id == "r1:s1#firing#2026-05-20T10:05:00.412+00:00")
    #expect(events[1].id == "r1:s1#resolved#2026-05-20T09:00:00.123456789+00:00")
    #expect(events[0].id != events[1].id)
  }

  @Test func v2ListWithAlertKeyFirstDecodes() throws {
    let events = try list("alerts/alert_events_v2.json")
    #expect(events.count == 2)
    let key =
      "v1.WyJydWxlLTEiLCJzZXJ2ZXItMSIsIjIwMy4wLjExMy43IiwiMjAzMy0wNS0xOFQwMzozMzoyMCswMDowMCJd"
    #expect(events[0].alertKey == key)
    #expect(events[0].detailKey == key)
    #expect(events[0].id == "\(key)#firing#2033-05-18T03:33:20+00:00")
    #expect(events[1].status == .resolved)
    #expect(events[1].resolvedAt?.nanoseconds == 500_000_000)
  }

  @Test(arguments: ["alerts/alert_events_v1.json", "alerts/alert_events_v2.json"])
  func listsReencodeToTheSameBytes(path: String) throws {
    #expect(try Fixtures.reencoded(APIResponse<[AlertEvent]>.self, path) == Fixtures.text(path))
  }

  @Test func clashingSecurityRowsGetDistinctListIdentities() throws {
    let events = try list("alerts/alert_events_v1.json")
    #expect(events[2].id == events[3].id)
    let identities = AlertEvent.listIdentities(events)
    #expect(Set(identities).count == events.count)
    #expect(identities[2] == events[2].id)
    #expect(identities[3] == events[3].id + "#2")
    #expect(identities[0] == events[0].id)
  }

  @Test func listRowMissingStatusThrowsNamingTheField() throws {
    let body =
      #"{"data":[{"rule_id":"r","rule_name":"n","server_id":"s","server_name":"m","event_at":"2026-05-20T10:05:00+00:00","resolved_at":null,"count":1}]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<[AlertEvent]>.payload(status: 200, body: Data(body.utf8))
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("data[0].status"))
  }

  @Test func unknownStatusSurvives() throws {
    let body =
      #"{"data":[{"rule_id":"r","rule_name":"n","server_id":"s","server_name":"m","status":"silenced","event_at":"2026-05-20T10:05:00+00:00","resolved_at":null,"count":1}]}"#
    let events = try APIResponse<[AlertEvent]>.payload(status: 200, body: Data(body.utf8))
    #expect(events[0].status == AlertStatus(rawValue: "silenced"))
    #expect(String(decoding: try WireJSON.encode(APIResponse(data: events)), as: UTF8.self) == body)
  }

  @Test func firingDetailDecodesWithTheEmDashMessage() throws {
    let path = "alerts/alert_event_detail_firing.json"
    let detail = try APIResponse<AlertEventDetail>.payload(status: 200, body: Fixtures.data(path))
    #expect(detail.alertKey == "r1:s1")
    #expect(detail.status == .firing)
    #expect(detail.message == "Alert firing \u{2014} triggered 4 time(s)")
    #expect(detail.message == AlertEventDetail.message(status: .firing, triggerCount: 4))
    #expect(detail.triggerCount == 4)
    #expect(detail.resolvedAt == nil)
    #expect(detail.ruleEnabled)
    #expect(detail.ruleTriggerMode == .always)
    #expect(try Fixtures.reencoded(APIResponse<AlertEventDetail>.self, path) == Fixtures.text(path))
  }

  @Test func resolvedDetailDecodes() throws {
    let path = "alerts/alert_event_detail_resolved.json"
    let detail = try APIResponse<AlertEventDetail>.payload(status: 200, body: Fixtures.data(path))
    #expect(detail.alertKey.hasPrefix("v1."))
    #expect(detail.status == .resolved)
    #expect(detail.serverName == "Unknown")
    #expect(detail.message == AlertEventDetail.message(status: .resolved, triggerCount: 12))
    #expect(detail.firstTriggeredAt.nanoseconds == 123_456_789)
    #expect(detail.ruleEnabled == false)
    #expect(detail.ruleTriggerMode == .once)
    #expect(try Fixtures.reencoded(APIResponse<AlertEventDetail>.self, path) == Fixtures.text(path))
  }

  @Test func badEventTimeIsAnInvalidTimestampNamingTheField() throws {
    let body = try Fixtures.text("alerts/alert_events_v1.json")
      .replacingOccurrences(of: "2026-05-20T10:05:00.412+00:00", with: "2026-05-20 10:05")
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<[AlertEvent]>.payload(status: 200, body: Data(body.utf8))
    }
    #expect(error.code == .invalidTimestamp)
    #expect(error.message.contains("data[0].event_at"))
  }

  @Test(arguments: [
    ("2026-05-20T10:05:00Z", "2026-05-20T10:05:00+00:00", 0),
    ("2026-05-20T10:05:00.412Z", "2026-05-20T10:05:00.412+00:00", 412_000_000),
    ("2026-05-20T10:05:00.412000+00:00", "2026-05-20T10:05:00.412+00:00", 412_000_000),
    ("2026-05-20T10:05:00.123456+00:00", "2026-05-20T10:05:00.123456+00:00", 123_456_000),
    ("2026-05-20T10:05:00.123456789Z", "2026-05-20T10:05:00.123456789+00:00", 123_456_789),
    ("2026-05-20T10:05:00.5+00:00", "2026-05-20T10:05:00.500+00:00", 500_000_000),
  ])
  func eventTimesWithZeroToNineDigitsAndBothForms(wire: String, offsetForm: String, nanos: Int)
    throws
  {
    let body =
      #"{"rule_id":"r","rule_name":"n","server_id":"s","server_name":"m","status":"firing","event_at":"\#(wire)","resolved_at":null,"count":1}"#
    let event = try WireJSON.decode(AlertEvent.self, from: Data(body.utf8))
    #expect(Int(event.eventAt.nanoseconds) == nanos)
    #expect(event.eventAt.formatted(.utcOffset) == offsetForm)
    let written = String(decoding: try WireJSON.encode(event), as: UTF8.self)
    #expect(written.contains(#""event_at":"\#(event.eventAt.description)""#))
    #expect(written.hasSuffix(#","resolved_at":null,"count":1}"#))
  }
}
