public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

// Traffic, cost and uptime, per server and for the fleet (Protocol/AppRoutes.md §5). Any member
// may read them, with a mobile session or an API key.

extension ServerBeeAPIClient {
  /// `GET /api/servers/{id}/traffic`: one server's traffic in its current billing cycle, with
  /// its days and today's hours.
  ///
  /// ```swift
  /// let traffic = try await api.traffic(serverID: server.id)
  /// print(traffic.bytesTotal, "bytes since", traffic.cycleStart)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The cycle's traffic.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id, `.notFound` for an
  ///   unknown server. Or `CancellationError`.
  public func traffic(serverID: String) async throws -> ServerTraffic {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.Insights.serverTraffic, PathID(serverID))
  }

  /// `GET /api/servers/{id}/cost-insights`: what one server costs and what its price buys.
  ///
  /// ```swift
  /// let cost = try await api.costInsights(serverID: server.id)
  /// if !cost.configured { print("set a price and a billing cycle first") }
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The insights; unconfigured servers say why in `invalidReason`.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id, `.notFound` for an
  ///   unknown server. Or `CancellationError`.
  public func costInsights(serverID: String) async throws -> ServerCostInsights {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.Insights.serverCostInsights, PathID(serverID))
  }

  /// `GET /api/servers/{id}/uptime-daily?days=N`: exactly `days` days, oldest first, ending
  /// today (UTC), days without data all zero.
  ///
  /// ```swift
  /// let month = try await api.uptimeDaily(serverID: server.id, days: 30)
  /// let down = month.filter { $0.downtimeIncidents > 0 }.map(\.date)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - days: 1 to 365 (the server's default, 90, when `nil`).
  /// - Returns: One entry a day.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id or `days` outside 1 to
  ///   365 (checked before sending, with the server's own limits), `.notFound` for an unknown
  ///   server. Or `CancellationError`.
  public func uptimeDaily(serverID: String, days: Int? = nil) async throws -> [UptimeDay] {
    try Self.requireNonEmpty(serverID, "the server id")
    if let days, !(1...365).contains(days) {
      throw ServerBeeAPIError(.invalidArgument, "days must be between 1 and 365, not \(days)")
    }
    return try await send(
      RouteCatalogue.Insights.serverUptimeDaily, PathID(serverID),
      query: [("days", days.map(String.init))])
  }

  /// `GET /api/traffic/overview`: this cycle's traffic of every server that has a billing
  /// cycle, in no set order. `percentUsed` counts both directions, whatever the limit type.
  ///
  /// ```swift
  /// for server in try await api.trafficOverview() where (server.percentUsed ?? 0) > 80 {
  ///   print(server.name, "has used", server.percentUsed ?? 0, "%")
  /// }
  /// ```
  /// - Returns: One entry per billed server.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func trafficOverview() async throws -> [ServerTrafficOverview] {
    try await send(RouteCatalogue.Insights.trafficOverview)
  }

  /// `GET /api/traffic/overview/daily?days=N`: the fleet's traffic per day for the days from
  /// today − `days` to today, oldest first; days without data are left out, not zero.
  ///
  /// ```swift
  /// let fortnight = try await api.dailyTraffic(days: 14)
  /// ```
  /// - Parameter days: How far back (the server's default, 30, when `nil`; no upper limit).
  /// - Returns: Up to `days` + 1 days.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for a negative `days`. Or
  ///   `CancellationError`.
  public func dailyTraffic(days: Int? = nil) async throws -> [DailyTraffic] {
    if let days, days < 0 {
      throw ServerBeeAPIError(.invalidArgument, "days must not be negative, not \(days)")
    }
    return try await send(
      RouteCatalogue.Insights.trafficOverviewDaily, query: [("days", days.map(String.init))])
  }

  /// `GET /api/cost/overview`: spending per currency (never added across currencies) and every
  /// server's figures, sorted by name then id.
  ///
  /// ```swift
  /// let overview = try await api.costOverview()
  /// let unpriced = overview.servers.filter { !$0.configured }.map(\.name)
  /// ```
  /// - Returns: The overview.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func costOverview() async throws -> CostOverview {
    try await send(RouteCatalogue.Insights.costOverview)
  }
}
