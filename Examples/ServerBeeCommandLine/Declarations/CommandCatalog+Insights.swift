import ServerBeeRoutes

extension CommandCatalog {
  /// Traffic, cost and uptime (anyone signed in).
  static let insights: [CommandDeclaration] = [
    CommandDeclaration(
      "traffic", summary: "traffic in the billing cycle: one server, or the fleet",
      arguments: [.optional("SERVER")],
      options: [
        OptionSpec(
          name: "days", valueName: "N",
          help: "without SERVER: the fleet's last N days (default 14)"),
        .apiKey,
      ],
      discussion: """
        With SERVER (an id or a server's name): its billing cycle, bytes in and out against \
        its limit (counting what the limit type says), where it is heading, and its days \
        (GET /api/servers/{id}/traffic). Without: every server with a billing cycle, the \
        limit share counting both directions (GET /api/traffic/overview), and the fleet's \
        days (GET /api/traffic/overview/daily). Days are UTC. \(apiKeyNote)
        """,
      examples: [
        "serverbee traffic web-fra-1", "serverbee traffic --days 30",
        "serverbee traffic web-fra-1 --json",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Insights.serverTraffic.erased,
        RouteCatalogue.Insights.trafficOverview.erased,
        RouteCatalogue.Insights.trafficOverviewDaily.erased,
      ],
      run: InsightCommands.traffic),
    CommandDeclaration(
      "cost", summary: "what servers cost: one server, or the fleet per currency",
      arguments: [.optional("SERVER")], options: [.apiKey],
      discussion: """
        With SERVER (an id or a server's name): its price per month, day and hour, how much \
        of its billing cycle is spent, what a month buys per CPU core, GiB and TiB, and its \
        advisories (GET /api/servers/{id}/cost-insights). Without: totals per currency, never \
        added across currencies, and each server (GET /api/cost/overview). A server needs a \
        price and a billing cycle ('serverbee servers edit SERVER --price P --billing-cycle \
        monthly'). \(apiKeyNote)
        """,
      examples: ["serverbee cost", "serverbee cost web-fra-1", "serverbee cost --json"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Insights.serverCostInsights.erased,
        RouteCatalogue.Insights.costOverview.erased,
      ],
      run: InsightCommands.cost),
    CommandDeclaration(
      "uptime", summary: "one server's uptime, day by day",
      arguments: [.required("SERVER")],
      options: [
        OptionSpec(name: "days", valueName: "N", help: "how many days, 1–365 (default 30)"),
        .apiKey,
      ],
      discussion: """
        Prints one mark a day, oldest first and ending today (UTC), the share of minutes \
        online and the days with outages (GET /api/servers/{id}/uptime-daily). SERVER is an \
        id or a server's name. \(apiKeyNote)
        """,
      examples: ["serverbee uptime web-fra-1", "serverbee uptime web-fra-1 --days 90 --json"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Insights.serverUptimeDaily.erased,
      ],
      run: InsightCommands.uptime),
  ]
}
