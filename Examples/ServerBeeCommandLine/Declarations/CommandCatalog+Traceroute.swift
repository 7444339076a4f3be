import ServerBeeRoutes

extension CommandCatalog {
  /// Traceroutes from a server's agent (history: anyone signed in; starting, deleting and
  /// clearing: admins; Protocol/AppRoutes.md §7). The server comes before the sub-command
  /// (`traceroute SERVER history`); `traceroute history SERVER` is the same command.
  static let traceroute: [CommandDeclaration] = [
    CommandDeclaration(
      "traceroute", summary: "trace a route from a server's agent, hop by hop (admins)",
      arguments: [.required("SERVER"), .required("TARGET")],
      options: [
        OptionSpec(name: "protocol", valueName: "P", help: "icmp (the default), udp or tcp")
      ],
      discussion: """
        Starts a traceroute to TARGET (a host name or an address) on SERVER's agent \
        (POST /api/servers/{id}/traceroute) and prints each hop as it arrives, polling the \
        run every 2 s, at most 30 times, as the app does. Ends with 0 when the run is done; \
        with 1 and a sentence when the agent is offline, the run fails or does not finish in \
        time. With --json, prints the finished run. Only admins may start one. \(apiKeyNote)
        """,
      examples: [
        "serverbee traceroute web-1 example.com",
        "serverbee traceroute web-1 1.1.1.1 --protocol tcp",
        "serverbee traceroute web-1 example.com --json",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Traceroute.startTraceroute.erased,
        RouteCatalogue.Traceroute.traceroute.erased,
      ], run: TracerouteCommands.run),
    CommandDeclaration(
      "traceroute history", summary: "a server's traceroutes, newest first",
      arguments: [.required("SERVER")],
      options: [OptionSpec(name: "limit", valueName: "N", help: "at most N runs (20)")],
      discussion: """
        Lists GET /api/servers/{id}/traceroute: each run's id, target, protocol, start, hops \
        and whether it is running, done or failed. Written 'serverbee traceroute SERVER \
        history'. \(apiKeyNote)
        """,
      examples: [
        "serverbee traceroute web-1 history", "serverbee traceroute web-1 history --json",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Traceroute.tracerouteHistory.erased,
      ], run: TracerouteCommands.history),
    CommandDeclaration(
      "traceroute delete", summary: "delete one traceroute (admins)",
      arguments: [.required("SERVER"), .required("ID")],
      discussion: """
        Deletes one run (DELETE /api/servers/{id}/traceroute/{request_id}). Written \
        'serverbee traceroute SERVER delete ID'. Asks first on a terminal; without one, --yes \
        is needed. \(apiKeyNote)
        """,
      examples: [
        "serverbee traceroute web-1 delete 6f1c…", "serverbee traceroute web-1 delete 6f1c… --yes",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Traceroute.deleteTraceroute.erased,
      ],
      confirm: { "Delete traceroute \($0.count > 1 ? $0[1] : "") of \($0.first ?? "")?" },
      run: TracerouteCommands.delete),
    CommandDeclaration(
      "traceroute clear", summary: "delete a server's traceroute history (admins)",
      arguments: [.required("SERVER")],
      discussion: """
        Deletes every run of SERVER (DELETE /api/servers/{id}/traceroute) and says how many. \
        Written 'serverbee traceroute SERVER clear'. Asks first on a terminal; without one, \
        --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee traceroute web-1 clear", "serverbee traceroute web-1 clear --yes"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Traceroute.clearTraceroutes.erased,
      ],
      confirm: { "Delete every traceroute of \($0.first ?? "")?" },
      run: TracerouteCommands.clear),
  ]
}
