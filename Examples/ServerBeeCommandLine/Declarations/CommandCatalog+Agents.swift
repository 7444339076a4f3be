import ServerBeeRoutes

extension CommandCatalog {
  /// Adding a server, its agent's enrollment codes, deleting it, the latest agent
  /// (Protocol/Agents.md).
  static let agents: [CommandDeclaration] = [
    CommandDeclaration(
      "servers add", summary: "add a server and print its agent's enrollment code (admins)",
      arguments: [.required("NAME")],
      options: [
        OptionSpec(name: "group", valueName: "G", help: "put it in group G (id or name)"),
        OptionSpec(name: "tags", valueName: "T,…", help: "its tags, comma-separated"),
        OptionSpec(name: "ttl", valueName: "S", help: "the code lives S seconds (600)"),
        OptionSpec(
          name: "request-id", valueName: "ID",
          help: "repeat an earlier add safely (a new id by default)"),
      ],
      discussion: """
        Adds a pending server (POST /api/servers) and prints its enrollment code once, with \
        the line that installs the agent. The code cannot be shown again: a lost one is \
        replaced with 'serverbee agent replace'. The same --request-id with the same input \
        adds nothing twice. \(apiKeyNote)
        """,
      examples: [
        "serverbee servers add web-fra-3",
        "serverbee servers add db-2 --group Production "
          + "--tags prod,eu", "serverbee servers add edge-1 --ttl 3600 --json",
      ],
      routes: [
        RouteCatalogue.Servers.serverGroups.erased, RouteCatalogue.Agents.createServer.erased,
      ],
      run: AgentCommands.add),
    CommandDeclaration(
      "servers delete", summary: "delete a server and everything it recorded (admins)",
      arguments: [.required("SERVER")],
      discussion: """
        Deletes the server (DELETE /api/servers/{id}): its agent is cut off and its records, \
        alert states and task results go with it. SERVER is an id or a server's name (one \
        server must have it). Asks first on a terminal; without one, --yes is needed. \
        \(apiKeyNote)
        """,
      examples: ["serverbee servers delete web-fra-3", "serverbee servers delete 9ebb… --yes"],
      routes: [RouteCatalogue.Servers.servers.erased, RouteCatalogue.Agents.deleteServer.erased],
      confirm: { "Delete server \($0.first ?? "") and everything it recorded?" },
      run: AgentCommands.delete),
    CommandDeclaration(
      "servers upgrade", summary: "upgrade a server's agent, and follow it with --watch (admins)",
      arguments: [.required("SERVER")],
      options: [
        OptionSpec(
          name: "version", valueName: "V", help: "install version V (the latest release)"),
        OptionSpec(
          name: "watch", valueName: nil, help: "follow each stage and the result live"),
        OptionSpec(
          name: "timeout", valueName: "S", help: "give up watching after S seconds (120)"),
      ],
      discussion: """
        Starts upgrading the agent (POST /api/servers/{id}/upgrade) to V, or to the latest \
        release (GET /api/agent/latest-version). The server only says it started: with \
        --watch the command follows the live stream, prints each stage and ends with the \
        result, exit 0 when the upgrade succeeded and non-zero with the reason when it \
        failed or no result came within the timeout. \(apiKeyNote)
        """,
      examples: [
        "serverbee servers upgrade web-fra-3 --watch",
        "serverbee servers upgrade web-fra-3 --version 1.5.0",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Agents.latestAgentVersion.erased,
        RouteCatalogue.Agents.upgradeAgent.erased,
      ],
      sockets: [RouteCatalogue.Live.fleetStream], run: UpgradeCommand.run),
    CommandDeclaration(
      "agent code", summary: "issue an enrollment code for a server no agent holds (admins)",
      arguments: [.required("SERVER")],
      options: [OptionSpec(name: "ttl", valueName: "S", help: "the code lives S seconds (600)")],
      discussion: """
        Issues a code (POST /api/servers/{id}/agent-authority/offers) and prints it once, with \
        the line that installs the agent. Refused while a code is open (replace it) or while \
        an agent holds the server. \(apiKeyNote)
        """,
      examples: ["serverbee agent code web-fra-3", "serverbee agent code web-fra-3 --ttl 3600"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Agents.issueEnrollment.erased,
      ],
      run: AgentCommands.code),
    CommandDeclaration(
      "agent replace", summary: "replace a server's open enrollment code (admins)",
      arguments: [.required("SERVER")],
      discussion: """
        Replaces the open code with a fresh one that lives 600 s (POST \
        /api/servers/{id}/agent-authority/offers/{offer}/replace) and prints it once. With no \
        open code, a new one is issued. \(apiKeyNote)
        """,
      examples: ["serverbee agent replace web-fra-3"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Agents.issueEnrollment.erased,
        RouteCatalogue.Agents.replaceEnrollment.erased,
      ],
      run: AgentCommands.replace),
    CommandDeclaration(
      "agent revoke-code", summary: "revoke a server's open enrollment code (admins)",
      arguments: [.required("SERVER")],
      options: [OptionSpec(name: "offer", valueName: "ID", help: "the code's offer id")],
      discussion: """
        Revokes the open code (DELETE /api/servers/{id}/agent-authority/offers/{offer}); \
        revoking twice is fine. The code is the one the server's list entry shows, or the \
        one --offer names. \(apiKeyNote)
        """,
      examples: [
        "serverbee agent revoke-code web-fra-3",
        "serverbee agent revoke-code web-fra-3 "
          + "--offer 0f9e…",
      ],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Agents.revokeEnrollment.erased,
      ],
      run: AgentCommands.revokeCode),
    CommandDeclaration(
      "agent reenrol", summary: "give a server's agent a new enrollment code (admins)",
      arguments: [.required("SERVER")],
      options: [
        OptionSpec(
          name: "emergency", valueName: nil, help: "cut the running agent off now"),
        OptionSpec(name: "ttl", valueName: "S", help: "the code lives S seconds (600)"),
      ],
      discussion: """
        Re-enrols a server an agent holds (POST /api/servers/{id}/agent-authority/\
        re-enrollment) and prints the new code once, with the install line. By default the \
        running agent keeps the server until the new code is used; --emergency cuts it off \
        at once and leaves the server unclaimed. \(apiKeyNote)
        """,
      examples: [
        "serverbee agent reenrol web-fra-3", "serverbee agent reenrol web-fra-3 --emergency",
      ],
      routes: [RouteCatalogue.Servers.servers.erased, RouteCatalogue.Agents.reEnroll.erased],
      run: AgentCommands.reenrol),
    CommandDeclaration(
      "agent revoke", summary: "cut a server's agent off and leave it unclaimed (admins)",
      arguments: [.required("SERVER")],
      discussion: """
        Revokes the agent's authority (DELETE /api/servers/{id}/agent-authority): the agent \
        is disconnected, its token cleared, any open code ended. Asks first on a terminal; \
        without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee agent revoke web-fra-3", "serverbee agent revoke web-fra-3 --yes"],
      routes: [
        RouteCatalogue.Servers.servers.erased, RouteCatalogue.Agents.revokeAgentAuthority.erased,
      ],
      confirm: { "Cut off the agent of \($0.first ?? "")? It will need a new code to return." },
      run: AgentCommands.revoke),
    CommandDeclaration(
      "agent latest", summary: "the newest agent release",
      discussion: """
        Prints GET /api/agent/latest-version: the version and its release time, or why the \
        server could not find out. \(apiKeyNote)
        """,
      examples: ["serverbee agent latest", "serverbee agent latest --json"],
      routes: [RouteCatalogue.Agents.latestAgentVersion.erased],
      run: AgentCommands.latest),
  ]
}
