// Alert keys (Protocol/Alerts.md §5): `v1.` + base64url of a JSON array of four strings, or the
// legacy `rule_id:server_id`. Invariants: failures are ServerBeeModelsError with code
// invalidAlertKey only; `parsingV1` accepts exactly the `v1.` keys `parsing` accepts; a parsed
// key re-parses from its text to the same key; a v1 key rebuilt from its parts (when its time
// is valid RFC 3339) parses to the same rule, server, event key and time; a legacy key
// rebuilds from its two ids; the Codable form round-trips.
import Foundation
import FuzzSupport
import ServerBeeModels

func parse(_ text: String, v1Only: Bool) -> AlertKey? {
  do {
    return v1Only ? try AlertKey(parsingV1: text) : try AlertKey(parsing: text)
  } catch let error as ServerBeeModelsError {
    check(error.code == .invalidAlertKey, "code \(error.code)")
    return nil
  } catch {
    fail("untyped error \(error)")
  }
}

func fuzzOne(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  let key = parse(text, v1Only: false)
  let v1 = parse(text, v1Only: true)
  check(
    v1 == (key?.isV1 == true ? key : nil),
    "parsing and parsingV1 disagree on \(text.debugDescription)")
  guard let key else { return }
  check(key.text == text, "the key text changed")
  check(!key.ruleID.isEmpty && !key.serverID.isEmpty, "an empty id accepted")
  check(parse(key.text, v1Only: false) == key, "re-parsing differs")
  switch key.form {
  case .v1(let eventKey, let time):
    check(!time.isEmpty, "an empty time accepted")
    if let timestamp = key.firstTriggeredAt {
      guard
        let rebuilt = try? AlertKey(
          ruleID: key.ruleID, serverID: key.serverID, eventKey: eventKey,
          firstTriggeredAt: timestamp)
      else {
        // Only too long a key may be refused.
        check(text.utf8.count > AlertKey.maximumLength - 64, "a valid key cannot be rebuilt")
        return
      }
      guard let reparsed = parse(rebuilt.text, v1Only: true) else {
        fail("a rebuilt key \(rebuilt.text) does not parse")
      }
      check(reparsed == rebuilt, "a rebuilt key re-parses differently")
      check(
        reparsed.ruleID == key.ruleID && reparsed.serverID == key.serverID
          && reparsed.eventKey == eventKey && reparsed.firstTriggeredAt == timestamp,
        "a rebuilt key has other parts")
    }
  case .legacy:
    check(
      (try? AlertKey(legacyRuleID: key.ruleID, serverID: key.serverID)) == key,
      "a legacy key does not rebuild")
  }
  guard let encoded = try? WireJSON.encode(key),
    let decoded = try? WireJSON.decode(AlertKey.self, from: encoded)
  else { fail("\(key.text) does not round-trip through JSON") }
  check(decoded == key, "JSON round trip changes \(key.text)")
}

runFuzzer(fuzzOne)
