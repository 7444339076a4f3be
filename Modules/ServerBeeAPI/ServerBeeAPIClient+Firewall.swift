public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/firewall/blocks`, page by page, newest first, every entry exactly once
  /// (Protocol/Firewall.md §2). Any member may list the blocklist.
  ///
  /// The server's own cursor loses an entry at every page boundary; these pages move it so
  /// nothing is lost (see ``FirewallBlockPages``).
  ///
  /// ```swift
  /// for try await page in api.firewallBlocks(FirewallBlockQuery(origin: .auto)) {
  ///   for block in page.items { print(block.target, block.createdAt) }
  /// }
  /// ```
  /// - Parameter query: Filters and page size; every entry by default.
  /// - Returns: A sequence that fetches one page per iteration step.
  public func firewallBlocks(_ query: FirewallBlockQuery = FirewallBlockQuery())
    -> FirewallBlockPages
  {
    FirewallBlockPages(client: self, query: query)
  }

  /// Every blocklist entry that matches `query`, newest first, each once: every page of
  /// ``firewallBlocks(_:)`` joined.
  ///
  /// ```swift
  /// let manual = try await api.allFirewallBlocks(FirewallBlockQuery(origin: .manual))
  /// ```
  /// - Parameter query: Filters and page size (200 a page is the fewest requests).
  /// - Returns: The entries.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func allFirewallBlocks(_ query: FirewallBlockQuery = FirewallBlockQuery()) async throws
    -> [FirewallBlock]
  {
    var blocks: [FirewallBlock] = []
    for try await page in firewallBlocks(query) { blocks += page.items }
    return blocks
  }

  /// `GET /api/firewall/blocks?cursor=…`: one page of the blocklist as the server answers it
  /// (Protocol/Firewall.md §2). The cursor is a `+00:00` time and is sent with `+` as `%2B`.
  ///
  /// ```swift
  /// let first = try await api.firewallBlockPage(FirewallBlockQuery(pageSize: 100))
  /// if let cursor = first.nextCursor {
  ///   // Strictly older than `cursor`: the entry at `cursor` itself is on neither page.
  ///   let second = try await api.firewallBlockPage(FirewallBlockQuery(pageSize: 100), cursor: cursor)
  /// }
  /// ```
  /// - Parameters:
  ///   - query: Filters and page size.
  ///   - cursor: A time (a previous page's `next_cursor`); `nil` for the first page.
  /// - Returns: The page.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for a page size outside 1…200
  ///   (checked before sending), `.badRequest` for a cursor the server cannot read. Or
  ///   `CancellationError`.
  public func firewallBlockPage(
    _ query: FirewallBlockQuery = FirewallBlockQuery(), cursor: String? = nil
  ) async throws -> FirewallBlockPage {
    try await send(RouteCatalogue.Firewall.firewallBlocks, query: try query.items(cursor: cursor))
  }

  /// `POST /api/firewall/blocks`: blocks an address or network (Protocol/Firewall.md §4).
  /// **Admin only**. The server makes the target canonical (`203.0.113.7` →
  /// `203.0.113.7/32`, host bits of a CIDR cleared) and sends it to the covered agents.
  ///
  /// ```swift
  /// do {
  ///   let block = try await api.createFirewallBlock(
  ///     FirewallBlockRequest(target: event.sourceIP, comment: "from event \(event.id)"))
  ///   print("blocked", block.target)
  /// } catch let error as ServerBeeAPIError {
  ///   if case .alreadyBlocked? = error.firewallBlockRefusal { return }
  ///   throw error
  /// }
  /// ```
  /// - Parameter request: The target, and optionally its scope and a comment.
  /// - Returns: The new entry (origin `manual`).
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty target (checked before
  ///   sending); `.badRequest` for a target that is no address or CIDR, `.conflict` for a
  ///   guard-rail range, an allow-listed address or a duplicate (`firewallBlockRefusal` on
  ///   the error says which); `.forbidden` for a member. Or `CancellationError`.
  public func createFirewallBlock(_ request: FirewallBlockRequest) async throws -> FirewallBlock {
    try Self.requireNonEmpty(request.target, "the target to block")
    return try await send(RouteCatalogue.Firewall.createFirewallBlock, body: request)
  }

  /// `DELETE /api/firewall/blocks/{id}`: removes a blocklist entry, and the agents unblock it
  /// (Protocol/Firewall.md §5). **Admin only**.
  ///
  /// ```swift
  /// try await api.deleteFirewallBlock(id: block.id)
  /// ```
  /// - Parameter id: The entry id.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound` for an unknown id, `.forbidden` for a
  ///   member), or `CancellationError`.
  public func deleteFirewallBlock(id: String) async throws {
    try Self.requireNonEmpty(id, "the blocklist entry id")
    _ = try await send(RouteCatalogue.Firewall.deleteFirewallBlock, PathID(id))
  }

  /// `GET /api/firewall/stats`: how many entries there are, by origin and address family
  /// (Protocol/Firewall.md §6). Any member.
  ///
  /// ```swift
  /// let stats = try await api.firewallStats()
  /// print("\(stats.total) blocked: \(stats.manual) by hand, \(stats.auto) by rules")
  /// ```
  /// - Returns: The counts.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func firewallStats() async throws -> FirewallStats {
    try await send(RouteCatalogue.Firewall.firewallStats)
  }
}
