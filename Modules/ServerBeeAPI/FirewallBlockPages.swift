public import ServerBeeModels
import ServerBeeTransport

/// The pages of `GET /api/firewall/blocks`, fetched one at a time as they are iterated, with
/// every entry exactly once.
///
/// The server's `next_cursor` is the time of the first entry it left out, and its next page
/// starts strictly before that time, so followed as it is, every page boundary would lose that
/// entry and any other of the same instant (Protocol/Firewall.md §2.1). These pages send the
/// cursor moved one nanosecond later instead, and leave out of each page the entries an earlier
/// page already gave. When more than a page of entries share one instant, the moved cursor
/// cannot get past them; the next request then sends the server's cursor unchanged, and the
/// rest of that instant is lost as on the server itself. A cursor that is not a time is sent
/// back unchanged.
///
/// Nothing is fetched until the first `next()`, and each iteration starts again from the first
/// page. A failed request ends the iteration by throwing ``ServerBeeAPIError``; a server that
/// repeats a cursor it was sent throws `.decoding` instead of looping.
///
/// ```swift
/// var count = 0
/// for try await page in api.firewallBlocks(FirewallBlockQuery(origin: .auto)) {
///   count += page.items.count
/// }
/// print("\(count) entries made by rules")
/// ```
public struct FirewallBlockPages: AsyncSequence, Sendable {
  /// One page of entries (its `next_cursor` is the server's, unchanged).
  public typealias Element = FirewallBlockPage

  let client: ServerBeeAPIClient
  let query: FirewallBlockQuery

  /// Fetches the pages in order.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let client: ServerBeeAPIClient
    let query: FirewallBlockQuery
    /// What the next request sends.
    var cursor: String?
    /// Whether ``cursor`` is the server's cursor as it came (the fallback), not a moved one.
    var sendsServerCursor = false
    /// Entries already given that the next page may repeat (those at or after its cursor's
    /// instant), with their times.
    var given: [String: RFC3339Timestamp] = [:]
    /// The instant of the server's previous cursor.
    var previousInstant: RFC3339Timestamp?
    var isFinished = false

    /// Fetches the next page.
    /// - Returns: The page without the entries an earlier page gave, or `nil` after the last.
    /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
    public mutating func next() async throws -> FirewallBlockPage? {
      guard !isFinished else { return nil }
      // Finished until proven otherwise: a throw ends the sequence too.
      isFinished = true
      let sent = cursor
      let page = try await client.firewallBlockPage(query, cursor: sent)
      let fresh = page.items.filter { given[$0.id] == nil }
      guard let next = page.nextCursor else {
        return FirewallBlockPage(items: fresh, nextCursor: nil)
      }
      for block in page.items { given[block.id] = block.createdAt }
      guard let instant = try? RFC3339Timestamp(parsing: next) else {
        try advance(to: next, sent: sent, moved: false)
        return FirewallBlockPage(items: fresh, nextCursor: next)
      }
      // Only entries of the cursor's instant or later can come again.
      given = given.filter { $0.value >= instant }
      defer { previousInstant = instant }
      if instant == previousInstant {
        // The moved cursor brought back the same boundary: more than a page of entries share
        // this instant. Step over it as the server does; after that, the server is looping.
        guard !sendsServerCursor else { throw Self.repeated }
        try advance(to: next, sent: sent, moved: false)
      } else {
        let moved = RFC3339Timestamp(
          secondsSince1970: instant.secondsSince1970, nanoseconds: instant.nanoseconds + 1,
          style: .utcOffset)
        try advance(to: moved.formatted(.utcOffset), sent: sent, moved: true)
      }
      return FirewallBlockPage(items: fresh, nextCursor: next)
    }

    private static let repeated = ServerBeeAPIError(
      .decoding, "GET /api/firewall/blocks: the server repeated the page cursor")

    private mutating func advance(to cursor: String, sent: String?, moved: Bool) throws {
      guard cursor != sent else { throw Self.repeated }
      self.cursor = cursor
      sendsServerCursor = !moved
      isFinished = false
    }
  }

  /// Starts an iteration from the first page.
  /// - Returns: The iterator.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(client: client, query: query)
  }
}
