import ServerBeeRoutes

extension OptionSpec {
  /// `--width COLUMNS` of a screen.
  fileprivate static let width = OptionSpec(
    name: "width", valueName: "COLUMNS",
    help: "draw this wide (default: the terminal's width, else 100)")
  /// `--svg` of a screen.
  fileprivate static let svg = OptionSpec(
    name: "svg", help: "write the screen as an SVG picture instead of text")
}

extension CommandCatalog {
  /// Screens that gather several routes into one picture (anyone signed in).
  static let screens: [CommandDeclaration] = [
    CommandDeclaration(
      "server", summary: "one server on one screen: live state, charts, traffic, uptime",
      arguments: [.required("SERVER")],
      options: [
        OptionSpec(
          name: "range", valueName: "R", help: "the charts' span: 1h (default), 6h, 24h or 7d"),
        OptionSpec(name: "watch", help: "redraw as the live state changes, until interrupted"),
        OptionSpec(
          name: "interval", valueName: "SECONDS", help: "with --watch: seconds between frames (2)"),
        OptionSpec(
          name: "duration", valueName: "SECONDS", help: "with --watch: stop after this long"),
        .width, .svg,
        .apiKey,
      ],
      discussion: """
        SERVER is an id or a server's name. The heading holds the static facts; then the live \
        state from the stream with bars, charts of CPU, memory, disk and network over the \
        range (GET /api/servers/{id}/records: raw samples below a day, hourly from a day on; \
        gaps where there was no data), the billing cycle's traffic against its limit \
        (GET /api/servers/{id}/traffic), uptime by day (GET /api/servers/{id}/uptime-daily) \
        the service monitors that watch it (GET /api/service-monitors) and, where the server \
        has Docker, its containers with CPU and memory (GET /api/servers/{id}/docker/containers \
        and /stats). \
        From 140 columns on the charts stand two by two. Colour only on a terminal and \
        without NO_COLOR. --json prints the numbers behind the screen; --svg the same \
        drawing as a picture. \(apiKeyNote)
        """,
      examples: [
        "serverbee server web-fra-1", "serverbee server web-fra-1 --range 24h --watch",
        "serverbee server web-fra-1 --json",
        "serverbee server web-fra-1 --svg --width 120 > web.svg",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Servers.records.erased,
        RouteCatalogue.Insights.serverTraffic.erased,
        RouteCatalogue.Insights.serverUptimeDaily.erased,
        RouteCatalogue.ServiceMonitors.serviceMonitors.erased,
        RouteCatalogue.Docker.dockerContainers.erased, RouteCatalogue.Docker.dockerStats.erased,
      ],
      sockets: [RouteCatalogue.Live.fleetStream],
      run: ServerScreenCommand.run),
    CommandDeclaration(
      "insights", summary: "the fleet at a glance: traffic, cost, network, IP quality, incidents",
      options: [
        .width, .svg,
        .apiKey,
      ],
      discussion: """
        One screen of the fleet, each section from one route and the worst rows first: the \
        traffic of every billing cycle against its limit (GET /api/traffic/overview), what \
        the fleet costs per currency and its advisories (GET /api/cost/overview), network \
        probes with their anomalies and latency (GET /api/network-probes/overview), IP \
        quality and streaming unlocks (GET /api/ip-quality/overview), service monitors that \
        are down (GET /api/service-monitors) and open incidents (GET /api/incidents). A section that cannot be read says why and the rest is shown. \
        --json prints each section's answer. \(apiKeyNote)
        """,
      examples: [
        "serverbee insights", "serverbee insights --json",
        "serverbee insights --svg --width 120 > fleet.svg",
      ],
      routes: [
        RouteCatalogue.Insights.trafficOverview.erased, RouteCatalogue.Insights.costOverview.erased,
        RouteCatalogue.NetworkProbes.probeOverview.erased,
        RouteCatalogue.IPQuality.ipQualityOverview.erased,
        RouteCatalogue.ServiceMonitors.serviceMonitors.erased,
        RouteCatalogue.Incidents.incidents.erased,
      ],
      sockets: [RouteCatalogue.Live.fleetStream],
      run: FleetScreenCommand.run),
  ]
}
