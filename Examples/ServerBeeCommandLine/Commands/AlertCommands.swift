import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee alerts show KEY`: one alert's current cycle.
enum AlertCommands {
  /// Shows the alert detail of a key from `serverbee alerts` (a `v1.` key or `rule:server`).
  static func show(_ context: CommandContext) async throws {
    let positionals = context.arguments.positionals
    guard positionals.count == 2 else {
      throw CommandLineError(
        .usage, "use 'serverbee alerts show KEY' (KEY from 'serverbee alerts')")
    }
    let key: AlertKey
    do {
      key = try AlertKey(parsing: positionals[1])
    } catch let error as ServerBeeModelsError {
      throw CommandLineError(.usage, error.message)
    }
    let session = try await context.openSession()
    _ = try await session.requireSignedIn(server: context.server)
    let api = try session.client.api()
    let detail = try await APIRequest.run(
      "Loading the alert", console: context.console,
      notFound:
        "Alert not found: no current alert cycle has this key (the alert re-armed into a new "
        + "cycle or its rule was deleted; see 'serverbee alerts')"
    ) { try await api.alertEvent(key) }
    if context.console.json {
      context.console.json(try WireJSON.encode(detail))
    } else {
      context.console.line(Tables.alertDetail(detail))
    }
  }
}
