import ServerBeeRoutes
import ServerBeeTransport

/// Incidents, maintenance windows and the status page (Protocol/Incidents.md): incidents with
/// their updates, maintenance windows (which also silence alerts, see
/// `SimulatorCore+Maintenances.swift`) and the status page's one settings row.
///
/// Every incident and maintenance route is admin only, the lists included, so a member gets
/// the router's empty-body 403 (Protocol/Incidents.md §1.1); the status page is read by any
/// member.
struct IncidentsArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Incidents.incidents, Self.listIncidents),
    route(RouteCatalogue.Incidents.createIncident, Self.createIncident),
    route(RouteCatalogue.Incidents.postIncidentUpdate, Self.postIncidentUpdate),
    route(RouteCatalogue.Incidents.deleteIncident, Self.deleteIncident),
    route(RouteCatalogue.Incidents.maintenances, Self.listMaintenances),
    route(RouteCatalogue.Incidents.createMaintenance, Self.createMaintenance),
    route(RouteCatalogue.Incidents.updateMaintenance, Self.updateMaintenance),
    route(RouteCatalogue.Incidents.deleteMaintenance, Self.deleteMaintenance),
    route(RouteCatalogue.Incidents.statusPage, Self.statusPage),
    route(RouteCatalogue.Incidents.updateStatusPage, Self.updateStatusPage),
  ]

  static let controlRoutes: [Route] = []

  static let migrations: [Migration] = [
    Migration(
      version: 11,
      [
        // Incidents (Protocol/Incidents.md §2). Times in nanoseconds like every stored time;
        // `server_ids_json` is the JSON text answered as is (NULL = every server).
        """
        CREATE TABLE incidents (
          id TEXT PRIMARY KEY, title TEXT NOT NULL, status TEXT NOT NULL,
          severity TEXT NOT NULL, server_ids_json TEXT, is_public INTEGER NOT NULL,
          created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, resolved_at INTEGER)
        """,
        """
        CREATE TABLE incident_updates (
          id TEXT PRIMARY KEY, incident_id TEXT NOT NULL, status TEXT NOT NULL,
          message TEXT NOT NULL, created_at INTEGER NOT NULL)
        """,
        "CREATE INDEX incident_updates_incident ON incident_updates(incident_id)",
        // Maintenance windows of the API (Protocol/Incidents.md §3), apart from the control
        // API's `maintenance_windows`; both silence alerts.
        """
        CREATE TABLE maintenances (
          id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT,
          start_at INTEGER NOT NULL, end_at INTEGER NOT NULL, server_ids_json TEXT,
          is_public INTEGER NOT NULL, active INTEGER NOT NULL, created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL)
        """,
        // The status page's one row (Protocol/Incidents.md §4), made here as upstream's
        // migration makes it; its values are the simulator's choice [inferred], its times the
        // wall clock at migration.
        """
        CREATE TABLE status_page (
          id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT,
          server_ids_json TEXT NOT NULL, group_by_server_group INTEGER NOT NULL,
          enabled INTEGER NOT NULL, uptime_yellow_threshold REAL NOT NULL,
          uptime_red_threshold REAL NOT NULL, show_ip_quality INTEGER NOT NULL,
          default_layout TEXT NOT NULL, show_server_detail INTEGER NOT NULL,
          show_network INTEGER NOT NULL, show_incidents INTEGER NOT NULL,
          show_maintenance INTEGER NOT NULL, created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL)
        """,
        """
        INSERT INTO status_page VALUES (
          'default', 'Server Status', NULL, '[]', 0, 1, 99.0, 95.0, 0, 'list', 1, 1, 1, 1,
          CAST(strftime('%s', 'now') AS INTEGER) * 1000000000,
          CAST(strftime('%s', 'now') AS INTEGER) * 1000000000)
        """,
      ])
  ]
}
