import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The firewall blocklist calls (Protocol/Firewall.md): the query in the app's order with `+`
/// as `%2B`, the pages that move the lossy cursor and leave out repeats, the request body, and
/// the 400 and 409 refusals read as typed reasons.
@Suite(.timeLimit(.minutes(5))) struct FirewallClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  static func block(_ id: String, _ time: String) throws -> FirewallBlock {
    FirewallBlock(
      id: id, target: "203.0.113.\(id.count)/32", family: 4, origin: .manual,
      createdAt: try RFC3339Timestamp(parsing: time))
  }

  static func page(_ items: [FirewallBlock], _ next: String?) throws -> HTTPResponse {
    try Samples.reply(FirewallBlockPage(items: items, nextCursor: next))
  }

  /// The query strings of the requests received, in order.
  func queries() async -> [String] {
    await http.received.map { $0.url.query ?? "" }
  }

  @Test func aPageSendsTheAppsQueryWithThePlusOfTheCursorEncoded() async throws {
    await http.expect(.get, "/api/firewall/blocks", reply: try Self.page([], nil))
    _ = try await api.firewallBlockPage(
      FirewallBlockQuery(origin: .auto, targetContains: "203.0", pageSize: 2),
      cursor: "2027-01-15T07:00:03.250+00:00")
    #expect(
      try await sut.onlyURL()
        == Samples.base
        + "/api/firewall/blocks?limit=2&origin=auto&target_q=203.0&cursor=2027-01-15T07:00:03.250%2B00:00"
    )
  }

  @Test func everyEntryComesOnceAcrossPagesAsTheCursorIsMovedOneNanosecond() async throws {
    // The server's rule: each cursor is the time of an entry it left out.
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page(
        [try Self.block("a", "2027-01-15T07:00:05Z"), try Self.block("b", "2027-01-15T07:00:04Z")],
        "2027-01-15T07:00:03.250+00:00"))
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page(
        [
          try Self.block("c", "2027-01-15T07:00:03.250Z"),
          try Self.block("d", "2027-01-15T07:00:02Z"),
        ], "2027-01-15T07:00:01+00:00"))
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page([try Self.block("e", "2027-01-15T07:00:01Z")], nil))
    let blocks = try await api.allFirewallBlocks(FirewallBlockQuery(pageSize: 2))
    #expect(blocks.map(\.id) == ["a", "b", "c", "d", "e"])
    #expect(
      await queries() == [
        "limit=2", "limit=2&cursor=2027-01-15T07:00:03.250000001%2B00:00",
        "limit=2&cursor=2027-01-15T07:00:01.000000001%2B00:00",
      ])
    await http.verifyAllConsumed()
  }

  @Test func anEntryARepeatedInstantBringsBackIsLeftOut() async throws {
    // A server whose cursor is the last entry it gave: the moved cursor repeats it.
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page(
        [try Self.block("a", "2027-01-15T07:00:05Z"), try Self.block("b", "2027-01-15T07:00:04Z")],
        "2027-01-15T07:00:04+00:00"))
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page(
        [try Self.block("b", "2027-01-15T07:00:04Z"), try Self.block("c", "2027-01-15T07:00:03Z")],
        nil))
    var pages: [[String]] = []
    for try await page in api.firewallBlocks(FirewallBlockQuery(pageSize: 2)) {
      pages.append(page.items.map(\.id))
    }
    #expect(pages == [["a", "b"], ["c"]])
  }

  @Test func moreThanAPageAtOneInstantIsSteppedOverAsTheServerDoes() async throws {
    let instant = "2027-01-15T07:00:04Z"
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page(
        [try Self.block("a", instant), try Self.block("b", instant)],
        "2027-01-15T07:00:04+00:00"))
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page(
        [try Self.block("a", instant), try Self.block("b", instant)],
        "2027-01-15T07:00:04+00:00"))
    await http.expect(
      .get, "/api/firewall/blocks",
      reply: try Self.page([try Self.block("d", "2027-01-15T07:00:01Z")], nil))
    let blocks = try await api.allFirewallBlocks(FirewallBlockQuery(pageSize: 2))
    #expect(blocks.map(\.id) == ["a", "b", "d"])
    #expect(
      await queries() == [
        "limit=2", "limit=2&cursor=2027-01-15T07:00:04.000000001%2B00:00",
        "limit=2&cursor=2027-01-15T07:00:04%2B00:00",
      ])
  }

  @Test func aServerThatRepeatsTheCursorItWasSentEndsTheIterationWithAnError() async throws {
    let reply = try Self.page([], "2027-01-15T07:00:04+00:00")
    for _ in 0..<3 { await http.expect(.get, "/api/firewall/blocks", reply: reply) }
    let error = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await api.allFirewallBlocks()
    }
    #expect(error.code == .decoding)
  }

  @Test(arguments: [0, 201, -1])
  func aPageSizeOutsideTheCapIsRefusedBeforeSending(size: Int) async throws {
    let error = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await api.firewallBlockPage(FirewallBlockQuery(pageSize: size))
    }
    #expect(error.code == .invalidArgument)
    #expect(await http.received.isEmpty)
  }

  @Test func aBlockSendsTheSetMembersOnly() async throws {
    let made = try Self.block("x", "2027-01-15T07:00:04Z")
    await http.expect(.post, "/api/firewall/blocks", reply: try Samples.reply(made))
    await http.expect(.post, "/api/firewall/blocks", reply: try Samples.reply(made))
    #expect(try await api.createFirewallBlock(FirewallBlockRequest(target: "203.0.113.7")) == made)
    _ = try await api.createFirewallBlock(
      FirewallBlockRequest(
        target: "198.51.100.0/24", coverType: .include, serverIDs: ["s1"], comment: "scan"))
    let bodies = await http.received.map { String(decoding: $0.body, as: UTF8.self) }
    #expect(
      bodies == [
        #"{"target":"203.0.113.7"}"#,
        #"{"target":"198.51.100.0/24","cover_type":"include","server_ids":["s1"],"comment":"scan"}"#,
      ])
    let empty = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await api.createFirewallBlock(FirewallBlockRequest(target: ""))
    }
    #expect(empty.code == .invalidArgument)
  }

  @Test(arguments: [
    (
      400, "BAD_REQUEST", "Bad request: invalid IP or CIDR: nope",
      FirewallBlockRefusal.invalidTarget("nope")
    ),
    (
      409, "CONFLICT", "Conflict: hits hard-coded guardrail: 127.0.0.0/8", .guardrail("127.0.0.0/8")
    ),
    (409, "CONFLICT", "Conflict: hits allow_list: 198.51.100.10", .allowList("198.51.100.10")),
    (
      409, "CONFLICT", "Conflict: target 203.0.113.7/32 already blocked",
      .alreadyBlocked("203.0.113.7/32")
    ),
  ])
  func aRefusalIsReadAsItsReason(
    status: Int, code: String, message: String, reason: FirewallBlockRefusal
  ) async throws {
    let body = try WireJSON.encode(["error": ["code": code, "message": message]])
    await http.expect(
      .post, "/api/firewall/blocks", reply: HTTPResponse(status: status, body: body))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      _ = try await api.createFirewallBlock(FirewallBlockRequest(target: "x"))
    }
    #expect(error.code == (status == 400 ? .badRequest : .conflict))
    #expect(error.firewallBlockRefusal == reason)
  }

  @Test func aMembersDeleteIsForbiddenAndTheCountsDecode() async throws {
    await http.expect(.delete, "/api/firewall/blocks/b1", reply: HTTPResponse(status: 403))
    await http.expect(
      .get, "/api/firewall/stats",
      reply: try Samples.reply(FirewallStats(total: 3, auto: 1, manual: 2, v4: 2, v6: 1)))
    let error = try await #require(throws: ServerBeeAPIError.self) {
      try await api.deleteFirewallBlock(id: "b1")
    }
    #expect(error.code == .forbidden)
    #expect(
      try await api.firewallStats() == FirewallStats(total: 3, auto: 1, manual: 2, v4: 2, v6: 1))
  }
}
