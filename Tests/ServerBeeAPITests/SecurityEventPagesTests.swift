import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@Suite(.timeLimit(.minutes(5))) struct SecurityEventPagesTests {
  static func page(_ ids: [String], next: String?) -> SecurityEventPage {
    SecurityEventPage(items: ids.map(Samples.securityEvent(id:)), nextCursor: next)
  }

  @Test func followsEachCursorUntilTheLastPage() async throws {
    let sut = try SUT()
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page(["e5", "e4"], next: "c1")))
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page(["e3", "e2"], next: "c2")))
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page(["e1"], next: nil)))
    var ids: [String] = []
    for try await page in sut.api.securityEvents(SecurityEventQuery(serverID: "s1", pageSize: 2)) {
      ids += page.items.map(\.id)
    }
    #expect(ids == ["e5", "e4", "e3", "e2", "e1"])
    let urls = await sut.http.received.map(\.url.absoluteString)
    #expect(
      urls == [
        Samples.base + "/api/security/events?server_id=s1&limit=2",
        Samples.base + "/api/security/events?server_id=s1&cursor=c1&limit=2",
        Samples.base + "/api/security/events?server_id=s1&cursor=c2&limit=2",
      ])
    await sut.http.verifyAllConsumed()
  }

  @Test func nothingIsFetchedUntilIterationAndBreakingStopsFetching() async throws {
    let sut = try SUT()
    let pages = sut.api.securityEvents()
    #expect(await sut.http.received.isEmpty)
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page(["e2"], next: "c1")))
    for try await page in pages {
      #expect(page.items.count == 1)
      break
    }
    #expect(await sut.http.received.count == 1)
    await sut.http.verifyAllConsumed()
  }

  @Test func anEmptyFirstPageEndsTheSequence() async throws {
    let sut = try SUT()
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page([], next: nil)))
    var count = 0
    for try await _ in sut.api.securityEvents() { count += 1 }
    #expect(count == 1)
  }

  @Test func aFailedPageThrowsAndEndsTheIteration() async throws {
    let sut = try SUT()
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page(["e2"], next: "c1")))
    await sut.http.expect(
      .get, "/api/security/events", reply: .json(400, "Bad request: invalid cursor"))
    var iterator = sut.api.securityEvents().makeAsyncIterator()
    _ = try await iterator.next()
    let error = try await #require(throws: ServerBeeAPIError.self) { try await iterator.next() }
    #expect(error.code == .badRequest)
    #expect(try await iterator.next() == nil)
    await sut.http.verifyAllConsumed()
  }

  @Test func aRepeatedCursorThrowsInsteadOfLooping() async throws {
    let sut = try SUT()
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page(["e2"], next: "c1")))
    await sut.http.expect(
      .get, "/api/security/events", reply: try Samples.reply(Self.page(["e1"], next: "c1")))
    var iterator = sut.api.securityEvents().makeAsyncIterator()
    _ = try await iterator.next()
    let error = try await #require(throws: ServerBeeAPIError.self) { try await iterator.next() }
    #expect(error.code == .decoding)
  }
}
