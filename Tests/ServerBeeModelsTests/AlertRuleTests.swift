import Foundation
import ServerBeeModels
import Testing

@Suite struct AlertRuleTests {
  @Test func ruleListDecodesTheStringEncodedMembers() throws {
    let rules = try APIResponse<[AlertRule]>.payload(
      status: 200, body: Fixtures.data("alerts/alert_rules.json"))
    #expect(rules.count == 2)
    let cpu = rules[0]
    #expect(cpu.id == "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f")
    #expect(cpu.name == "High CPU")
    #expect(cpu.enabled)
    #expect(cpu.ruleTypes == ["cpu"])
    #expect(cpu.serverIDs == ["3f0c9b52-1c1e-4d0e-9a55-1b7f0f2c8e11"])
    #expect(cpu.triggerMode == .always)
    #expect(cpu.createdAt?.nanoseconds == 123_456_789)
    let brute = rules[1]
    #expect(!brute.enabled)
    #expect(brute.ruleTypes == ["ssh_brute_force_detected"])
    #expect(brute.serverIDs == [])
    #expect(brute.actionsJSON == #"[{"kind":"block_source_ip"}]"#)
    #expect(brute.triggerMode == .once)
  }

  @Test(arguments: ["alerts/alert_rules.json", "alerts/alert_rules_reduced.json"])
  func rulesReencodeToTheSameBytes(path: String) throws {
    let reencoded = try Fixtures.reencoded(APIResponse<[AlertRule]>.self, path)
    let original = try Fixtures.text(path)
    #expect(reencoded == original)
  }

  @Test func reducedRuleLeavesTheAbsentMembersNil() throws {
    let rules = try APIResponse<[AlertRule]>.payload(
      status: 200, body: Fixtures.data("alerts/alert_rules_reduced.json"))
    #expect(rules[0].serverIDsJSON == nil)
    #expect(rules[0].serverIDs == nil)
    #expect(rules[0].actionsJSON == nil)
    #expect(rules[0].ruleTypes == ["cpu"])
  }

  @Test func unreadableRuleTextGivesNoTypesInsteadOfFailing() throws {
    let rule = AlertRule(id: "r", name: "n", enabled: true, rulesJSON: "not json")
    #expect(rule.ruleTypes.isEmpty)
  }

  @Test func ruleWithoutNameThrowsNamingTheField() throws {
    let body = #"{"data":[{"id":"r","enabled":true}]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<[AlertRule]>.payload(status: 200, body: Data(body.utf8))
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("data[0].name"))
  }

  @Test func ruleStatesDecodeAndReencode() throws {
    let path = "alerts/alert_rule_states.json"
    let states = try APIResponse<[AlertRuleState]>.payload(status: 200, body: Fixtures.data(path))
    #expect(states.count == 2)
    #expect(states[0].serverID == "s1")
    #expect(states[0].count == 4)
    #expect(!states[0].resolved)
    #expect(states[0].resolvedAt == nil)
    #expect(states[1].serverName == "Unknown")
    #expect(states[1].lastNotifiedAt == nil)
    #expect(states[1].resolvedAt?.nanoseconds == 123_456_789)
    #expect(try Fixtures.reencoded(APIResponse<[AlertRuleState]>.self, path) == Fixtures.text(path))
  }
}
