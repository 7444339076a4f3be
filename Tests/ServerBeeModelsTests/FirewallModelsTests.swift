import Foundation
import ServerBeeModels
import Testing

/// The firewall blocklist (Protocol/Firewall.md): the documented pages and counts decode and
/// encode back byte for byte in the server's key order, unknown values survive, and the
/// refusals' texts read as typed reasons.
@Suite struct FirewallModelsTests {
  @Test(arguments: ["firewall/blocks_page.json", "firewall/blocks_last_page.json"])
  func theDocumentedPagesDecodeAndEncodeBackAsTheyCame(file: String) throws {
    let body = try Fixtures.data(file)
    let page = try APIResponse<FirewallBlockPage>.payload(status: 200, body: body)
    let encoded = try WireJSON.encode(APIResponse(data: page))
    #expect(
      String(decoding: encoded, as: UTF8.self)
        == String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func theMembersOfAnEntryReadAsDocumented() throws {
    let page = try APIResponse<FirewallBlockPage>.payload(
      status: 200, body: try Fixtures.data("firewall/blocks_page.json"))
    let manual = page.items[0]
    #expect(manual.target == "203.0.113.7/32" && manual.family == 4)
    #expect(manual.coverType == .include && manual.serverIDs?.count == 1)
    #expect(manual.origin == .manual && manual.createdBy != nil && manual.originEventID == nil)
    #expect(manual.createdAt.nanoseconds == 123_456_789)
    let auto = page.items[1]
    #expect(auto.origin == .auto && auto.family == 6 && auto.serverIDs == nil)
    #expect(auto.originRuleID != nil && auto.comment == nil)
    #expect(page.nextCursor == "2026-08-09T10:45:00.500+00:00")
    #expect(FirewallCoverType(rawValue: "some").rawValue == "some")
    #expect(FirewallBlockOrigin(rawValue: "import").rawValue == "import")
  }

  @Test func theCountsDecode() throws {
    let stats = try APIResponse<FirewallStats>.payload(
      status: 200, body: try Fixtures.data("firewall/stats.json"))
    #expect(stats == FirewallStats(total: 42, auto: 30, manual: 12, v4: 39, v6: 3))
  }

  @Test(arguments: [
    (
      400, "Bad request: invalid IP or CIDR: 1.2.3",
      FirewallBlockRefusal?.some(.invalidTarget("1.2.3"))
    ),
    (409, "Conflict: hits hard-coded guardrail: fc00::/7", .guardrail("fc00::/7")),
    (409, "Conflict: hits allow_list: 203.0.113.0/24", .allowList("203.0.113.0/24")),
    (409, "Conflict: target 2001:db8::/32 already blocked", .alreadyBlocked("2001:db8::/32")),
    (409, "Conflict: Task is already running", nil), (404, "Not found: block b not found", nil),
  ])
  func aRefusalsTextReadsAsItsReason(
    status: Int, message: String, reason: FirewallBlockRefusal?
  ) throws {
    let body = try WireJSON.encode(["error": ["code": "X", "message": message]])
    #expect(APIFailure(status: status, body: body).firewallBlockRefusal == reason)
  }
}
