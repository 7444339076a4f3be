import ServerBeeRoutes

extension CommandCatalog {
  private static let pingServers = OptionSpec(
    name: "servers", valueName: "IDS", help: "comma-separated server ids ('' for every one)")
  private static let pingInterval = OptionSpec(
    name: "interval", valueName: "SECONDS", help: "seconds between probes (server default 60)")

  /// Ping tasks (listing: anyone signed in; changes: admins).
  static let pingTasks: [CommandDeclaration] = [
    CommandDeclaration(
      "ping-tasks", summary: "ICMP, TCP and HTTP probes the agents run", options: [.apiKey],
      discussion: """
        Lists GET /api/ping-tasks: name, probe type, target, interval, the servers that run \
        it (all: every capable server) and whether it is enabled. \(apiKeyNote)
        """,
      examples: ["serverbee ping-tasks", "serverbee ping-tasks --json"],
      routes: [RouteCatalogue.Tasks.pingTasks.erased], run: PingTaskCommands.list),
    CommandDeclaration(
      "ping-tasks create", summary: "create a ping task (admins)",
      arguments: [.required("NAME")],
      options: [
        OptionSpec(name: "type", valueName: "T", help: "icmp, tcp or http (required)"),
        OptionSpec(
          name: "target", valueName: "X", help: "a host, host:port (tcp) or a URL (http)"),
        pingInterval, pingServers,
        OptionSpec(name: "disabled", valueName: nil, help: "create it turned off"),
        .apiKey,
      ],
      discussion: """
        Creates a probe the agents run every --interval seconds on --servers (every capable \
        server when none are given). The server refuses a target that is a literal loopback, \
        link-local, metadata, NAT64 or broadcast address; host names and private addresses \
        are accepted. \(apiKeyNote)
        """,
      examples: [
        "serverbee ping-tasks create 'Cloudflare DNS' --type icmp --target 1.1.1.1",
        "serverbee ping-tasks create Shop --type http --target https://shop.example.com/health "
          + "--interval 30 --servers 5f0c…,9a1b…",
      ],
      routes: [RouteCatalogue.Tasks.createPingTask.erased], run: PingTaskCommands.create),
    CommandDeclaration(
      "ping-tasks edit", summary: "change a ping task (admins)", arguments: [.required("ID")],
      options: [
        OptionSpec(name: "name", valueName: "N", help: "a new name"),
        OptionSpec(name: "type", valueName: "T", help: "icmp, tcp or http"),
        OptionSpec(name: "target", valueName: "X", help: "a new target"),
        pingInterval, pingServers, .apiKey,
      ],
      discussion: "Changes only what is given; the rest stays as it is. \(apiKeyNote)",
      examples: [
        "serverbee ping-tasks edit 5b6f… --interval 120",
        "serverbee ping-tasks edit 5b6f… --servers ''",
      ],
      routes: [RouteCatalogue.Tasks.updatePingTask.erased], run: PingTaskCommands.edit),
    CommandDeclaration(
      "ping-tasks enable", summary: "turn a ping task on (admins)", arguments: [.required("ID")],
      options: [.apiKey],
      discussion: "Sends only enabled: true, as the app's toggle does. \(apiKeyNote)",
      examples: ["serverbee ping-tasks enable 5b6f…"],
      routes: [RouteCatalogue.Tasks.updatePingTask.erased], run: PingTaskCommands.enable),
    CommandDeclaration(
      "ping-tasks disable", summary: "turn a ping task off (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: "Sends only enabled: false; the task and its settings stay. \(apiKeyNote)",
      examples: ["serverbee ping-tasks disable 5b6f…"],
      routes: [RouteCatalogue.Tasks.updatePingTask.erased], run: PingTaskCommands.disable),
    CommandDeclaration(
      "ping-tasks delete", summary: "delete a ping task and its records (admins)",
      arguments: [.required("ID")], options: [.apiKey],
      discussion: """
        Deletes the task and every ping record it made. Asks first on a terminal; without \
        one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee ping-tasks delete 5b6f…", "serverbee ping-tasks delete 5b6f… --yes"],
      routes: [RouteCatalogue.Tasks.deletePingTask.erased],
      confirm: { "Delete ping task \($0.first ?? ""), with its records?" },
      run: PingTaskCommands.delete),
  ]
}
