public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Traffic, cost and uptime, per server and for the fleet
  /// (`Documentation/Protocol/AppRoutes.md §5`). Every route is read by any member.
  public enum Insights {
    /// `GET /api/servers/{id}/traffic`.
    public static let serverTraffic = APIRoute<PathID, NoBody, ServerTraffic>(
      "serverTraffic", .get, "/api/servers/{id}/traffic", .member,
      summary: "one server's traffic in its billing cycle")
    /// `GET /api/servers/{id}/cost-insights`.
    public static let serverCostInsights = APIRoute<PathID, NoBody, ServerCostInsights>(
      "serverCostInsights", .get, "/api/servers/{id}/cost-insights", .member,
      summary: "what one server costs and what it buys")
    /// `GET /api/servers/{id}/uptime-daily`.
    public static let serverUptimeDaily = APIRoute<PathID, NoBody, [UptimeDay]>(
      "serverUptimeDaily", .get, "/api/servers/{id}/uptime-daily", .member, query: ["days"],
      summary: "one server's uptime day by day")
    /// `GET /api/traffic/overview`.
    public static let trafficOverview = APIRoute<NoPath, NoBody, [ServerTrafficOverview]>(
      "trafficOverview", .get, "/api/traffic/overview", .member,
      summary: "each billed server's traffic this cycle")
    /// `GET /api/traffic/overview/daily`.
    public static let trafficOverviewDaily = APIRoute<NoPath, NoBody, [DailyTraffic]>(
      "trafficOverviewDaily", .get, "/api/traffic/overview/daily", .member, query: ["days"],
      summary: "the fleet's traffic day by day")
    /// `GET /api/cost/overview`.
    public static let costOverview = APIRoute<NoPath, NoBody, CostOverview>(
      "costOverview", .get, "/api/cost/overview", .member,
      summary: "the fleet's spending per currency and per server")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      serverTraffic.erased, serverCostInsights.erased, serverUptimeDaily.erased,
      trafficOverview.erased, trafficOverviewDaily.erased, costOverview.erased,
    ]
  }
}
