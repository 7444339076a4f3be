import ServerBeeRoutes

extension CommandCatalog {
  /// IP quality (reading: anyone signed in; rechecks and changes: admins;
  /// Protocol/AppRoutes.md §9). `ip-quality SERVER recheck` is `ip-quality recheck SERVER`.
  static let ipQuality: [CommandDeclaration] = [
    CommandDeclaration(
      "ip-quality", summary: "IP reputation and service reachability: one server, or all",
      arguments: [.optional("SERVER")],
      discussion: """
        With SERVER, its IP's report (address, AS, place, type, risk and flags) and whether \
        each probed service (streaming, AI, custom) is reachable from it \
        (GET /api/ip-quality/servers/{id}); without, one line per server \
        (GET /api/ip-quality/overview). \(apiKeyNote)
        """,
      examples: ["serverbee ip-quality", "serverbee ip-quality web-1 --json"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.IPQuality.ipQualityOverview.erased,
        RouteCatalogue.IPQuality.serverIPQuality.erased,
      ], run: IPQualityCommands.show),
    CommandDeclaration(
      "ip-quality recheck", summary: "check a server's IP again and wait for it (admins)",
      arguments: [.required("SERVER")],
      discussion: """
        Asks SERVER's agent to check its IP again (POST /api/ip-quality/servers/{id}/check), \
        then reads the result 6 times 2 s apart, as the app does, until it changes; prints it, \
        or ends with 1 and a sentence when the agent is offline, has IP quality switched off, \
        or sent nothing new in time. Written 'serverbee ip-quality SERVER recheck'. \
        \(apiKeyNote)
        """,
      examples: ["serverbee ip-quality web-1 recheck"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.IPQuality.serverIPQuality.erased,
        RouteCatalogue.IPQuality.checkIPQuality.erased,
      ], run: IPQualityCommands.recheck),
    CommandDeclaration(
      "ip-quality services", summary: "the services the agents probe",
      discussion: """
        Lists GET /api/ip-quality/services by category, then popularity: built-in and custom, \
        enabled or not. \(apiKeyNote)
        """,
      examples: ["serverbee ip-quality services", "serverbee ip-quality services --json"],
      routes: [RouteCatalogue.IPQuality.unlockServices.erased], run: IPQualityCommands.services),
    CommandDeclaration(
      "ip-quality services enable", summary: "probe a service again (admins)",
      arguments: [.required("ID")],
      discussion: "PUT /api/ip-quality/services/{id} with enabled true. \(apiKeyNote)",
      examples: ["serverbee ip-quality services enable netflix"],
      routes: [RouteCatalogue.IPQuality.updateUnlockService.erased],
      run: IPQualityCommands.enable),
    CommandDeclaration(
      "ip-quality services disable", summary: "stop probing a service (admins)",
      arguments: [.required("ID")],
      discussion: "PUT /api/ip-quality/services/{id} with enabled false. \(apiKeyNote)",
      examples: ["serverbee ip-quality services disable netflix"],
      routes: [RouteCatalogue.IPQuality.updateUnlockService.erased],
      run: IPQualityCommands.disable),
    CommandDeclaration(
      "ip-quality services delete", summary: "delete a custom service (admins)",
      arguments: [.required("ID")],
      discussion: """
        Deletes a custom service (DELETE /api/ip-quality/services/{id}); the server refuses \
        built-in ones (disable them instead). Asks first on a terminal; without one, --yes is \
        needed. \(apiKeyNote)
        """,
      examples: ["serverbee ip-quality services delete c0ffee00… --yes"],
      routes: [RouteCatalogue.IPQuality.deleteUnlockService.erased],
      confirm: { "Delete the service \($0.first ?? "")?" }, run: IPQualityCommands.delete),
    CommandDeclaration(
      "ip-quality settings", summary: "how often the agents check their IP",
      discussion: "Shows GET /api/ip-quality/settings. \(apiKeyNote)",
      examples: ["serverbee ip-quality settings"],
      routes: [RouteCatalogue.IPQuality.ipQualitySettings.erased],
      run: IPQualityCommands.settings),
    CommandDeclaration(
      "ip-quality settings set", summary: "change how often the agents check (admins)",
      options: [OptionSpec(name: "hours", valueName: "N", help: "hours between checks, 1 to 168")],
      discussion: "PUT /api/ip-quality/settings. \(apiKeyNote)",
      examples: ["serverbee ip-quality settings set --hours 24"],
      routes: [RouteCatalogue.IPQuality.updateIPQualitySettings.erased],
      run: IPQualityCommands.setSettings),
  ]
}
