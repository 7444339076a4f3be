import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee security events [--server ID] [--limit N]` and `serverbee security event ID`.
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
    let session = try await context.openSession()
    _ = try await session.requireSignedIn(server: url)
    let api = try session.client.api()
    let query = SecurityEventQuery(serverID: serverID, pageSize: min(limit, 200))
    let events = try await APIRequest.run("Loading security events", console: context.console) {
      var events: [SecurityEvent] = []
      for try await page in api.securityEvents(query) {
        events += page.items
        if events.count >= limit { break }
      }
      return Array(events.prefix(limit))
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(events))
    } else if events.isEmpty {
      context.console.line("No security events.")
    } else {
      let names = await APIRequest.serverNames(api)
      context.console.line(Tables.securityEvents(events, serverNames: names))
    }
  }

  /// Shows one event with its evidence.
  static func event(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    guard !id.isEmpty else {
      throw CommandLineError(.usage, "use 'serverbee security event ID'")
    }
    let session = try await context.openSession()
    _ = try await session.requireSignedIn(server: serverOption(context).url)
    let api = try session.client.api()
    let event = try await APIRequest.run(
      "Loading the security event", console: context.console,
      notFound: "there is no security event '\(id)' (see 'serverbee security events')"
    ) { try await api.securityEvent(id: id) }
    if context.console.json {
      context.console.json(try WireJSON.encode(event))
    } else {
      let names = await APIRequest.serverNames(api)
      context.console.line(Tables.securityEvent(event, serverNames: names))
    }
  }
}
