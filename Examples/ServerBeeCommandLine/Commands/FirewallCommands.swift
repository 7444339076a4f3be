import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee firewall [--all] [--origin O]`, `firewall block TARGET …`, `firewall unblock ID`
/// and `firewall stats` (listing and counts: anyone signed in; changes: admins;
/// Protocol/Firewall.md).
enum FirewallCommands {
  private static let forbidden = "only an admin may change the firewall blocklist"

  /// `--server` names monitored servers here (ids, comma-separated); a value with `://` is the
  /// ServerBee URL check every other command makes (as `security events` reads it).
  private static func serverOption(_ context: CommandContext) -> (url: String?, ids: [String]?) {
    guard let value = context.server else { return (nil, nil) }
    guard !value.contains("://") else { return (value, nil) }
    let ids = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    return (nil, ids)
  }

  /// `firewall`: one page, or every page with `--all`.
  static func list(_ context: CommandContext) async throws {
    let arguments = context.arguments
    var query = FirewallBlockQuery()
    if let text = arguments.values["origin"] {
      guard text == "auto" || text == "manual" else {
        throw CommandLineError(
          .usage, "--origin expects auto or manual, got '\(TerminalText.safe(text))'")
      }
      query.origin = FirewallBlockOrigin(rawValue: text)
    }
    if let text = arguments.values["page-size"] {
      guard let size = Int(text), (1...FirewallBlockQuery.maximumPageSize).contains(size) else {
        throw CommandLineError(
          .usage, "--page-size expects a number from 1 to 200, got '\(TerminalText.safe(text))'")
      }
      query.pageSize = size
    }
    let all = arguments.flags.contains("all")
    if all, query.pageSize == nil { query.pageSize = FirewallBlockQuery.maximumPageSize }
    let api = try await APICredential.client(context)
    let (blocks, more) = try await APIRequest.run(
      "Loading the firewall blocklist", console: context.console
    ) { [query] in
      if all { return (try await api.allFirewallBlocks(query), false) }
      let page = try await api.firewallBlockPage(query)
      return (page.items, page.nextCursor != nil)
    }
    try await ListOutput.print(
      blocks, empty: query.origin == nil ? "Nothing is blocked." : "No such entries.",
      console: context.console
    ) { blocks in
      let table = ListOutput.table(
        blocks,
        columns: [
          .left("TARGET"), .left("ORIGIN"), .left("SERVERS"), .left("COMMENT"), .left("ADDED"),
          .left("ID"),
        ]
      ) { block in
        [
          block.target, block.origin.rawValue, coverCell(block),
          Formatting.excerpt(block.comment ?? ""), Formatting.time(block.createdAt), block.id,
        ]
      }
      return more ? table + "\nMore entries are older: add --all to list every one." : table
    }
  }

  /// `firewall block TARGET [--comment C] [--server IDS] [--cover all|include|exclude]`.
  static func block(_ context: CommandContext) async throws {
    let target = context.arguments.argument(0)
    let (url, ids) = serverOption(context)
    let request = FirewallBlockRequest(
      target: target, coverType: try cover(context.arguments, servers: ids), serverIDs: ids,
      comment: context.arguments.values["comment"])
    let api = try await APICredential.client(context, serverURL: url).api
    let block = try await create(request, api: api, console: context.console)
    try report(block, context.console)
  }

  /// `firewall unblock ID` (confirmed before it runs).
  static func unblock(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    try await APIRequest.run(
      "Removing the blocklist entry", console: context.console,
      notFound: "there is no blocklist entry '\(id)' (see 'serverbee firewall')",
      forbidden: forbidden
    ) { try await api.deleteFirewallBlock(id: id) }
    if context.console.json {
      context.console.json(try WireJSON.encode(["deleted": id]))
    } else {
      context.console.line(
        TerminalText.safe("Removed blocklist entry \(id); the agents unblock it."))
    }
  }

  /// `firewall stats`.
  static func stats(_ context: CommandContext) async throws {
    let api = try await APICredential.client(context)
    let stats = try await APIRequest.run("Counting blocklist entries", console: context.console) {
      try await api.firewallStats()
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(stats))
      return
    }
    context.console.line(
      TextTable.keyValue([
        ("blocked:", "\(stats.total)"), ("by admins:", "\(stats.manual)"),
        ("by security rules:", "\(stats.auto)"), ("IPv4:", "\(stats.v4)"),
        ("IPv6:", "\(stats.v6)"),
      ]))
  }

  /// Sends a block; the server's documented refusals become sentences that name the reason.
  static func create(
    _ request: FirewallBlockRequest, api: ServerBeeAPIClient, console: Console
  ) async throws -> FirewallBlock {
    do {
      return try await APIRequest.run(
        "Blocking \(request.target)", console: console, forbidden: forbidden
      ) { try await api.createFirewallBlock(request) }
    } catch let error as ServerBeeAPIError {
      let target = TerminalText.safe(request.target)
      switch error.firewallBlockRefusal {
      case .invalidTarget?:
        throw CommandLineError(
          .usage, "'\(target)' is not an IP address or a CIDR network such as 203.0.113.0/24",
          underlying: error)
      case .guardrail(let range)?:
        throw CommandLineError(
          .refused,
          "the server never blocks \(range) (loopback, private, link-local, multicast and "
            + "reserved ranges are protected), and \(target) overlaps it",
          underlying: error)
      case .allowList(let entry)?:
        throw CommandLineError(
          .refused,
          "\(target) overlaps \(entry), which the server's allow list protects (its agents' "
            + "own addresses are on it)",
          underlying: error)
      case .alreadyBlocked(let canonical)?:
        throw CommandLineError(
          .refused, "\(canonical) is blocked already (see 'serverbee firewall')",
          underlying: error)
      case nil:
        throw error
      }
    }
  }

  /// `Blocked 203.0.113.7/32 on every server (id …).`, or the entry as JSON.
  static func report(_ block: FirewallBlock, _ console: Console) throws {
    if console.json {
      console.json(try WireJSON.encode(block))
      return
    }
    console.line(TerminalText.safe("Blocked \(block.target) \(scope(block)) (id \(block.id))."))
  }

  /// `on every server`, `only on 2 servers`, `on every server but s1`.
  static func scope(_ block: FirewallBlock) -> String {
    let ids = block.serverIDs ?? []
    let servers = ids.count == 1 ? ids[0] : "\(ids.count) servers"
    switch block.coverType {
    case .include: return "only on \(servers)"
    case .exclude where !ids.isEmpty: return "on every server but \(servers)"
    case .all, .exclude: return "on every server"
    default: return "on \(block.coverType.rawValue) \(servers)"
    }
  }

  /// The servers cell of the table.
  private static func coverCell(_ block: FirewallBlock) -> String {
    let ids = block.serverIDs ?? []
    switch block.coverType {
    case .include: return ids.isEmpty ? "none" : IncidentArguments.serversCell(ids)
    case .exclude where !ids.isEmpty: return "all but " + IncidentArguments.serversCell(ids)
    case .all, .exclude: return "all"
    default: return block.coverType.rawValue
    }
  }

  /// `--cover`: `include` by default when servers are given, else the server's `all`.
  private static func cover(_ arguments: ParsedArguments, servers: [String]?) throws
    -> FirewallCoverType?
  {
    let hasServers = !(servers ?? []).isEmpty
    guard let text = arguments.values["cover"] else { return hasServers ? .include : nil }
    let cover = FirewallCoverType(rawValue: text)
    switch cover {
    case .all:
      guard !hasServers else {
        throw CommandLineError(.usage, "--cover all blocks on every server: leave out --server")
      }
      return cover
    case .include, .exclude:
      guard hasServers else {
        throw CommandLineError(.usage, "--cover \(text) needs the servers: --server ID[,ID…]")
      }
      return cover
    default:
      throw CommandLineError(
        .usage, "--cover expects all, include or exclude, got '\(TerminalText.safe(text))'")
    }
  }
}
