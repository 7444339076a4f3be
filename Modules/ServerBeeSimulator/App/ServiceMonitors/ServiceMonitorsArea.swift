import ServerBeeRoutes
import ServerBeeTransport

/// Service monitors (Protocol/AppRoutes.md §11): any member lists them, reads one with its
/// latest record and reads its records; an admin runs a check now.
///
/// The monitors are seeded rows (the app cannot create them). Their scheduled records are not
/// stored but a pure function of the monitor and the simulator clock
/// (``ServiceMonitorHistory``); a check an admin asks for is stored (its time and number) and
/// its outcome derived like the others, so every read agrees and a fixed clock gives fixed
/// answers. Its tables are its migration 19.
struct ServiceMonitorsArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.ServiceMonitors.serviceMonitors, Self.monitors),
    route(RouteCatalogue.ServiceMonitors.serviceMonitor, Self.monitor),
    route(RouteCatalogue.ServiceMonitors.serviceMonitorRecords, Self.records),
    route(RouteCatalogue.ServiceMonitors.checkServiceMonitor, Self.check),
  ]

  static let controlRoutes: [Route] = []

  /// 2026-01-01T00:00:00Z in nanoseconds: the first seeded monitor's creation; the others
  /// follow a minute apart.
  static let seededAt: Int64 = 1_767_225_600 * 1_000_000_000

  static let migrations: [Migration] = [
    Migration(
      version: 19,
      [
        // Protocol/AppRoutes.md §11. Times in nanoseconds. The state columns of the wire
        // (`last_status`, `consecutive_failures`, `last_checked_at`) are derived from the
        // records, so they are not stored. [inferred] the seeded monitors: one of each type
        // and a disabled one that was never checked.
        """
        CREATE TABLE service_monitors (
          id TEXT PRIMARY KEY, name TEXT NOT NULL, monitor_type TEXT NOT NULL,
          target TEXT NOT NULL, interval INTEGER NOT NULL, config_json TEXT NOT NULL,
          notification_group_id TEXT, retry_count INTEGER NOT NULL, server_ids_json TEXT,
          enabled INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)
        """,
        """
        INSERT INTO service_monitors VALUES
          ('ssl-example', 'example.com certificate', 'ssl', 'example.com', 3600,
           '{"warning_days":14,"critical_days":7}', NULL, 1, NULL, 1,
           \(seededAt), \(seededAt)),
          ('dns-example', 'example.com A record', 'dns', 'example.com', 300,
           '{"record_type":"A","expected_values":["93.184.215.14"]}', NULL, 1, NULL, 1,
           \(seededAt + 60 * second), \(seededAt + 60 * second)),
          ('http-status-page', 'Status page', 'http_keyword', 'https://status.example.com/', 60,
           '{"keyword":"All systems operational","expected_status":[200]}', NULL, 2,
           NULL, 1, \(seededAt + 120 * second), \(seededAt + 120 * second)),
          ('tcp-database', 'Database port', 'tcp', 'db.example.net:5432', 60,
           '{"timeout":10}', NULL, 3, '["server-1"]', 1, \(seededAt + 180 * second),
           \(seededAt + 180 * second)),
          ('whois-example', 'example.com registration', 'whois', 'example.com', 86400,
           '{"warning_days":30,"critical_days":7}', NULL, 1, NULL, 1,
           \(seededAt + 240 * second), \(seededAt + 240 * second)),
          ('tcp-legacy-smtp', 'Legacy SMTP', 'tcp', 'mail.example.org:25', 300, '{}', NULL, 1,
           NULL, 0, \(seededAt + 300 * second), \(seededAt + 300 * second))
        """,
        // The checks admins asked for, in order; their outcomes are derived.
        """
        CREATE TABLE service_monitor_checks (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT, monitor_id TEXT NOT NULL,
          time INTEGER NOT NULL)
        """,
      ])
  ]

  private static let second: Int64 = 1_000_000_000
}
