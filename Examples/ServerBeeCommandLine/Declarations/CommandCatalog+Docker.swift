import ServerBeeKit
import ServerBeeRoutes

extension CommandCatalog {
  /// A server's Docker engine (reading: anyone signed in; acting and logs: admins;
  /// Protocol/AppRoutes.md §8). The server comes before the sub-command (`docker SERVER ps`);
  /// `docker ps SERVER` is the same command, and `docker SERVER` alone lists the containers.
  static let docker: [CommandDeclaration] = {
    let find = RouteCatalogue.Servers.servers.erased
    let gate = """
      Needs the server's Docker: its agent must grant the docker capability and report Docker, \
      and (but for events) be online; otherwise one sentence says which is missing.
      """
    func read(
      _ words: String, _ summary: String, _ route: AnyAPIRoute, _ detail: String,
      options: [OptionSpec] = [], examples: [String],
      run: @escaping @Sendable (CommandContext) async throws -> Void
    ) -> CommandDeclaration {
      CommandDeclaration(
        words, summary: summary, arguments: [.required("SERVER")], options: options,
        discussion: "\(detail) \(gate) \(apiKeyNote)", examples: examples,
        routes: [find, route], run: run)
    }
    func action(_ verb: String, _ summary: String, options: [OptionSpec], confirm: Bool)
      -> CommandDeclaration
    {
      var question: (@Sendable ([String]) -> String)?
      if confirm {
        question = { "Remove container \($0.count > 1 ? $0[1] : "") of \($0.first ?? "")?" }
      }
      let asks = confirm ? "Asks first on a terminal; without one, --yes is needed. " : ""
      return CommandDeclaration(
        "docker \(verb)", summary: summary,
        arguments: [.required("SERVER"), .required("CONTAINER")], options: options,
        discussion: """
          Asks SERVER's agent to \(verb) CONTAINER (its id, an id prefix of 12 or more \
          digits, or its name): POST /api/servers/{id}/docker/containers/{cid}/action. Ends \
          with 0 when the agent did it; with 1 and the agent's words when it could not. \
          Written 'serverbee docker SERVER \(verb) CONTAINER'. Only admins may. \
          \(asks)\(gate) \
          \(apiKeyNote)
          """,
        examples: ["serverbee docker web-1 \(verb) stack-web-1"],
        routes: [find, RouteCatalogue.Docker.dockerContainerAction.erased],
        confirm: question, run: DockerCommands.act)
    }
    let timeout = OptionSpec(
      name: "timeout", valueName: "S", help: "seconds to wait before killing it (Docker's default)")
    return [
      read(
        "docker", "a server's Docker containers", RouteCatalogue.Docker.dockerContainers.erased,
        "Lists SERVER's containers (GET /api/servers/{id}/docker/containers): name, state, "
          + "status, image and ports. The same as 'serverbee docker SERVER ps'.",
        examples: ["serverbee docker web-1", "serverbee docker web-1 --json"],
        run: DockerCommands.ps),
      read(
        "docker ps", "a server's Docker containers", RouteCatalogue.Docker.dockerContainers.erased,
        "Lists SERVER's containers (GET /api/servers/{id}/docker/containers). Written "
          + "'serverbee docker SERVER ps'.",
        examples: ["serverbee docker web-1 ps"], run: DockerCommands.ps),
      read(
        "docker stats", "each running container's CPU, memory, network and disk",
        RouteCatalogue.Docker.dockerStats.erased,
        "Lists GET /api/servers/{id}/docker/stats. Written 'serverbee docker SERVER stats'.",
        examples: ["serverbee docker web-1 stats"], run: DockerCommands.stats),
      read(
        "docker info", "a server's Docker engine", RouteCatalogue.Docker.dockerInfo.erased,
        "Shows GET /api/servers/{id}/docker/info: versions, host, container counts, images and "
          + "memory. Written 'serverbee docker SERVER info'.",
        examples: ["serverbee docker web-1 info"], run: DockerCommands.info),
      read(
        "docker events", "a server's Docker events, newest first",
        RouteCatalogue.Docker.dockerEvents.erased,
        "Lists the events the server stored (GET /api/servers/{id}/docker/events?limit=N). "
          + "Works while the agent is offline. Written 'serverbee docker SERVER events'.",
        options: [OptionSpec(name: "limit", valueName: "N", help: "at most N events (50)")],
        examples: ["serverbee docker web-1 events --limit 20"], run: DockerCommands.events),
      read(
        "docker networks", "a server's Docker networks",
        RouteCatalogue.Docker.dockerNetworks.erased,
        "Lists GET /api/servers/{id}/docker/networks, asked of the agent. Written 'serverbee "
          + "docker SERVER networks'.",
        examples: ["serverbee docker web-1 networks"], run: DockerCommands.networks),
      read(
        "docker volumes", "a server's Docker volumes", RouteCatalogue.Docker.dockerVolumes.erased,
        "Lists GET /api/servers/{id}/docker/volumes, asked of the agent. Written 'serverbee "
          + "docker SERVER volumes'.",
        examples: ["serverbee docker web-1 volumes"], run: DockerCommands.volumes),
      CommandDeclaration(
        "docker logs", summary: "a container's log lines, and new ones with -f (admins)",
        arguments: [.required("SERVER"), .required("CONTAINER")],
        options: [
          OptionSpec(name: "follow", valueName: nil, help: "keep printing new lines (also -f)"),
          OptionSpec(name: "tail", valueName: "N", help: "the last N lines first, 0 to 1000 (100)"),
          OptionSpec(
            name: "duration", valueName: "S", help: "with --follow, stop after S seconds"),
        ],
        discussion: """
          Opens the logs socket (GET /api/ws/docker/logs/{server_id}), waits for its session, "
          + "subscribes to CONTAINER and prints the last N lines, oldest first: the time, '!' for "
          + "stderr, the text (control characters removed). With --follow (-f) new lines follow "
          + "until Ctrl-C or --duration. With --json, one entry per line. Only admins may; the "
          + "agent must be online and grant the docker capability. Written 'serverbee docker "
          + "SERVER logs CONTAINER'. \(apiKeyNote)
          """,
        examples: [
          "serverbee docker web-1 logs stack-web-1 --tail 20",
          "serverbee docker web-1 logs stack-web-1 -f",
          "serverbee docker web-1 logs stack-web-1 -f --duration 10 --json",
        ],
        routes: [find], sockets: [RouteCatalogue.Docker.dockerLogs], run: DockerCommands.logs),
      action("start", "start a stopped container (admins)", options: [], confirm: false),
      action("stop", "stop a running container (admins)", options: [timeout], confirm: false),
      action("restart", "restart a container (admins)", options: [timeout], confirm: false),
      action(
        "remove", "remove a container (admins)",
        options: [
          OptionSpec(name: "force", valueName: nil, help: "remove it even while it runs")
        ], confirm: true),
    ]
  }()
}
