import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee security events [--server ID] [--limit N]`, `security event ID [--block]`,
/// `security stats [--by G] [--server ID]` and `security delete ID`.
enum SecurityCommands {
  /// `--server` here names a monitored server (an id); a value with `://` is the ServerBee URL
  /// check every other command makes.
  private static func serverOption(_ context: CommandContext) -> (url: String?, serverID: String?) {
    guard let value = context.server else { return (nil, nil) }
    return value.contains("://") ? (value, nil) : (nil, value)
  }

  /// Lists events newest first, page by page, until `--limit`.
  static func events(_ context: CommandContext) async throws {
    let limitText = context.arguments.values["limit"] ?? "50"
    guard let limit = Int(limitText), (1...1000).contains(limit) else {
      throw CommandLineError(.usage, "--limit expects a number from 1 to 1000, got '\(limitText)'")
    }
    let (url, serverID) = serverOption(context)
    let api = try await APICredential.client(context, serverURL: url).api
    let query = SecurityEventQuery(serverID: serverID, pageSize: min(limit, 200))
    let events = try await APIRequest.run("Loading security events", console: context.console) {
      var events: [SecurityEvent] = []
      for try await page in api.securityEvents(query) {
        events += page.items
        if events.count >= limit { break }
      }
      return Array(events.prefix(limit))
    }
    try await ListOutput.print(events, empty: "No security events.", console: context.console) {
      Tables.securityEvents($0, serverNames: await APIRequest.serverNames(api))
    }
  }

  /// Shows one event with its evidence.
  static func event(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    guard !id.isEmpty else {
      throw CommandLineError(.usage, "use 'serverbee security event ID'")
    }
    let api = try await APICredential.client(context, serverURL: serverOption(context).url).api
    let event = try await APIRequest.run(
      "Loading the security event", console: context.console,
      notFound: "there is no security event '\(id)' (see 'serverbee security events')"
    ) { try await api.securityEvent(id: id) }
    guard context.arguments.flags.contains("block") else {
      if context.console.json {
        context.console.json(try WireJSON.encode(event))
      } else {
        let names = await APIRequest.serverNames(api)
        context.console.line(Tables.securityEvent(event, serverNames: names))
      }
      return
    }
    // The app's "Block IP": a manual entry for the event's source address on every server
    // (Protocol/Firewall.md §4).
    let block = try await FirewallCommands.create(
      FirewallBlockRequest(
        target: event.sourceIP, comment: "Blocked from security event \(event.id)"),
      api: api, console: context.console)
    if context.console.json {
      context.console.json(try WireJSON.encode(EventBlock(event: event, block: block)))
    } else {
      let names = await APIRequest.serverNames(api)
      context.console.line(Tables.securityEvent(event, serverNames: names))
      try FirewallCommands.report(block, context.console)
    }
  }

  /// `security event ID --block --json`: the event and the entry that blocks its source.
  private struct EventBlock: Encodable {
    var event: SecurityEvent
    var block: FirewallBlock
  }

  /// `security stats [--by G] [--server ID] [--limit N]`: event counts per group, largest first.
  static func stats(_ context: CommandContext) async throws {
    let grouping = SecurityStatsGrouping(rawValue: context.arguments.values["by"] ?? "event_type")
    let limit = try context.arguments.values["limit"].map { text in
      guard let value = Int(text), (1...500).contains(value) else {
        throw CommandLineError(.usage, "--limit expects a number from 1 to 500, got '\(text)'")
      }
      return value
    }
    let (url, serverID) = serverOption(context)
    let api = try await APICredential.client(context, serverURL: url).api
    let rows: [SecurityStatsEntry]
    do {
      rows = try await APIRequest.run("Counting security events", console: context.console) {
        try await api.securityStats(groupedBy: grouping, serverID: serverID, limit: limit)
      }
    } catch let error as ServerBeeAPIError where error.code == .badRequest {
      throw CommandLineError(
        .usage,
        "the server cannot count by '\(grouping.rawValue)' (try event_type, source_ip or day)",
        underlying: error)
    }
    try await ListOutput.print(
      rows, empty: "No security events.", console: context.console,
      columns: [.left(grouping.rawValue.uppercased()), .right("EVENTS")]
    ) { [$0.key, "\($0.count)"] }
  }

  /// `security delete ID` (admins, asks first): removes one event.
  static func delete(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context, serverURL: serverOption(context).url).api
    try await APIRequest.run(
      "Deleting the security event", console: context.console,
      notFound: "there is no security event '\(id)' (see 'serverbee security events')",
      forbidden: "only an admin may delete security events"
    ) { try await api.deleteSecurityEvent(id: id) }
    if context.console.json {
      context.console.json(try WireJSON.encode(["deleted": id]))
    } else {
      context.console.line(TerminalText.safe("Deleted security event \(id)."))
    }
  }
}
