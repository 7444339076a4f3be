import ServerBeeRoutes

extension CommandCatalog {
  private static let probeRange = OptionSpec(
    name: "range", valueName: "R",
    help: "the window up to now: 1h, 6h, 24h or 7d (records: 1h, anomalies: 24h)")
  private static let probeTargetOptions: [OptionSpec] = [
    OptionSpec(name: "target", valueName: "X", help: "a host, host:port (tcp) or a URL (http)"),
    OptionSpec(name: "type", valueName: "T", help: "icmp, tcp or http"),
    OptionSpec(name: "provider", valueName: "P", help: "who runs the host"),
    OptionSpec(name: "location", valueName: "L", help: "where the host is"),
  ]

  /// Network probes (reading: anyone signed in; targets and settings changes: admins).
  static let networkProbes: [CommandDeclaration] = [
    CommandDeclaration(
      "probes", summary: "network probes: one server's targets, records, anomalies; or the fleet",
      arguments: [.optional("SERVER"), .optional("VIEW")],
      options: [
        probeRange,
        OptionSpec(name: "target", valueName: "ID", help: "records: only this target's"),
        .apiKey,
      ],
      discussion: """
        Without SERVER: every server's latest latency and loss, anomalies of the last 24 hours \
        and a latency sparkline (GET /api/network-probes/overview). With SERVER (an id or a \
        server's name): each target's latest latency, loss and availability (GET \
        /api/servers/{id}/network-probes/summary). VIEW 'records' lists the records of --range \
        (raw under a day, hourly from 24h on; GET …/network-probes/records), VIEW 'anomalies' \
        the anomalies, newest first (GET …/network-probes/anomalies). \(apiKeyNote)
        """,
      examples: [
        "serverbee probes", "serverbee probes web-fra-1",
        "serverbee probes web-fra-1 records --range 6h --target preset-google-dns",
        "serverbee probes web-fra-1 anomalies --range 7d --json",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased,
        RouteCatalogue.NetworkProbes.probeOverview.erased,
        RouteCatalogue.NetworkProbes.serverProbeSummary.erased,
        RouteCatalogue.NetworkProbes.serverProbeRecords.erased,
        RouteCatalogue.NetworkProbes.serverProbeAnomalies.erased,
      ],
      run: NetworkProbeCommands.probes),
    CommandDeclaration(
      "probes targets", summary: "every probe target, presets first", options: [.apiKey],
      discussion: """
        Lists GET /api/network-probes/targets: presets (built in, fixed) first, then custom \
        targets by name. \(apiKeyNote)
        """,
      examples: ["serverbee probes targets", "serverbee probes targets --json"],
      routes: [RouteCatalogue.NetworkProbes.probeTargets.erased],
      run: NetworkProbeCommands.targets),
    CommandDeclaration(
      "probes targets create", summary: "add a custom probe target (admins)",
      arguments: [.required("NAME")], options: probeTargetOptions + [.apiKey],
      discussion: """
        Adds a target every server can probe. --target and --type are required; --provider \
        and --location default to empty. The server refuses a target that is a literal \
        loopback, link-local, metadata, NAT64 or broadcast address. \(apiKeyNote)
        """,
      examples: [
        "serverbee probes targets create Office --target office.example.com --type icmp",
        "serverbee probes targets create Shop --target https://shop.example.com --type http "
          + "--provider Hetzner --location Falkenstein",
      ],
      routes: [RouteCatalogue.NetworkProbes.createProbeTarget.erased],
      run: NetworkProbeCommands.createTarget),
    CommandDeclaration(
      "probes targets edit", summary: "change a custom probe target (admins)",
      arguments: [.required("ID")],
      options: [OptionSpec(name: "name", valueName: "N", help: "a new name")]
        + probeTargetOptions + [.apiKey],
      discussion: """
        Changes only what is given; presets cannot be changed. \(apiKeyNote)
        """,
      examples: ["serverbee probes targets edit 8d5e… --name HQ --type tcp --target hq:443"],
      routes: [RouteCatalogue.NetworkProbes.updateProbeTarget.erased],
      run: NetworkProbeCommands.editTarget),
    CommandDeclaration(
      "probes targets delete", summary: "delete a custom probe target (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Deletes the target with its records and drops it from the default targets; presets \
        cannot be deleted. Asks first on a terminal; without one, --yes is needed. \
        \(apiKeyNote)
        """,
      examples: [
        "serverbee probes targets delete 8d5e…", "serverbee probes targets delete 8d5e… --yes",
      ],
      routes: [RouteCatalogue.NetworkProbes.deleteProbeTarget.erased],
      confirm: { "Delete probe target \($0.first ?? ""), with its records?" },
      run: NetworkProbeCommands.deleteTarget),
    CommandDeclaration(
      "probes settings", summary: "the probe interval, packet count and default targets",
      options: [.apiKey],
      discussion: "Shows GET /api/network-probes/setting. \(apiKeyNote)",
      examples: ["serverbee probes settings", "serverbee probes settings --json"],
      routes: [RouteCatalogue.NetworkProbes.probeSetting.erased],
      run: NetworkProbeCommands.settings),
    CommandDeclaration(
      "probes settings set", summary: "change the probe settings (admins)",
      options: [
        OptionSpec(name: "interval", valueName: "S", help: "seconds between probes, 30–600"),
        OptionSpec(name: "packets", valueName: "N", help: "packets per probe, 5–20"),
        OptionSpec(
          name: "defaults", valueName: "IDS",
          help: "comma-separated target ids for new servers ('' for none)"),
        .apiKey,
      ],
      discussion: """
        Sends all three values (the server requires them): what is not given is read first \
        from the current settings. \(apiKeyNote)
        """,
      examples: [
        "serverbee probes settings set --interval 120",
        "serverbee probes settings set --packets 5 --defaults preset-google-dns,8d5e…",
      ],
      routes: [
        RouteCatalogue.NetworkProbes.probeSetting.erased,
        RouteCatalogue.NetworkProbes.updateProbeSetting.erased,
      ],
      run: NetworkProbeCommands.setSettings),
  ]
}
