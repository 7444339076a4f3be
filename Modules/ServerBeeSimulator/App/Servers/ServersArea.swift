import ServerBeeRoutes
import ServerBeeTransport

/// Servers (Protocol/Servers.md): the list, one server, its records and the groups, the
/// WebSocket route's plain-HTTP answer, and the control API's servers, live numbers, presence
/// and groups.
///
/// Its tables (`servers`, `records`, `server_groups`, with the list index of migration 6 and
/// the packed live numbers of migration 7) are in ``Schema/baseMigrations``. What the live
/// stream and the other areas read (``SimulatorCore/allServers()``, the `full_sync` frame,
/// ``SimulatorCore/applyMetrics(serverID:_:)``) is in `SimulatorCore+Servers.swift`.
struct ServersArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Servers.servers, answering: Self.listServers),
    route(RouteCatalogue.Servers.server, Self.serverDetail),
    route(RouteCatalogue.Servers.records, Self.serverRecords),
    route(RouteCatalogue.Servers.serverGroups, Self.serverGroups),
    // The WebSocket route answers plain HTTP when no upgrade is requested.
    Route(socket: RouteCatalogue.Live.fleetStream) { _, _, _ in
      Reply.text(400, "Connection header did not include 'upgrade'")
    },
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/servers", Self.controlCreateServer),
    control("POST", "__simulator/servers/*/metrics", Self.controlMetrics),
    control("POST", "__simulator/servers/*/online") { area, context in
      try area.controlPresence(context, true)
    },
    control("POST", "__simulator/servers/*/offline") { area, context in
      try area.controlPresence(context, false)
    },
    control("POST", "__simulator/server-groups", Self.controlCreateGroup),
  ]

  static let migrations: [Migration] = []
}
