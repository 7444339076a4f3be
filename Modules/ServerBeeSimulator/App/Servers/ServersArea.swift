import ServerBeeRoutes
import ServerBeeTransport

/// Servers (Protocol/Servers.md): the list, one server, its records and the groups, editing a
/// server, its tags and the groups (`ServersArea+Edit.swift`, `ServersArea+Groups.swift`,
/// Protocol/Servers.md §4), the WebSocket route's plain-HTTP answer, and the control API's
/// servers, live numbers, presence and groups.
///
/// Its tables (`servers`, `records`, `server_groups`, with the list index of migration 6 and
/// the packed live numbers of migration 7) are in ``Schema/baseMigrations``; migration 13, its
/// own, adds the columns an edit writes (`geo_manual`, billing, the traffic allowance). What the live
/// stream and the other areas read (``SimulatorCore/allServers()``, the `full_sync` frame,
/// ``SimulatorCore/applyMetrics(serverID:_:)``) is in `SimulatorCore+Servers.swift`.
struct ServersArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Servers.servers, answering: Self.listServers),
    route(RouteCatalogue.Servers.server, Self.serverDetail),
    route(RouteCatalogue.Servers.records, Self.serverRecords),
    route(RouteCatalogue.Servers.serverGroups, Self.serverGroups),
    route(RouteCatalogue.Servers.updateServer, Self.updateServer),
    route(RouteCatalogue.Servers.serverTags, Self.serverTags),
    route(RouteCatalogue.Servers.setServerTags, Self.setServerTags),
    route(RouteCatalogue.Servers.createServerGroup, Self.createServerGroup),
    route(RouteCatalogue.Servers.updateServerGroup, Self.updateServerGroup),
    route(RouteCatalogue.Servers.deleteServerGroup, Self.deleteServerGroup),
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

  static let migrations: [Migration] = [
    Migration(
      version: 13,
      [
        // What `PUT /api/servers/{id}` writes besides the first columns (Protocol/Servers.md
        // §4.1): the pinned-flag marker, billing and the traffic allowance. `expired_at` is
        // nanoseconds like every stored time.
        "ALTER TABLE servers ADD COLUMN geo_manual INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE servers ADD COLUMN price REAL",
        "ALTER TABLE servers ADD COLUMN billing_cycle TEXT",
        "ALTER TABLE servers ADD COLUMN currency TEXT",
        "ALTER TABLE servers ADD COLUMN expired_at INTEGER",
        "ALTER TABLE servers ADD COLUMN traffic_limit INTEGER",
        "ALTER TABLE servers ADD COLUMN traffic_limit_type TEXT",
        "ALTER TABLE servers ADD COLUMN billing_start_day INTEGER",
      ])
  ]
}
