import ServerBeeRoutes
import ServerBeeTransport

/// Traceroutes (Protocol/AppRoutes.md §7): an admin starts one on a server's agent, any member
/// reads the history and follows a run; admins delete one run or a server's history.
///
/// The simulator has no agents: a run's hops are a pure function of (server, target, request
/// id) (``TraceroutePlan``) and appear one by one on the simulator clock, so a fixed clock gives
/// fixed answers. Its table `traceroutes` is its migration 17 (16 is the network probes'). The
/// control API can stall a server's agent (the time it stalled is kept in `simulator_state`),
/// to show a run that never finishes.
struct TracerouteArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Traceroute.tracerouteHistory, Self.tracerouteHistory),
    route(RouteCatalogue.Traceroute.startTraceroute, Self.startTraceroute),
    route(RouteCatalogue.Traceroute.traceroute, Self.traceroute),
    route(RouteCatalogue.Traceroute.deleteTraceroute, Self.deleteTraceroute),
    route(RouteCatalogue.Traceroute.clearTraceroutes, Self.clearTraceroutes),
  ]

  /// `POST /__simulator/servers/{id}/traceroute-agent {stalled}`: a stalled agent accepts runs
  /// but sends no more hops, so a run never finishes (Protocol/AppRoutes.md §7.2).
  static let controlRoutes: [Route] = [
    control("POST", "__simulator/servers/*/traceroute-agent", Self.controlStall)
  ]

  static let migrations: [Migration] = [
    Migration(
      version: 17,
      [
        // Protocol/AppRoutes.md §7. Times in nanoseconds like every stored time; the hops are
        // not stored but derived from the row (TraceroutePlan). `error` and `failed_at` are set when
        // the agent went away before the run finished.
        """
        CREATE TABLE traceroutes (
          request_id TEXT PRIMARY KEY, server_id TEXT NOT NULL, target TEXT NOT NULL,
          protocol TEXT NOT NULL, started_at INTEGER NOT NULL, error TEXT, failed_at INTEGER)
        """,
        "CREATE INDEX traceroutes_server ON traceroutes (server_id, started_at)",
      ])
  ]
}
