public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// The firewall blocklist (`Documentation/Protocol/Firewall.md`).
  public enum Firewall {
    /// `GET /api/firewall/blocks`: one page, newest first (Protocol/Firewall.md §2).
    public static let firewallBlocks = APIRoute<NoPath, NoBody, FirewallBlockPage>(
      "firewallBlocks", .get, "/api/firewall/blocks", .member,
      query: ["limit", "origin", "target_q", "cursor"],
      summary: "one page of the firewall blocklist")
    /// `POST /api/firewall/blocks` (Protocol/Firewall.md §4).
    public static let createFirewallBlock = APIRoute<NoPath, FirewallBlockRequest, FirewallBlock>(
      "createFirewallBlock", .post, "/api/firewall/blocks", .admin,
      summary: "block an address or network")
    /// `DELETE /api/firewall/blocks/{id}` (Protocol/Firewall.md §5).
    public static let deleteFirewallBlock = APIRoute<PathID, NoBody, Bool>(
      "deleteFirewallBlock", .delete, "/api/firewall/blocks/{id}", .admin,
      summary: "remove a blocklist entry")
    /// `GET /api/firewall/stats` (Protocol/Firewall.md §6).
    public static let firewallStats = APIRoute<NoPath, NoBody, FirewallStats>(
      "firewallStats", .get, "/api/firewall/stats", .member,
      summary: "blocklist counts by origin and family")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      firewallBlocks.erased, createFirewallBlock.erased, deleteFirewallBlock.erased,
      firewallStats.erased,
    ]
  }
}
