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
      discussion: "Turns the channel on; the server checks its configuration again. \(apiKeyNote)",
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
        OptionSpec(name: "user", valueName: "ID", help: "only this user id"),
        .apiKey,
      ],
      discussion: """
        Lists GET /api/audit-logs: time, user, action, address and detail, and which entries \
        of how many matching are shown. \(apiKeyNote)
        """,
      examples: [
        "serverbee audit", "serverbee audit --limit 20 --offset 20",
        "serverbee audit --action api_key.create --json",
      ],
      routes: [RouteCatalogue.Administration.auditLog.erased], run: AccountCommands.audit),
    CommandDeclaration(
      "tasks", summary: "tasks, newest first (admins)",
      options: [
        OptionSpec(name: "type", valueName: "T", help: "only oneshot or scheduled tasks"), .apiKey,
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
        URL, as everywhere else.
        """,
      examples: ["serverbee security events", "serverbee security events --server 9ebb… --json"],
      routes: [
        RouteCatalogue.Security.securityEvents.erased, RouteCatalogue.Servers.servers.erased,
      ],
      run: SecurityCommands.events),
    CommandDeclaration(
      "security event", summary: "one security event with its evidence",
      arguments: [.required("ID")],
      discussion: "Prints one event (GET /api/security/events/{id}) with its evidence.",
      examples: ["serverbee security event 3d2a…"],
      routes: [
        RouteCatalogue.Security.securityEvent.erased, RouteCatalogue.Servers.servers.erased,
      ],
      run: SecurityCommands.event),
  ]
}
