import ServerBeeRoutes

extension CommandCatalog {
  private static let userDetail =
    "'set-role' keeps the last admin one; 'reset-password' ends every session of that user."

  /// Users, notification channels, the audit log and tasks (admins).
  static let administration: [CommandDeclaration] = [
    CommandDeclaration(
      "users", summary: "list users (admins)", options: [.apiKey],
      discussion: "Lists GET /api/users, oldest first. \(userDetail) \(apiKeyNote)",
      examples: ["serverbee users", "serverbee users --json"],
      routes: [RouteCatalogue.Administration.users.erased], run: UserCommands.list),
    CommandDeclaration(
      "users create", summary: "create a user (admins)", arguments: [.required("NAME")],
      options: [
        OptionSpec(name: "role", valueName: "R", help: "admin or member (member)"),
        OptionSpec(
          name: "password", valueName: "PW", help: "the password (else asked without echo)"),
        .apiKey,
      ],
      discussion: "Makes a user; passwords have 8 or more characters. \(apiKeyNote)",
      examples: ["serverbee users create bob --role member"],
      routes: [RouteCatalogue.Administration.createUser.erased], run: UserCommands.create),
    CommandDeclaration(
      "users set-role", summary: "change a user's role (admins)",
      arguments: [.required("ID"), .required("ROLE")], options: [.apiKey],
      discussion: "Changes a role to admin or member; the last admin stays one. \(apiKeyNote)",
      examples: ["serverbee users set-role 5f0c… admin"],
      routes: [RouteCatalogue.Administration.updateUser.erased], run: UserCommands.setRole),
    CommandDeclaration(
      "users reset-password", summary: "set a user's new password (admins)",
      arguments: [.required("ID")],
      options: [
        OptionSpec(
          name: "password", valueName: "PW", help: "the new password (else asked without echo)"),
        .apiKey,
      ],
      discussion: "Sets a new password and ends every session of that user. \(apiKeyNote)",
      examples: ["serverbee users reset-password 5f0c…"],
      routes: [RouteCatalogue.Administration.updateUser.erased],
      run: UserCommands.resetPassword),
    CommandDeclaration(
      "users delete", summary: "delete a user with their sessions and API keys (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Removes the user with their sessions and API keys. Asks first on a terminal; without \
        one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee users delete 5f0c…", "serverbee users delete 5f0c… --yes"],
      routes: [RouteCatalogue.Administration.deleteUser.erased],
      confirm: { "Delete user \($0.first ?? ""), with their sessions and API keys?" },
      run: UserCommands.delete),
    CommandDeclaration(
      "channels", summary: "alert notification channels (admins)", options: [.apiKey],
      discussion: """
        Lists GET /api/notifications (name, type, on, id), never a channel's configuration, \
        which holds its secrets. \(apiKeyNote)
        """,
      examples: ["serverbee channels", "serverbee channels --json"],
      routes: [RouteCatalogue.Alerts.notificationChannels.erased], run: ChannelCommands.list),
    CommandDeclaration(
      "channels enable", summary: "turn a notification channel on (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion:
        "Turns the channel on; the server checks its configuration again. \(apiKeyNote)",
      examples: ["serverbee channels enable 3c1e…"],
      routes: [RouteCatalogue.Alerts.setNotificationChannel.erased],
      run: { try await ChannelCommands.setEnabled($0, true) }),
    CommandDeclaration(
      "channels disable", summary: "turn a notification channel off (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Turns the channel off: no alert reaches it until it is enabled again. Asks first on a \
        terminal; without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee channels disable 3c1e…", "serverbee channels disable 3c1e… --yes"],
      routes: [RouteCatalogue.Alerts.setNotificationChannel.erased],
      confirm: { "Turn off notification channel \($0.first ?? "")? No alert reaches it then." },
      run: { try await ChannelCommands.setEnabled($0, false) }),
    CommandDeclaration(
      "channels test", summary: "send a synthetic alert through a channel (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Sends a synthetic alert through the channel, even a disabled one; a delivery failure \
        is the channel's own error (HTTP 502). \(apiKeyNote)
        """,
      examples: ["serverbee channels test 3c1e…"],
      routes: [RouteCatalogue.Alerts.testNotificationChannel.erased], run: ChannelCommands.test),
    CommandDeclaration(
      "audit", summary: "the audit log, newest first (admins)",
      options: [
        OptionSpec(name: "limit", valueName: "N", help: "entries per page (50; at most 200)"),
        OptionSpec(name: "offset", valueName: "N", help: "entries to skip (0)"),
        OptionSpec(name: "action", valueName: "A", help: "only this action, e.g. user.create"),
        OptionSpec(name: "user", valueName: "NAME|ID", help: "only this user (name or id)"),
        .apiKey,
      ],
      discussion: """
        Lists GET /api/audit-logs: time, user (by name, from GET /api/users), action, address \
        and detail, and which entries of how many matching are shown. \(apiKeyNote)
        """,
      examples: [
        "serverbee audit", "serverbee audit --limit 20 --offset 20",
        "serverbee audit --action api_key.create --json",
      ],
      routes: [
        RouteCatalogue.Administration.auditLog.erased, RouteCatalogue.Administration.users.erased,
      ],
      run: AccountCommands.audit),
    CommandDeclaration(
      "tasks", summary: "tasks, newest first (admins)",
      options: [
        OptionSpec(name: "type", valueName: "T", help: "only oneshot or scheduled tasks"),
        .apiKey,
      ],
      discussion: "Lists GET /api/tasks, newest first. \(apiKeyNote)",
      examples: ["serverbee tasks", "serverbee tasks --type scheduled --json"],
      routes: [RouteCatalogue.Tasks.tasks.erased], run: TaskCommands.list),
    CommandDeclaration(
      "tasks results", summary: "a task's per-target results (admins)",
      arguments: [.required("TASK-ID")],
      options: [
        OptionSpec(name: "run", valueName: "RUN-ID", help: "only the results of this run"),
        .apiKey,
      ],
      discussion: """
        Prints the per-target rows of every run (up to 500, every attempt) with a summary of \
        each run's final attempts; with --run, only that run's rows \
        (GET /api/tasks/{id}/results?run_id=…). \(apiKeyNote)
        """,
      examples: [
        "serverbee tasks results 2b1c… --run 9f3e…", "serverbee tasks results 2b1c… --json",
      ],
      routes: [RouteCatalogue.Tasks.taskResults.erased, RouteCatalogue.Servers.servers.erased],
      run: TaskCommands.results),
    CommandDeclaration(
      "tasks create", summary: "create a oneshot or scheduled task (admins)",
      arguments: [.required("COMMAND")],
      options: [
        OptionSpec(
          name: "servers", valueName: "IDS", help: "comma-separated server ids (required)"),
        OptionSpec(
          name: "cron", valueName: "EXPR",
          help: "6 fields with seconds, UTC: a scheduled task (else oneshot)"),
      ] + taskOptions + [.apiKey],
      discussion: """
        Without --cron the task is oneshot: the server dispatches it at once. With --cron \
        (sec min hour day-of-month month day-of-week, UTC) it is scheduled, and the answer \
        shows its next run. \(apiKeyNote)
        """,
      examples: [
        "serverbee tasks create uptime --servers 5f0c…,9a1b…",
        "serverbee tasks create 'apt-get update' --servers 5f0c… --cron '0 30 3 * * *' "
          + "--name nightly --retries 2",
      ],
      routes: [RouteCatalogue.Tasks.createTask.erased], run: TaskMutationCommands.create),
    CommandDeclaration(
      "tasks edit", summary: "change a task (admins)", arguments: [.required("ID")],
      options: [
        OptionSpec(name: "command", valueName: "C", help: "a new command"),
        OptionSpec(name: "servers", valueName: "IDS", help: "comma-separated server ids"),
        OptionSpec(name: "cron", valueName: "EXPR", help: "a new cron expression (6 fields)"),
      ] + taskOptions + [.apiKey],
      discussion: "Changes only what is given; the rest stays as it is. \(apiKeyNote)",
      examples: [
        "serverbee tasks edit 2b1c… --cron '0 0 4 * * *'", "serverbee tasks edit 2b1c… --retries 0",
      ],
      routes: [RouteCatalogue.Tasks.updateTask.erased], run: TaskMutationCommands.edit),
    CommandDeclaration(
      "tasks enable", summary: "turn a scheduled task on (admins)", arguments: [.required("ID")],
      options: [.apiKey],
      discussion: "Sends only enabled: true; the next run is computed again. \(apiKeyNote)",
      examples: ["serverbee tasks enable 2b1c…"],
      routes: [RouteCatalogue.Tasks.updateTask.erased], run: TaskMutationCommands.enable),
    CommandDeclaration(
      "tasks disable", summary: "turn a scheduled task off (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: "Sends only enabled: false; the task and its settings stay. \(apiKeyNote)",
      examples: ["serverbee tasks disable 2b1c…"],
      routes: [RouteCatalogue.Tasks.updateTask.erased], run: TaskMutationCommands.disable),
    CommandDeclaration(
      "tasks run", summary: "run a scheduled task now (admins)", arguments: [.required("ID")],
      options: [.apiKey],
      discussion: """
        Starts a run of a scheduled task at once, without retries; read its rows with \
        'serverbee tasks results ID'. A oneshot task cannot be run again. \(apiKeyNote)
        """,
      examples: ["serverbee tasks run 2b1c…"],
      routes: [RouteCatalogue.Tasks.runTask.erased], run: TaskMutationCommands.run),
    CommandDeclaration(
      "tasks delete", summary: "delete a task and its results (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Deletes the task and every result row it made; an unknown id succeeds too. Asks \
        first on a terminal; without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee tasks delete 2b1c…", "serverbee tasks delete 2b1c… --yes"],
      routes: [RouteCatalogue.Tasks.deleteTask.erased],
      confirm: { "Delete task \($0.first ?? ""), with its results?" },
      run: TaskMutationCommands.delete),
  ]

  /// The options `tasks create` and `tasks edit` share.
  private static let taskOptions = [
    OptionSpec(name: "name", valueName: "N", help: "a display name"),
    OptionSpec(name: "timeout", valueName: "SECONDS", help: "seconds before it times out (300)"),
    OptionSpec(name: "retries", valueName: "N", help: "retries after a failure, 0-10"),
    OptionSpec(name: "retry-interval", valueName: "SECONDS", help: "seconds between retries"),
  ]

  private static let rateLimitRule =
    "Sign-in and registration allow a few attempts per address in a window (login: 5 per 15 "
    + "minutes); an address over the limit is refused until the window ends or an admin resets it."

  /// The server's rate limiters and IP databases (admins; the database statuses for anyone).
  static let serverMachinery: [CommandDeclaration] = [
    CommandDeclaration(
      "admin rate-limits", summary: "the rate limiters' state per address (admins)",
      discussion: """
        Lists GET /api/admin/rate-limit: the limits, then each counted address by scope, \
        blocked ones first, with when its window ends. \(rateLimitRule) \(apiKeyNote)
        """,
      examples: ["serverbee admin rate-limits", "serverbee admin rate-limits --json"],
      routes: [RouteCatalogue.Administration.rateLimits.erased], run: AdminCommands.rateLimits),
    CommandDeclaration(
      "admin rate-limits reset", summary: "clear rate-limit counters, e.g. a locked-out login",
      options: [
        OptionSpec(
          name: "scope", valueName: "S", help: "only login, register or public (default: all)"),
        OptionSpec(name: "ip", valueName: "IP", help: "only this address (default: all)"),
      ],
      discussion: """
        Clears counters (POST /api/admin/rate-limit/reset), so a blocked address may try \
        again at once. \(rateLimitRule) \(apiKeyNote)
        """,
      examples: [
        "serverbee admin rate-limits reset --scope login --ip 203.0.113.7",
        "serverbee admin rate-limits reset",
      ],
      routes: [RouteCatalogue.Administration.resetRateLimits.erased],
      run: AdminCommands.resetRateLimits),
    CommandDeclaration(
      "admin geoip", summary: "whether the GeoIP database is installed",
      discussion: """
        Shows GET /api/geoip/status: installed, source file, size, last update. The GeoIP \
        database puts countries on addresses. \(apiKeyNote)
        """,
      examples: ["serverbee admin geoip", "serverbee admin geoip --json"],
      routes: [RouteCatalogue.Administration.geoIPStatus.erased],
      run: { try await AdminCommands.databaseStatus($0, .geoIP) }),
    CommandDeclaration(
      "admin geoip download", summary: "download the GeoIP database (admins)",
      discussion: """
        Asks the server to download the GeoIP database (POST /api/geoip/download) and waits \
        until it is done; a failed download prints the server's reason and exits 1. \
        \(apiKeyNote)
        """,
      examples: ["serverbee admin geoip download"],
      routes: [RouteCatalogue.Administration.downloadGeoIP.erased],
      run: { try await AdminCommands.download($0, .geoIP) }),
    CommandDeclaration(
      "admin asn", summary: "whether the ASN database is installed",
      discussion: """
        Shows GET /api/asn/status: installed, source file, size, last update. The ASN \
        database names the network that owns an address. \(apiKeyNote)
        """,
      examples: ["serverbee admin asn", "serverbee admin asn --json"],
      routes: [RouteCatalogue.Administration.asnStatus.erased],
      run: { try await AdminCommands.databaseStatus($0, .asn) }),
    CommandDeclaration(
      "admin asn download", summary: "download the ASN database (admins)",
      discussion: """
        Asks the server to download the ASN database (POST /api/asn/download) and waits until \
        it is done; a failed download prints the server's reason and exits 1. \(apiKeyNote)
        """,
      examples: ["serverbee admin asn download"],
      routes: [RouteCatalogue.Administration.downloadASN.erased],
      run: { try await AdminCommands.download($0, .asn) }),
  ]

  /// Security events.
  static let security: [CommandDeclaration] = [
    CommandDeclaration(
      "security events", summary: "security events, newest first",
      options: [
        OptionSpec(
          name: "server", valueName: "ID",
          help: "only events of this monitored server (an id, not the ServerBee URL)"),
        OptionSpec(name: "limit", valueName: "N", help: "how many events (50)"),
      ],
      discussion: """
        Lists GET /api/security/events page by page until --limit. Here --server takes a \
        server id (see 'serverbee servers --json'); a value with :// is taken as the ServerBee \
        URL, as everywhere else (with an API key and a server id, name the ServerBee server \
        with $SERVERBEE_SERVER). \(apiKeyNote)
        """,
      examples: [
        "serverbee security events", "serverbee security events --server 9ebb… --json",
        "SERVERBEE_SERVER=https://monitor.example.com serverbee security events --server 9ebb…",
      ],
      routes: [
        RouteCatalogue.Security.securityEvents.erased, RouteCatalogue.Servers.servers.erased,
      ],
      run: SecurityCommands.events),
    CommandDeclaration(
      "security event", summary: "one security event with its evidence",
      arguments: [.required("ID")],
      options: [
        OptionSpec(
          name: "block", valueName: nil,
          help: "also block the event's source address on every server (admins)")
      ],
      discussion: """
        Prints one event (GET /api/security/events/{id}) with its evidence. With --block, \
        also blocks its source address on every server (POST /api/firewall/blocks), as the \
        app's "Block IP" does; the entry's comment names the event. \(apiKeyNote)
        """,
      examples: ["serverbee security event 3d2a…", "serverbee security event 3d2a… --block"],
      routes: [
        RouteCatalogue.Security.securityEvent.erased, RouteCatalogue.Servers.servers.erased,
        RouteCatalogue.Firewall.createFirewallBlock.erased,
      ],
      run: SecurityCommands.event),
    CommandDeclaration(
      "security stats", summary: "security event counts by type, source address or day",
      options: [
        OptionSpec(
          name: "by", valueName: "G", help: "event_type (default), source_ip or day"),
        OptionSpec(
          name: "server", valueName: "ID",
          help: "only events of this monitored server (an id, not the ServerBee URL)"),
        OptionSpec(name: "limit", valueName: "N", help: "the most groups (server: 50)"),
      ],
      discussion: """
        Counts events per group, largest first (GET /api/security/stats?group_by=…). --server \
        takes a server id, as in 'security events'. \(apiKeyNote)
        """,
      examples: [
        "serverbee security stats", "serverbee security stats --by source_ip --limit 10",
        "serverbee security stats --by day --server 9ebb… --json",
      ],
      routes: [RouteCatalogue.Security.securityStats.erased], run: SecurityCommands.stats),
    CommandDeclaration(
      "security delete", summary: "delete a security event (admins)",
      arguments: [.required("ID")],
      discussion: """
        Deletes one event (DELETE /api/security/events/{id}); its evidence is gone with it. \
        Asks first on a terminal; without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee security delete 3d2a…", "serverbee security delete 3d2a… --yes"],
      routes: [RouteCatalogue.Security.deleteSecurityEvent.erased],
      confirm: { "Delete security event \($0.first ?? ""), with its evidence?" },
      run: SecurityCommands.delete),
  ]
}
