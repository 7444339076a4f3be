import Foundation
import ServerBeeModels
import Testing

/// ``FieldUpdate`` on the wire (Protocol/Servers.md §4.1): absent key, `null`, value, as exact
/// bytes, and the server-edit and group bodies built on it.
@Suite struct FieldUpdateTests {
  private struct Probe: Encodable {
    var value: FieldUpdate<Double>
    var label: String?

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: AnyCodingKey.self)
      try c.encode(value, forKey: AnyCodingKey("price"))
      if let label { try c.encode(label, forKey: AnyCodingKey("label")) }
    }
  }

  private func text(_ value: some Encodable) throws -> String {
    String(decoding: try WireJSON.encode(value), as: UTF8.self)
  }

  @Test func eachCaseHasItsOwnBytes() throws {
    #expect(try text(Probe(value: .unchanged)) == "{}")
    #expect(try text(Probe(value: .clear)) == #"{"price":null}"#)
    #expect(try text(Probe(value: .set(4.0))) == #"{"price":4.0}"#)
    #expect(try text(Probe(value: .unchanged, label: "x")) == #"{"label":"x"}"#)
  }

  @Test func anOptionalClearsWhenNil() {
    #expect(FieldUpdate<String>(clearingWhenNil: nil) == .clear)
    #expect(FieldUpdate(clearingWhenNil: "EUR") == .set("EUR"))
    #expect(!FieldUpdate<Int>.unchanged.isWritten && FieldUpdate<Int>.clear.isWritten)
  }

  @Test func aServerEditWritesOnlyWhatItChangesInTableOrder() throws {
    #expect(try text(ServerUpdateRequest()) == "{}")
    #expect(ServerUpdateRequest().isEmpty)
    var edit = ServerUpdateRequest(name: "web-2", remark: "")
    edit.groupID = .clear
    edit.countryCode = .set("nl")
    edit.price = .set(4.5)
    edit.expiredAt = .set(RFC3339Timestamp(secondsSince1970: 1_798_761_600))
    edit.trafficLimit = .set(1_099_511_627_776)
    edit.billingStartDay = .clear
    #expect(!edit.isEmpty)
    #expect(
      try text(edit)
        == #"{"name":"web-2","remark":"","group_id":null,"country_code":"nl","price":4.5,"#
        + #""expired_at":"2027-01-01T00:00:00Z","traffic_limit":1099511627776,"#
        + #""billing_start_day":null}"#)
  }

  @Test func groupAndTagBodies() throws {
    #expect(try text(ServerGroupUpdateRequest()) == "{}")
    #expect(try text(ServerGroupUpdateRequest(weight: 3)) == #"{"weight":3}"#)
    #expect(
      try text(ServerGroupUpdateRequest(name: "Edge", weight: 0)) == #"{"name":"Edge","weight":0}"#)
    #expect(try text(ServerGroupCreateRequest(name: "Edge")) == #"{"name":"Edge"}"#)
    #expect(try text(ServerTagsRequest(tags: ["db", "prod"])) == #"{"tags":["db","prod"]}"#)
  }

  @Test func theDocumentedGroupAndTagAnswersDecode() throws {
    let group = try APIResponse<ServerGroup>.payload(
      status: 200, body: Fixtures.data("servers/server_group.json"))
    #expect(group.name == "Staging" && group.weight == 0)
    let tags = try APIResponse<[String]>.payload(
      status: 200, body: Fixtures.data("servers/server_tags.json"))
    #expect(tags == ["db", "prod"])
  }
}
