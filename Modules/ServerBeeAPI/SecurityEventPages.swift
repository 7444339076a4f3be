public import ServerBeeModels
import ServerBeeTransport

/// The pages of `GET /api/security/events`, fetched one at a time as they are iterated.
///
/// The first page is requested without a cursor; each later one with the previous page's
/// `next_cursor`, sent back unchanged. Iteration ends after the page whose `next_cursor` is
/// `null`. Nothing is fetched until the first `next()`, and each iteration starts again from
/// the first page. A failed request ends the iteration by throwing ``ServerBeeAPIError``; a
/// server that repeats a cursor throws `.decoding` instead of looping.
///
/// ```swift
/// var seen = 0
/// for try await page in api.securityEvents(SecurityEventQuery(serverID: id)) {
///   seen += page.items.count
///   if seen >= 500 { break }  // stop early: no further page is requested
/// }
/// ```
public struct SecurityEventPages: AsyncSequence, Sendable {
  /// One page of events.
  public typealias Element = SecurityEventPage

  let client: ServerBeeAPIClient
  let query: SecurityEventQuery

  /// Fetches the pages in order.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let client: ServerBeeAPIClient
    let query: SecurityEventQuery
    var cursor: String?
    var isFinished = false

    /// Fetches the next page.
    /// - Returns: The page, or `nil` after the last one.
    /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
    public mutating func next() async throws -> SecurityEventPage? {
      guard !isFinished else { return nil }
      // Finished until proven otherwise: a throw ends the sequence too.
      isFinished = true
      let page = try await client.securityEventPage(query, cursor: cursor)
      if let next = page.nextCursor {
        guard next != cursor else {
          throw ServerBeeAPIError(
            .decoding, "GET /api/security/events: the server repeated the page cursor")
        }
        cursor = next
        isFinished = false
      }
      return page
    }
  }

  /// Starts an iteration from the first page.
  /// - Returns: The iterator.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(client: client, query: query)
  }
}
