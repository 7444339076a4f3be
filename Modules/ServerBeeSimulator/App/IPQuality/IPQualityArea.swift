import ServerBeeRoutes
import ServerBeeTransport

/// IP quality (Protocol/AppRoutes.md §9): every server's reputation report and service results
/// for any member; rechecks, the settings and the services for admins.
///
/// The simulator has no agents: a server's results are a pure function of its id, the service
/// and how many checks it had (``IPQualityReportPlan``), so the overview and the per-server
/// reads agree. A recheck lands ``IPQualityArea/checkDelay`` later on the simulator clock. Its
/// tables are its migration 18 (16 is the network probes', 17 traceroute's).
struct IPQualityArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.IPQuality.ipQualityOverview, Self.overview),
    route(RouteCatalogue.IPQuality.unlockServices, Self.services),
    route(RouteCatalogue.IPQuality.serverIPQuality, Self.serverQuality),
    route(RouteCatalogue.IPQuality.checkIPQuality, Self.check),
    route(RouteCatalogue.IPQuality.ipQualitySettings, Self.settings),
    route(RouteCatalogue.IPQuality.updateIPQualitySettings, Self.updateSettings),
    route(RouteCatalogue.IPQuality.updateUnlockService, Self.updateService),
    route(RouteCatalogue.IPQuality.deleteUnlockService, Self.deleteService),
  ]

  static let controlRoutes: [Route] = []

  /// 2026-01-01T00:00:00Z in nanoseconds: when the seeded services were made.
  static let seededAt: Int64 = 1_767_225_600 * 1_000_000_000

  static let migrations: [Migration] = [
    Migration(
      version: 18,
      [
        // Protocol/AppRoutes.md §9. Times in nanoseconds. `detector`, `request` and `rules`
        // are JSON text. [inferred] the built-ins below, and one custom service an admin added.
        """
        CREATE TABLE ip_quality_services (
          id TEXT PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
          category TEXT NOT NULL, popularity INTEGER NOT NULL, is_builtin INTEGER NOT NULL,
          enabled INTEGER NOT NULL, detector TEXT, request TEXT, rules TEXT,
          created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)
        """,
        """
        INSERT INTO ip_quality_services VALUES
          ('netflix', 'netflix', 'Netflix', 'streaming', 100, 1, 1, '{"kind":"netflix"}',
           NULL, NULL, \(seededAt), \(seededAt)),
          ('youtube_premium', 'youtube_premium', 'YouTube Premium', 'streaming', 90, 1, 1,
           '{"kind":"youtube"}', NULL, NULL, \(seededAt), \(seededAt)),
          ('disney_plus', 'disney_plus', 'Disney+', 'streaming', 80, 1, 1,
           '{"kind":"disney"}', NULL, NULL, \(seededAt), \(seededAt)),
          ('chatgpt', 'chatgpt', 'ChatGPT', 'ai', 100, 1, 1, '{"kind":"openai"}', NULL, NULL,
           \(seededAt), \(seededAt)),
          ('claude', 'claude', 'Claude', 'ai', 90, 1, 1, '{"kind":"anthropic"}', NULL, NULL,
           \(seededAt), \(seededAt)),
          ('custom-status-page', 'custom_status_page', 'Status page', 'custom', 10, 0, 1, NULL,
           '{"url":"https://status.example.com/","method":"GET","headers":[],"timeout_ms":5000}',
           '[{"status":"unlocked","when":{"status_code":200}}]', \(seededAt), \(seededAt))
        """,
        """
        CREATE TABLE ip_quality_settings (
          id INTEGER PRIMARY KEY CHECK (id = 1), check_interval_hours INTEGER NOT NULL)
        """,
        "INSERT INTO ip_quality_settings VALUES (1, 12)",
        // How many checks a server had, the last one's time, and a recheck on its way.
        """
        CREATE TABLE ip_quality_checks (
          server_id TEXT PRIMARY KEY, generation INTEGER NOT NULL, checked_at INTEGER NOT NULL,
          pending_at INTEGER)
        """,
      ])
  ]

  /// How long an agent takes to answer a recheck (4 s) [inferred].
  static let checkDelay: Int64 = 4_000_000_000
}
