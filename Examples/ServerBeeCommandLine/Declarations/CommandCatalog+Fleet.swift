import ServerBeeRoutes

extension CommandCatalog {
  /// What an API key also unlocks, said once for every help that needs it.
  static let apiKeyNote =
    "Works with an API key instead of a mobile session (--api-key or $SERVERBEE_API_KEY, "
    + "with --server or $SERVERBEE_SERVER)."

  /// The live fleet, alerts and this account's devices.
  static let fleet: [CommandDeclaration] = [
    CommandDeclaration(
      "servers", summary: "list servers: live state merged with configuration",
      options: [.apiKey],
      discussion: """
        Waits for one full sync of the live stream and merges GET /api/servers. \(apiKeyNote) \
        The live stream takes X-API-Key too.
        """,
      examples: ["serverbee servers", "serverbee servers --json"],
      routes: [RouteCatalogue.Servers.servers.erased], sockets: [RouteCatalogue.Live.fleetStream],
      run: DataCommands.servers),
    CommandDeclaration(
      "servers records", summary: "one server's history: CPU, memory, disk, network",
      arguments: [.required("SERVER")],
      options: [
        OptionSpec(name: "range", valueName: "R", help: "the last 30m, 1h (default), 6h, 24h, 7d…"),
        OptionSpec(name: "from", valueName: "T", help: "start, RFC 3339 (with --to)"),
        OptionSpec(name: "to", valueName: "T", help: "end, RFC 3339 (with --from)"),
        OptionSpec(
          name: "interval", valueName: "I",
          help: "raw, hourly or auto (default: hourly past 24 h)"),
      ],
      discussion: """
        Prints GET /api/servers/{id}/records oldest first: time, CPU, memory and disk (of the \
        server's totals), network speeds and load. SERVER is an id or a server's name (one \
        server must have it). \(apiKeyNote)
        """,
      examples: [
        "serverbee servers records web-fra-1", "serverbee servers records web-fra-1 --range 7d",
        "serverbee servers records 9ebb… --from 2026-05-20T00:00:00Z --to 2026-05-21T00:00:00Z "
          + "--interval raw --json",
      ],
      routes: [RouteCatalogue.Servers.servers.erased, RouteCatalogue.Servers.records.erased],
      run: ServerCommands.records),
    CommandDeclaration(
      "servers edit", summary: "change a server's name, group, billing, flag (admins)",
      arguments: [.required("SERVER")], options: ServerEditCommands.editOptions,
      discussion: """
        Changes what the options say (PUT /api/servers/{id}) and prints the server after. An \
        option sets a field, its --no- form clears it, and a field with neither is left \
        alone. --country pins the flag; --no-country removes the pin and the region. SERVER \
        is an id or a server's name (one server must have it); G a group's id or name. \
        \(apiKeyNote)
        """,
      examples: [
        "serverbee servers edit web-fra-1 --name web-fra-2 --group Production",
        "serverbee servers edit web-fra-1 --price 4.5 --currency EUR --billing-cycle monthly",
        "serverbee servers edit web-fra-1 --no-group --no-price --json",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Servers.serverGroups.erased,
        RouteCatalogue.Servers.updateServer.erased,
      ],
      run: ServerEditCommands.edit),
    CommandDeclaration(
      "servers tags", summary: "one server's tags", arguments: [.required("SERVER")],
      discussion: """
        Prints GET /api/servers/{id}/tags, sorted. SERVER is an id or a server's name. \
        \(apiKeyNote)
        """,
      examples: ["serverbee servers tags web-fra-1", "serverbee servers tags web-fra-1 --json"],
      routes: [RouteCatalogue.Servers.servers.erased, RouteCatalogue.Servers.serverTags.erased],
      run: ServerEditCommands.tags),
    CommandDeclaration(
      "servers tags set", summary: "replace a server's tags (admins)",
      arguments: [.required("SERVER"), .variadic("TAG")],
      discussion: """
        Replaces the server's tags with the TAGs given (PUT /api/servers/{id}/tags); none \
        removes them all. At most 8, each up to 16 letters, digits, '_', '-' or '.'; the \
        server trims, deduplicates and sorts them. \(apiKeyNote)
        """,
      examples: [
        "serverbee servers tags set web-fra-1 prod eu", "serverbee servers tags set web-fra-1",
      ],
      routes: [RouteCatalogue.Servers.servers.erased, RouteCatalogue.Servers.setServerTags.erased],
      run: ServerEditCommands.setTags),
    CommandDeclaration(
      "groups", summary: "the server groups",
      discussion: """
        Lists GET /api/server-groups: name, weight, how many servers each holds, id. \
        \(apiKeyNote)
        """,
      examples: ["serverbee groups", "serverbee groups --json"],
      routes: [RouteCatalogue.Servers.serverGroups.erased, RouteCatalogue.Servers.servers.erased],
      run: ServerCommands.groups),
    CommandDeclaration(
      "groups create", summary: "create a server group (admins)", arguments: [.required("NAME")],
      discussion: """
        Creates a group with weight 0 (POST /api/server-groups). A name another group has is \
        refused. \(apiKeyNote)
        """,
      examples: ["serverbee groups create Production", "serverbee groups create Edge --json"],
      routes: [RouteCatalogue.Servers.createServerGroup.erased],
      run: ServerEditCommands.createGroup),
    CommandDeclaration(
      "groups rename", summary: "rename a server group (admins)",
      arguments: [.required("ID"), .required("NAME")],
      discussion: """
        Renames the group (PUT /api/server-groups/{ID}); unlike create, another group may \
        have the name. \(apiKeyNote)
        """,
      examples: ["serverbee groups rename 4ba7… Staging"],
      routes: [RouteCatalogue.Servers.updateServerGroup.erased],
      run: ServerEditCommands.renameGroup),
    CommandDeclaration(
      "groups weight", summary: "set a server group's sort weight (admins)",
      arguments: [.required("ID"), .required("N")],
      discussion: """
        Sets the group's weight (PUT /api/server-groups/{ID}); groups are listed by weight, \
        highest first, then by name. \(apiKeyNote)
        """,
      examples: ["serverbee groups weight 4ba7… 10"],
      routes: [RouteCatalogue.Servers.updateServerGroup.erased],
      run: ServerEditCommands.weighGroup),
    CommandDeclaration(
      "groups delete", summary: "delete a server group (admins)", arguments: [.required("ID")],
      discussion: """
        Deletes the group (DELETE /api/server-groups/{ID}); its servers stay, in no group. \
        Asks first on a terminal; without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee groups delete 4ba7…", "serverbee groups delete 4ba7… --yes"],
      routes: [RouteCatalogue.Servers.deleteServerGroup.erased],
      confirm: { "Delete server group \($0.first ?? "")? Its servers are left in no group." },
      run: ServerEditCommands.deleteGroup),
    CommandDeclaration(
      "watch", summary: "live table of CPU, memory, disk, network, online",
      options: [
        OptionSpec(name: "once", valueName: nil, help: "print one snapshot after the first sync"),
        OptionSpec(name: "duration", valueName: "S", help: "stop after S seconds"),
        OptionSpec(name: "interval", valueName: "S", help: "seconds between redraws (1)"),
        .apiKey,
      ],
      discussion: """
        Redraws in place on a terminal; otherwise appends one snapshot per interval (one JSON \
        object per line with --json). Stops on Ctrl-C or after --duration. \(apiKeyNote)
        """,
      examples: ["serverbee watch", "serverbee watch --once --json"],
      routes: [RouteCatalogue.Servers.servers.erased], sockets: [RouteCatalogue.Live.fleetStream],
      run: WatchCommand.run),
    CommandDeclaration(
      "alerts", summary: "recent alert events, newest first",
      options: [OptionSpec(name: "limit", valueName: "N", help: "how many events (50)"), .apiKey],
      discussion: """
        Lists GET /api/alert-events, newest first, with each alert's KEY (last column) for \
        'serverbee alerts show KEY'. \(apiKeyNote)
        """,
      examples: ["serverbee alerts", "serverbee alerts --limit 10 --json"],
      routes: [RouteCatalogue.Alerts.alertEvents.erased], run: DataCommands.alerts),
    CommandDeclaration(
      "alerts show", summary: "one alert's current cycle", arguments: [.required("KEY")],
      options: [.apiKey],
      discussion: """
        Prints that alert's current cycle (GET /api/alert-events/{KEY}), KEY from 'serverbee \
        alerts'. An alert that re-armed into a new cycle, or whose rule was deleted, is not \
        found under its old key. \(apiKeyNote)
        """,
      examples: ["serverbee alerts show v1.WyJy…"],
      routes: [RouteCatalogue.Alerts.alertEvent.erased], run: AlertCommands.show),
    CommandDeclaration(
      "alerts rules", summary: "the alert rules (admins)", options: [.apiKey],
      discussion: "Lists GET /api/alert-rules: name, on, checks, mode, id. \(apiKeyNote)",
      examples: ["serverbee alerts rules", "serverbee alerts rules --json"],
      routes: [RouteCatalogue.Alerts.alertRules.erased], run: AlertCommands.rules),
    CommandDeclaration(
      "alerts rules states", summary: "one rule's state on each server (admins)",
      arguments: [.required("ID")],
      discussion: """
        Lists GET /api/alert-rules/{ID}/states: each server the rule fired on, whether it \
        still fires, since when, how many times, when it resolved and last notified. \
        \(apiKeyNote)
        """,
      examples: [
        "serverbee alerts rules states 7c1d…", "serverbee alerts rules states 7c1d… --json",
      ],
      routes: [RouteCatalogue.Alerts.alertRuleStates.erased], run: AlertCommands.ruleStates),
    CommandDeclaration(
      "alerts rules enable", summary: "turn an alert rule on (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: "Turns the rule on (PUT /api/alert-rules/{ID}). \(apiKeyNote)",
      examples: ["serverbee alerts rules enable 7c1d…"],
      routes: [RouteCatalogue.Alerts.setAlertRule.erased],
      run: { try await AlertCommands.setRule($0, enabled: true) }),
    CommandDeclaration(
      "alerts rules disable", summary: "turn an alert rule off (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Turns the rule off (PUT /api/alert-rules/{ID}): it raises no alerts and sends no \
        notifications until it is enabled again. Asks first on a terminal; without one, \
        --yes is needed. \(apiKeyNote)
        """,
      examples: [
        "serverbee alerts rules disable 7c1d…", "serverbee alerts rules disable 7c1d… --yes",
      ],
      routes: [RouteCatalogue.Alerts.setAlertRule.erased],
      confirm: { "Turn off alert rule \($0.first ?? "")? It stops alerting until enabled again." },
      run: { try await AlertCommands.setRule($0, enabled: false) }),
    CommandDeclaration(
      "devices", summary: "mobile sessions of this account",
      discussion: """
        Lists GET /api/mobile/auth/devices; this installation is marked with *. On an API \
        key, the key owner's sessions, none marked. \(apiKeyNote)
        """,
      examples: ["serverbee devices", "serverbee devices --json"],
      routes: [RouteCatalogue.Auth.devices.erased], run: DataCommands.devices),
    CommandDeclaration(
      "devices revoke", summary: "end another mobile session of this account",
      arguments: [.required("ID")],
      discussion: """
        Ends another session of this account (its tokens and push registrations). This \
        installation's own session is refused: use 'serverbee logout', which also clears the \
        local credentials. Asks first on a terminal; without one, --yes is needed. \
        \(apiKeyNote)
        """,
      examples: ["serverbee devices revoke 5f0c…", "serverbee devices revoke 5f0c… --yes"],
      routes: [RouteCatalogue.Auth.devices.erased, RouteCatalogue.Auth.revokeDevice.erased],
      confirm: { "Revoke mobile session \($0.first ?? "")? That device is signed out." },
      run: DeviceCommands.revoke),
  ]
}
