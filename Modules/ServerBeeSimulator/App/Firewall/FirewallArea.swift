import ServerBeeRoutes
import ServerBeeTransport

/// The firewall blocklist (Protocol/Firewall.md): the paged list and the counts for any member,
/// adding and removing entries for admins, and the control API's entries of either origin (a
/// security rule's `auto` entries, or entries at a chosen time).
///
/// Its table `block_list` is its migration 15. The simulator has no agents, so an entry is
/// applied nowhere; the live stream hears `blocklist_changed`.
struct FirewallArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Firewall.firewallBlocks, Self.firewallBlocks),
    route(RouteCatalogue.Firewall.createFirewallBlock, Self.createFirewallBlock),
    route(RouteCatalogue.Firewall.deleteFirewallBlock, Self.deleteFirewallBlock),
    route(RouteCatalogue.Firewall.firewallStats, Self.firewallStats),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/firewall/blocks", Self.controlCreateBlock)
  ]

  static let migrations: [Migration] = [
    Migration(
      version: 15,
      [
        // Protocol/Firewall.md §1. Times in nanoseconds like every stored time;
        // `server_ids_json` is JSON array text (NULL = none given), answered as a real array.
        // The target is unique, as upstream's duplicate check relies on.
        """
        CREATE TABLE block_list (
          id TEXT PRIMARY KEY, target TEXT NOT NULL UNIQUE, family INTEGER NOT NULL,
          cover_type TEXT NOT NULL, server_ids_json TEXT, comment TEXT, origin TEXT NOT NULL,
          origin_event_id TEXT, origin_rule_id TEXT, created_by TEXT,
          created_at INTEGER NOT NULL)
        """,
        "CREATE INDEX block_list_created ON block_list (created_at)",
      ])
  ]
}
