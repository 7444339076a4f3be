import ServerBeeRoutes
import ServerBeeTransport

/// Docker (Protocol/AppRoutes.md §8): any member reads a server's containers, stats, engine,
/// events, networks and volumes behind the read gate (§8.1); an admin starts, stops, restarts
/// or removes a container; the logs socket (`Network/DockerLogSession.swift`) streams a
/// container's lines.
///
/// The simulator has no agents: a server's engine is a ``DockerPlan`` (a pure function of the
/// server's id, its creation and the clock). Its tables (migration 20) keep what the plan
/// cannot know: each server's agent settings from the control API, the containers an action
/// changed, and the events the actions wrote.
struct DockerArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Docker.dockerContainers, answering: Self.containers),
    route(RouteCatalogue.Docker.dockerStats, answering: Self.stats),
    route(RouteCatalogue.Docker.dockerInfo, answering: Self.info),
    route(RouteCatalogue.Docker.dockerEvents, answering: Self.events),
    route(RouteCatalogue.Docker.dockerNetworks, answering: Self.networks),
    route(RouteCatalogue.Docker.dockerVolumes, answering: Self.volumes),
    route(RouteCatalogue.Docker.dockerContainerAction, answering: Self.containerAction),
    // The socket's plain-HTTP answer (a GET without an upgrade): axum's 400.
    Route(socket: RouteCatalogue.Docker.dockerLogs) { _, _, _ in
      Reply.text(400, "Connection header did not include 'upgrade'")
    },
  ]

  /// `POST /__simulator/servers/{id}/docker {capability?, feature?, online?, responsive?,
  /// failure?}`: turns a server's Docker on or off piece by piece (Protocol/AppRoutes.md §8.6).
  static let controlRoutes: [Route] = [
    control("POST", "__simulator/servers/*/docker", Self.controlDocker)
  ]

  static let migrations: [Migration] = [
    Migration(
      version: 20,
      [
        // Protocol/AppRoutes.md §8.6. One row per server the control API touched:
        // `unresponsive` makes its agent never answer (the 408), `failure` makes every action
        // fail on the agent with that text (the 200 with success:false).
        """
        CREATE TABLE docker_agents (
          server_id TEXT PRIMARY KEY, unresponsive INTEGER NOT NULL DEFAULT 0, failure TEXT)
        """,
        // A container an action changed: its state since `changed_at` (ns); `removed` rows
        // are gone from every list.
        """
        CREATE TABLE docker_container_states (
          server_id TEXT NOT NULL, container_id TEXT NOT NULL, state TEXT NOT NULL,
          changed_at INTEGER NOT NULL, PRIMARY KEY (server_id, container_id))
        """,
        // The events the actions wrote (the plan's own past events are derived). Times in unix
        // seconds, as on the wire; `attributes` is a JSON object.
        """
        CREATE TABLE docker_events (
          id INTEGER PRIMARY KEY AUTOINCREMENT, server_id TEXT NOT NULL,
          timestamp INTEGER NOT NULL, event_type TEXT NOT NULL, action TEXT NOT NULL,
          actor_id TEXT NOT NULL, actor_name TEXT, attributes TEXT NOT NULL)
        """,
        "CREATE INDEX docker_events_server ON docker_events (server_id, timestamp)",
      ])
  ]
}
