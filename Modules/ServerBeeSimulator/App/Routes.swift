/// The one route table: the list of areas, and the public and control tables built
/// from it. No two routes can match the same request (`RouteTableTests`), so the order of the
/// areas and of their routes changes no answer.
extension SimulatorCore {
  /// Every area of the simulator, each a folder under `App/`. The route tables and the schema's
  /// migrations (``Schema/allMigrations``) are collected from this list: registering an area
  /// is one line here.
  static let areas: [any SimulatorArea.Type] = [
    AuthArea.self, PushArea.self, ServersArea.self, AlertsArea.self, TasksArea.self,
    SecurityArea.self, AccountArea.self, ClockArea.self, IncidentsArea.self, AgentsArea.self,
    FirewallArea.self, InsightsArea.self, NetworkProbesArea.self, TracerouteArea.self,
    IPQualityArea.self, ServiceMonitorsArea.self, DockerArea.self,
  ]

  /// Every public route (`api/...`), each area's in the order of ``areas``. `GET /healthz` is
  /// answered before the tables (``respond(_:remoteAddress:)``).
  static let apiRoutes: [Route] = areas.flatMap { $0.routes }

  /// Every control route (`__simulator/...`), each area's in the order of ``areas``.
  /// `POST /__simulator/push/outbox/run` waits for the relay, so it is answered before the
  /// tables, outside the database lock (`Push/SimulatorCore+OutboxRun.swift`).
  static let controlRoutes: [Route] = areas.flatMap { $0.controlRoutes }
}
