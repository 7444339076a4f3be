import ServerBeeTransport

/// The one route table (issue 25): the areas, and the public and control tables built from
/// them. No two routes can match the same request (`RouteTableTests`), so the order of the
/// areas and of their routes changes no answer.
extension SimulatorCore {
  /// Every area of the simulator, each a folder under `App/`. The route tables and the schema's
  /// migrations (``Schema/allMigrations``) are collected from this list.
  static let areas: [any SimulatorArea.Type] = [
    AuthArea.self, PushArea.self, ServersArea.self, AlertsArea.self, AccountArea.self,
    ClockArea.self,
  ]

  /// Every public route (`api/...`): the routes not yet in an area, then each area's.
  static let apiRoutes: [Route] = baseRoutes + areas.flatMap { $0.routes }

  /// Every control route (`__simulator/...`): those not yet in an area, then each area's.
  static let controlRoutes: [Route] = baseControlRoutes + areas.flatMap { $0.controlRoutes }

  static let baseRoutes: [Route] = [
    Route("GET", "api/tasks", .admin) { try $0.tasks($1, $2) },
    Route("GET", "api/tasks/*", .admin) { try $0.taskDetail($1, $2) },
    Route("GET", "api/tasks/*/results", .admin) { try $0.taskResults($1, $2) },
    Route("GET", "api/security/stats", .protected) { try $0.securityStats($1, $2) },
    Route("GET", "api/security/events", .protected) { try $0.securityEvents($1, $2) },
    Route("GET", "api/security/events/*", .protected) { try $0.securityEventDetail($1, $2) },
    Route("DELETE", "api/security/events/*", .admin) { try $0.deleteSecurityEvent($1, $2) },
  ]

  static let baseControlRoutes: [Route] = [
    Route("POST", "__simulator/tasks", .open) { core, context, _ in
      try core.controlCreateTask(context)
    },
    Route("POST", "__simulator/tasks/*/runs", .open) { core, context, _ in
      try core.controlFinishRun(context)
    },
    Route("POST", "__simulator/security-events", .open) { core, context, _ in
      try core.controlSecurityEvent(context)
    },
    // `POST __simulator/push/outbox/run` waits for the relay, so it is answered outside the
    // database lock (SimulatorCore.respond / Simulator.handle), not from this table.
  ]
}
