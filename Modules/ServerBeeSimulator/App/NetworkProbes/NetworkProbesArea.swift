import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

/// Network probes (Protocol/AppRoutes.md §6): per-server summaries, records and anomalies and
/// the fleet overview for any member; the targets and the settings, which admins change.
///
/// Its tables, migration 16: `network_probe_targets` (the built-in presets, then custom
/// targets) and `network_probe_setting` (one row). The records are not stored: they are a pure
/// function of server, target and time on the simulator clock (``NetworkProbeHistory``), so the
/// records, anomalies, summaries and overview agree, and a fixed clock gives fixed answers.
///
/// [inferred, the simulator's choice] The simulator has no per-server assignments: every
/// server probes every target. The default target ids are stored and checked only.
struct NetworkProbesArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.NetworkProbes.serverProbeSummary, Self.serverProbeSummary),
    route(RouteCatalogue.NetworkProbes.serverProbeTargets, Self.serverProbeTargets),
    route(RouteCatalogue.NetworkProbes.serverProbeRecords, Self.serverProbeRecords),
    route(RouteCatalogue.NetworkProbes.serverProbeAnomalies, Self.serverProbeAnomalies),
    route(RouteCatalogue.NetworkProbes.probeOverview, Self.probeOverview),
    route(RouteCatalogue.NetworkProbes.probeTargets, Self.probeTargets),
    route(RouteCatalogue.NetworkProbes.createProbeTarget, Self.createProbeTarget),
    route(RouteCatalogue.NetworkProbes.updateProbeTarget, Self.updateProbeTarget),
    route(RouteCatalogue.NetworkProbes.deleteProbeTarget, Self.deleteProbeTarget),
    route(RouteCatalogue.NetworkProbes.probeSetting, Self.probeSetting),
    route(RouteCatalogue.NetworkProbes.updateProbeSetting, Self.updateProbeSetting),
  ]

  static let controlRoutes: [Route] = []

  static let migrations: [Migration] = [
    Migration(
      version: 16,
      [
        // Protocol/AppRoutes.md §6. Presets have a `source` (`preset:<group>`) and no times;
        // custom targets the reverse. Times in nanoseconds like every stored time.
        """
        CREATE TABLE network_probe_targets (
          id TEXT PRIMARY KEY, name TEXT NOT NULL, provider TEXT NOT NULL,
          location TEXT NOT NULL, target TEXT NOT NULL, probe_type TEXT NOT NULL,
          source TEXT, source_name TEXT, created_at INTEGER, updated_at INTEGER)
        """,
        // [inferred] The facts name no built-in presets; these four are plausible ones.
        """
        INSERT INTO network_probe_targets (id, name, provider, location, target, probe_type,
          source, source_name) VALUES
          ('preset-cloudflare-dns', 'Cloudflare DNS', 'Cloudflare', 'Anycast', '1.1.1.1',
            'icmp', 'preset:global', 'Global'),
          ('preset-google-dns', 'Google DNS', 'Google', 'Anycast', '8.8.8.8', 'icmp',
            'preset:global', 'Global'),
          ('preset-quad9-dns', 'Quad9 DNS', 'Quad9', 'Anycast', '9.9.9.9:53', 'tcp',
            'preset:global', 'Global'),
          ('preset-cloudflare-web', 'Cloudflare Web', 'Cloudflare', 'Anycast',
            'https://www.cloudflare.com', 'http', 'preset:global', 'Global')
        """,
        // One row: the documented defaults 60 s, 10 packets, no default targets.
        """
        CREATE TABLE network_probe_setting (
          id INTEGER PRIMARY KEY CHECK (id = 1), interval INTEGER NOT NULL,
          packet_count INTEGER NOT NULL, default_target_ids_json TEXT NOT NULL)
        """,
        "INSERT INTO network_probe_setting VALUES (1, 60, 10, '[]')",
      ])
  ]
}
