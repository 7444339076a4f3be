import ServerBeeRoutes

extension CommandCatalog {
  private static let serversOption = OptionSpec(
    name: "servers", valueName: "IDS", help: "comma-separated server ids (else every server)")
  private static let onOff = "yes or no"

  /// Maintenance windows, incidents and the status page (admins; reading the status page:
  /// anyone signed in).
  static let incidents: [CommandDeclaration] = [
    CommandDeclaration(
      "maintenance", summary: "maintenance windows, newest first (admins)", options: [.apiKey],
      discussion: """
        Lists GET /api/maintenances: title, start, end, covered servers, whether active and \
        public. An active window silences alerts for its servers while it runs. \(apiKeyNote)
        """,
      examples: ["serverbee maintenance", "serverbee maintenance --json"],
      routes: [RouteCatalogue.Incidents.maintenances.erased], run: MaintenanceCommands.list),
    CommandDeclaration(
      "maintenance create", summary: "schedule a maintenance window (admins)",
      arguments: [.required("TITLE")],
      options: [
        OptionSpec(name: "start", valueName: "TIME", help: "start, RFC 3339 (required)"),
        OptionSpec(name: "end", valueName: "TIME", help: "end, after the start (required)"),
        OptionSpec(name: "description", valueName: "TEXT", help: "free text"),
        serversOption,
        OptionSpec(name: "public", valueName: nil, help: "show it on the status page"),
        OptionSpec(name: "inactive", valueName: nil, help: "do not silence alerts"),
        .apiKey,
      ],
      discussion: """
        Schedules a window; while it is active and running, no alert is sent for the servers \
        it covers. Times are RFC 3339, such as 2026-12-06T02:00:00Z. \(apiKeyNote)
        """,
      examples: [
        "serverbee maintenance create 'Kernel upgrade' --start 2026-12-06T02:00:00Z "
          + "--end 2026-12-06T03:00:00Z --servers 5f0c…,9a1b…"
      ],
      routes: [RouteCatalogue.Incidents.createMaintenance.erased],
      run: MaintenanceCommands.create),
    CommandDeclaration(
      "maintenance edit", summary: "change a maintenance window (admins)",
      arguments: [.required("ID")],
      options: [
        OptionSpec(name: "title", valueName: "TEXT", help: "a new title"),
        OptionSpec(name: "description", valueName: "TEXT", help: "a new description ('' blanks)"),
        OptionSpec(name: "start", valueName: "TIME", help: "a new start, RFC 3339"),
        OptionSpec(name: "end", valueName: "TIME", help: "a new end, RFC 3339"),
        OptionSpec(
          name: "servers", valueName: "IDS", help: "comma-separated server ids ('' for every one)"
        ),
        OptionSpec(name: "public", valueName: "YES|NO", help: "show it on the status page"),
        OptionSpec(name: "active", valueName: "YES|NO", help: "whether it silences alerts"),
        .apiKey,
      ],
      discussion: """
        Changes only what is given. The server keeps a value sent empty as empty: \
        --description '' blanks the description, --servers '' covers every server again; the \
        times are not checked again. \(apiKeyNote)
        """,
      examples: [
        "serverbee maintenance edit 4b3a… --end 2026-12-06T04:00:00Z",
        "serverbee maintenance edit 4b3a… --description '' --active no",
      ],
      routes: [RouteCatalogue.Incidents.updateMaintenance.erased], run: MaintenanceCommands.edit),
    CommandDeclaration(
      "maintenance delete", summary: "delete a maintenance window (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Deletes the window; alerts for its servers are sent again. Asks first on a terminal; \
        without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee maintenance delete 4b3a…", "serverbee maintenance delete 4b3a… --yes"],
      routes: [RouteCatalogue.Incidents.deleteMaintenance.erased],
      confirm: { "Delete maintenance window \($0.first ?? "")? Its servers alert again." },
      run: MaintenanceCommands.delete),
    CommandDeclaration(
      "incidents", summary: "incidents, newest first (admins)",
      options: [
        OptionSpec(
          name: "status", valueName: "S",
          help: "only investigating, identified, monitoring or resolved"),
        .apiKey,
      ],
      discussion: "Lists GET /api/incidents, newest first. \(apiKeyNote)",
      examples: ["serverbee incidents", "serverbee incidents --status resolved --json"],
      routes: [RouteCatalogue.Incidents.incidents.erased], run: IncidentCommands.list),
    CommandDeclaration(
      "incidents create", summary: "open an incident (admins)", arguments: [.required("TITLE")],
      options: [
        OptionSpec(name: "status", valueName: "S", help: "the first status (investigating)"),
        OptionSpec(name: "severity", valueName: "S", help: "minor, major or critical (minor)"),
        serversOption,
        OptionSpec(name: "public", valueName: nil, help: "show it on the status page"),
        .apiKey,
      ],
      discussion: "Opens an incident. \(apiKeyNote)",
      examples: ["serverbee incidents create 'API latency' --severity major --public"],
      routes: [RouteCatalogue.Incidents.createIncident.erased], run: IncidentCommands.create),
    CommandDeclaration(
      "incidents update", summary: "post an update that sets an incident's status (admins)",
      arguments: [.required("ID")],
      options: [
        OptionSpec(
          name: "status", valueName: "S",
          help: "investigating, identified, monitoring or resolved (required)"),
        OptionSpec(name: "message", valueName: "TEXT", help: "the update's text (required)"),
        .apiKey,
      ],
      discussion: """
        Posts an update and sets the incident's status; resolved stamps the resolution time \
        (again, each time). \(apiKeyNote)
        """,
      examples: ["serverbee incidents update 6f1d… --status resolved --message 'Fixed.'"],
      routes: [RouteCatalogue.Incidents.postIncidentUpdate.erased], run: IncidentCommands.update),
    CommandDeclaration(
      "incidents delete", summary: "delete an incident with its updates (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Deletes the incident and its updates. Asks first on a terminal; without one, --yes is \
        needed. \(apiKeyNote)
        """,
      examples: ["serverbee incidents delete 6f1d…", "serverbee incidents delete 6f1d… --yes"],
      routes: [RouteCatalogue.Incidents.deleteIncident.erased],
      confirm: { "Delete incident \($0.first ?? ""), with its updates?" },
      run: IncidentCommands.delete),
    CommandDeclaration(
      "status-page", summary: "the status page's settings", options: [.apiKey],
      discussion: "Shows GET /api/status-page, as 'status-page show' does. \(apiKeyNote)",
      examples: ["serverbee status-page", "serverbee status-page --json"],
      routes: [RouteCatalogue.Incidents.statusPage.erased], run: StatusPageCommands.show),
    CommandDeclaration(
      "status-page show", summary: "the status page's settings", options: [.apiKey],
      discussion: "Shows GET /api/status-page: title, servers, thresholds, sections. \(apiKeyNote)",
      examples: ["serverbee status-page show"],
      routes: [RouteCatalogue.Incidents.statusPage.erased], run: StatusPageCommands.show),
    CommandDeclaration(
      "status-page set", summary: "change the status page's settings (admins)",
      options: [
        OptionSpec(name: "title", valueName: "TEXT", help: "the title"),
        OptionSpec(name: "description", valueName: "TEXT", help: "the description ('' blanks)"),
        OptionSpec(
          name: "servers", valueName: "IDS", help: "comma-separated server ids ('' for none)"),
        OptionSpec(name: "enabled", valueName: "YES|NO", help: "whether the page is served"),
        OptionSpec(name: "yellow", valueName: "PCT", help: "uptime below which a server is yellow"),
        OptionSpec(name: "red", valueName: "PCT", help: "uptime below which a server is red"),
        OptionSpec(name: "layout", valueName: "L", help: "list or grid"),
        OptionSpec(name: "ip-quality", valueName: "YES|NO", help: "show IP quality"),
        OptionSpec(name: "server-detail", valueName: "YES|NO", help: "show server details"),
        OptionSpec(name: "network", valueName: "YES|NO", help: "show network probes"),
        OptionSpec(name: "incidents", valueName: "YES|NO", help: "show public incidents"),
        OptionSpec(name: "maintenance", valueName: "YES|NO", help: "show public maintenance"),
        .apiKey,
      ],
      discussion: """
        Changes only what is given and prints the result. The server stores values as given \
        (no check of thresholds or layout); --description '' blanks the description. \
        Switches take \(onOff). \(apiKeyNote)
        """,
      examples: [
        "serverbee status-page set --title 'Acme status' --enabled yes --servers 5f0c…,9a1b…",
        "serverbee status-page set --description ''",
      ],
      routes: [RouteCatalogue.Incidents.updateStatusPage.erased], run: StatusPageCommands.set),
  ]
}
