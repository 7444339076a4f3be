import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

/// Traffic, cost and uptime (Protocol/AppRoutes.md §5), per server and for the fleet; any
/// member reads them. The numbers come from ``InsightsHistory`` (a pure function of server,
/// day and the simulator clock) and the servers' billing columns, so the per-server and fleet
/// views agree and a fixed clock gives fixed answers. No tables of its own.
struct InsightsArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Insights.serverTraffic, Self.serverTraffic),
    route(RouteCatalogue.Insights.serverCostInsights, Self.serverCostInsights),
    route(RouteCatalogue.Insights.serverUptimeDaily, Self.serverUptimeDaily),
    route(RouteCatalogue.Insights.trafficOverview, Self.trafficOverview),
    route(RouteCatalogue.Insights.trafficOverviewDaily, Self.trafficOverviewDaily),
    route(RouteCatalogue.Insights.costOverview, Self.costOverview),
  ]

  static let controlRoutes: [Route] = []

  static let migrations: [Migration] = []

  /// The server of the path, or the documented 404.
  func pathServer(_ context: RequestContext) throws -> ServerRow {
    guard let row = try core.server(id: context.parameter(0)) else {
      throw APIError.notFound("Server not found")
    }
    return row
  }

  /// The history of `row` on the simulator clock.
  func history(_ row: ServerRow) -> InsightsHistory {
    InsightsHistory(serverID: row.id, createdAt: row.createdAt, now: now)
  }
}

extension JSONValue {
  /// A number, or `null`.
  static func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }

  /// An integer, or `null`.
  static func integer(_ value: (some BinaryInteger)?) -> JSONValue {
    value.map { .number(Double($0)) } ?? .null
  }

  /// A string, or `null`.
  static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

  /// A `YYYY-MM-DD` date, or `null`.
  static func date(_ value: CalendarDate?) -> JSONValue { text(value?.description) }
}
