import ServerBeeRoutes

extension CommandCatalog {
  /// The firewall blocklist (listing and counts: anyone signed in; changes: admins;
  /// Protocol/Firewall.md).
  static let firewall: [CommandDeclaration] = [
    CommandDeclaration(
      "firewall", summary: "the firewall blocklist, newest first",
      options: [
        OptionSpec(name: "all", valueName: nil, help: "every entry, page after page"),
        OptionSpec(name: "origin", valueName: "O", help: "only auto (security rules) or manual"),
        OptionSpec(name: "page-size", valueName: "N", help: "entries per request, 1 to 200 (50)"),
      ],
      discussion: """
        Lists GET /api/firewall/blocks: the blocked network, who added it (manual: an admin; \
        auto: a security rule), which servers block it, the comment and when. Without --all, \
        one page. --all follows the pages to the end and shows every entry once (the server's \
        own cursor would skip one entry at each page boundary). \(apiKeyNote)
        """,
      examples: [
        "serverbee firewall", "serverbee firewall --all --origin auto",
        "serverbee firewall --all --json",
      ],
      routes: [RouteCatalogue.Firewall.firewallBlocks.erased], run: FirewallCommands.list),
    CommandDeclaration(
      "firewall block", summary: "block an address or network (admins)",
      arguments: [.required("TARGET")],
      options: [
        OptionSpec(name: "comment", valueName: "TEXT", help: "a note kept with the entry"),
        OptionSpec(
          name: "cover", valueName: "C",
          help: "all (default), include or exclude the servers given with --server"),
      ],
      discussion: """
        Blocks TARGET, an IP address or a CIDR network (POST /api/firewall/blocks); the server \
        stores it canonical (203.0.113.7 becomes 203.0.113.7/32, host bits of a network are \
        cleared) and sends it to the agents. Here --server takes server ids, comma-separated \
        (see 'serverbee servers --json'): only those servers block it (--cover include, the \
        default with --server), or all but those (--cover exclude); a value with :// is the \
        ServerBee URL, as everywhere else. The server refuses loopback, private, link-local, \
        multicast and reserved ranges, its agents' own addresses, and a target blocked \
        already. \(apiKeyNote)
        """,
      examples: [
        "serverbee firewall block 203.0.113.7 --comment 'ssh scanner'",
        "serverbee firewall block 198.51.100.0/24 --server 5f0c…,9a1b…",
        "serverbee firewall block 2001:db8::/48 --server 5f0c… --cover exclude",
      ],
      routes: [RouteCatalogue.Firewall.createFirewallBlock.erased], run: FirewallCommands.block),
    CommandDeclaration(
      "firewall unblock", summary: "remove a blocklist entry (admins)",
      arguments: [.required("ID")],
      discussion: """
        Removes one entry (DELETE /api/firewall/blocks/{id}); the agents stop blocking it. \
        Asks first on a terminal; without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee firewall unblock 8c1f…", "serverbee firewall unblock 8c1f… --yes"],
      routes: [RouteCatalogue.Firewall.deleteFirewallBlock.erased],
      confirm: { "Remove blocklist entry \($0.first ?? "") so the agents unblock it?" },
      run: FirewallCommands.unblock),
    CommandDeclaration(
      "firewall stats", summary: "blocklist counts by origin and address family",
      discussion: "Counts every entry (GET /api/firewall/stats). \(apiKeyNote)",
      examples: ["serverbee firewall stats", "serverbee firewall stats --json"],
      routes: [RouteCatalogue.Firewall.firewallStats.erased], run: FirewallCommands.stats),
  ]
}
