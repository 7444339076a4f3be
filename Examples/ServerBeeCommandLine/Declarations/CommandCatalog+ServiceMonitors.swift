import ServerBeeRoutes

extension CommandCatalog {
  /// Service monitors (reading: anyone signed in; a check now: admins;
  /// Protocol/AppRoutes.md §11). `monitors MONITOR check` is `monitors check MONITOR`.
  static let serviceMonitors: [CommandDeclaration] = [
    CommandDeclaration(
      "monitors", summary: "service monitors: all, or one with its recent checks",
      arguments: [.optional("MONITOR")],
      options: [
        OptionSpec(
          name: "type", valueName: "T", help: "only ssl, dns, http_keyword, tcp or whois monitors"),
        OptionSpec(name: "limit", valueName: "N", help: "with MONITOR, its N latest checks (20)"),
      ],
      discussion: """
        Without MONITOR, one line per monitor, oldest first (GET /api/service-monitors): its \
        type, target, whether it is up, down or never checked, failures in a row, interval \
        and latest check. With MONITOR (its id or its name), the monitor \
        (GET /api/service-monitors/{id}), its latest checks newest first \
        (GET /api/service-monitors/{id}/records) and how many passed. With --json, the \
        monitors, or {"monitor", "records"}. \(apiKeyNote)
        """,
      examples: [
        "serverbee monitors", "serverbee monitors --type ssl",
        "serverbee monitors 'Status page' --limit 50", "serverbee monitors tcp-database --json",
      ],
      routes: [
        RouteCatalogue.ServiceMonitors.serviceMonitors.erased,
        RouteCatalogue.ServiceMonitors.serviceMonitor.erased,
        RouteCatalogue.ServiceMonitors.serviceMonitorRecords.erased,
      ], run: ServiceMonitorCommands.show),
    CommandDeclaration(
      "monitors check", summary: "check a service monitor now (admins)",
      arguments: [.required("MONITOR")],
      discussion: """
        Runs MONITOR's check now and waits for it (POST /api/service-monitors/{id}/check); \
        prints whether it is up with its latency, or down with the reason. The server updates \
        the monitor's state. Ends with 0 either way once the check ran; with 1 and a sentence \
        when it could not run. Written 'serverbee monitors MONITOR check'. \(apiKeyNote)
        """,
      examples: [
        "serverbee monitors tcp-database check", "serverbee monitors 'Status page' check --json",
      ],
      routes: [
        RouteCatalogue.ServiceMonitors.serviceMonitors.erased,
        RouteCatalogue.ServiceMonitors.checkServiceMonitor.erased,
      ], run: ServiceMonitorCommands.check),
  ]
}
