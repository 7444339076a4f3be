import Foundation
import Testing

@testable import ServerBeeModels

@Suite struct AlertKeyTests {
  static let example =
    "v1.WyJydWxlLTEiLCJzZXJ2ZXItMSIsIjIwMy4wLjExMy43IiwiMjAzMy0wNS0xOFQwMzozMzoyMCswMDowMCJd"

  /// `v1.` + base64url without padding of arbitrary payload text.
  static func v1(_ payload: String) -> String {
    let text = Data(payload.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    return "v1." + text
  }

  @Test func buildsTheContractExample() throws {
    let key = try AlertKey(
      ruleID: "rule-1", serverID: "server-1", eventKey: "203.0.113.7",
      firstTriggeredAt: try RFC3339Timestamp(parsing: "2033-05-18T03:33:20Z"))
    #expect(key.text == Self.example)
    #expect(key.isV1)
  }

  @Test func parsesTheContractExample() throws {
    let key = try AlertKey(parsing: Self.example)
    #expect(key.ruleID == "rule-1")
    #expect(key.serverID == "server-1")
    #expect(key.form == .v1(eventKey: "203.0.113.7", firstTriggeredAt: "2033-05-18T03:33:20+00:00"))
    #expect(key.eventKey == "203.0.113.7")
    #expect(key.firstTriggeredAt == (try RFC3339Timestamp(parsing: "2033-05-18T03:33:20Z")))
    #expect(try AlertKey(parsingV1: Self.example) == key)
  }

  @Test(arguments: [
    ("2033-05-18T03:33:20.5Z", "2033-05-18T03:33:20.500+00:00"),
    ("2033-05-18T05:33:20.000+02:00", "2033-05-18T03:33:20+00:00"),
    ("2033-05-18T03:33:20.123456789Z", "2033-05-18T03:33:20.123456789+00:00"),
  ])
  func timeIsWrittenWithUTCOffsetAndFractionOnlyWhenNonZero(_ input: String, _ written: String)
    throws
  {
    let key = try AlertKey(
      ruleID: "r", serverID: "s", eventKey: "",
      firstTriggeredAt: try RFC3339Timestamp(parsing: input))
    #expect(key.form == .v1(eventKey: "", firstTriggeredAt: written))
    #expect(key.text == Self.v1(#"["r","s","","\#(written)"]"#))
  }

  @Test func slashesAreNotEscapedInThePayload() throws {
    let key = try AlertKey(
      ruleID: "a/b", serverID: "s", eventKey: "",
      firstTriggeredAt: RFC3339Timestamp(secondsSince1970: 0))
    #expect(key.text == Self.v1(#"["a/b","s","","1970-01-01T00:00:00+00:00"]"#))
    #expect(try AlertKey(parsing: key.text).ruleID == "a/b")
  }

  @Test(arguments: [
    ("v1.WyI_Pz8iLCJzIiwiIiwidCJd", "???"), ("v1.WyJyPj4-IiwicyIsIiIsInQiXQ", "r>>>"),
  ])
  func urlSafeCharactersAreDecoded(_ text: String, _ rule: String) throws {
    #expect(try AlertKey(parsingV1: text).ruleID == rule)
  }

  @Test(arguments: [("tt", 1), ("t", 2)])
  func paddedPayloadIsAccepted(_ time: String, _ padding: Int) throws {
    let unpadded = Self.v1(#"["r","s","","\#(time)"]"#)
    let padded = unpadded + String(repeating: "=", count: padding)
    #expect((padded.count - 3) % 4 == 0)
    #expect(try AlertKey(parsingV1: padded).form == .v1(eventKey: "", firstTriggeredAt: time))
    #expect(try AlertKey(parsingV1: unpadded).form == .v1(eventKey: "", firstTriggeredAt: time))
  }

  @Test(arguments: [
    ("v2.WyJyIiwicyIsIiIsInQiXQ", "wrong prefix"),
    ("v1.", "empty payload"),
    ("v1.!!!!", "not base64url"),
    ("v1.WyJyIiwicyIsIiIsInQiXQ==x", "text after padding"),
    ("v1.WyJyIiwicyIsIiIsInQiXQ=", "wrong padding length"),
    ("v1.WyJyIiwic yIsIiIsInQiXQ", "whitespace"),
    (AlertKeyTests.v1(#"["r","s","t"]"#), "three parts"),
    (AlertKeyTests.v1(#"["r","s","","t","x"]"#), "five parts"),
    (AlertKeyTests.v1(#"["r","s",1,"t"]"#), "a number"),
    (AlertKeyTests.v1(#"{"r":"s"}"#), "an object"),
    (AlertKeyTests.v1(#"["","s","","t"]"#), "empty rule"),
    (AlertKeyTests.v1(#"["r","","","t"]"#), "empty server"),
    (AlertKeyTests.v1(#"["r","s","",""]"#), "empty time"),
    ("v1.WyI/Pz8iLCJzIiwiIiwidCJd", "standard alphabet /"),
    ("v1.WyJyPj4+IiwicyIsIiIsInQiXQ", "standard alphabet +"),
    ("rule-1:server-1", "legacy form"),
  ])
  func invalidV1KeysAreRefused(_ text: String, _ why: String) {
    do {
      _ = try AlertKey(parsingV1: text)
      Issue.record("accepted a key with \(why)")
    } catch let error as ServerBeeModelsError {
      #expect(error.code == .invalidAlertKey, "\(why)")
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func keysLongerThan4099CharactersAreRefused() throws {
    // A payload that encodes to exactly 4096 base64url characters is accepted; one more
    // group of characters is not.
    let filler = String(repeating: "x", count: 3072 - #"["r","s","","t"]"#.count)
    let exact = Self.v1(#"["r","s","\#(filler)","t"]"#)
    #expect(exact.count == 4099)
    #expect(try AlertKey(parsingV1: exact).eventKey == filler)
    let longer = Self.v1(#"["r","s","\#(filler)xxx","t"]"#)
    #expect(longer.count == 4103)
    #expect(throws: ServerBeeModelsError.self) { try AlertKey(parsingV1: longer) }
    #expect(throws: ServerBeeModelsError.self) {
      try AlertKey(
        ruleID: "r", serverID: "s", eventKey: filler + "xxx",
        firstTriggeredAt: RFC3339Timestamp(secondsSince1970: 0))
    }
  }

  @Test(arguments: [("", "s"), ("r", "")])
  func buildingWithoutRuleOrServerFails(_ rule: String, _ server: String) {
    #expect(throws: ServerBeeModelsError.self) {
      try AlertKey(
        ruleID: rule, serverID: server, eventKey: "",
        firstTriggeredAt: RFC3339Timestamp(secondsSince1970: 0))
    }
  }

  @Test(arguments: [
    ("rule-1:server-1", "rule-1", "server-1"),
    ("rule-1:server:with:colons", "rule-1", "server:with:colons"),
  ])
  func legacyKeysSplitAtTheFirstColon(_ text: String, _ rule: String, _ server: String) throws {
    let key = try AlertKey(parsing: text)
    #expect(key.form == .legacy && !key.isV1)
    #expect(key.ruleID == rule && key.serverID == server)
    #expect(key.eventKey == nil && key.firstTriggeredAt == nil)
    #expect(key.text == text)
  }

  @Test(arguments: [":server", "rule:", "no-colon", ""])
  func invalidLegacyKeysAreRefused(_ text: String) {
    #expect(throws: ServerBeeModelsError.self) { try AlertKey(parsing: text) }
  }

  @Test func legacyKeyIsBuiltFromItsParts() throws {
    #expect(try AlertKey(legacyRuleID: "r", serverID: "s:1").text == "r:s:1")
    #expect(throws: ServerBeeModelsError.self) { try AlertKey(legacyRuleID: "r:1", serverID: "s") }
  }

  @Test func codableUsesTheKeyText() throws {
    let keys = try WireJSON.decode([AlertKey].self, from: Data(#"["\#(Self.example)","r:s"]"#.utf8))
    #expect(keys.map(\.isV1) == [true, false])
    #expect(
      String(decoding: try WireJSON.encode(keys), as: UTF8.self) == #"["\#(Self.example)","r:s"]"#)
    #expect(throws: ServerBeeModelsError.self) {
      try WireJSON.decode([AlertKey].self, from: Data(#"["v1.???"]"#.utf8))
    }
  }
}
