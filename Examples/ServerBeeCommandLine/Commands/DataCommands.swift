import AuthSession
import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport

/// `serverbee servers`, `alerts` and `devices`: one request each, a table or JSON.
enum DataCommands {
  /// Lists the servers: live state from one full sync merged with their configuration.
  static func servers(_ context: CommandContext) async throws {
    let rows = try await FleetFeed.with(context) { feed, _ in
      try await Spinner.run("Waiting for the live stream", console: context.console) {
        ServerRow.rows(of: try await feed.firstSync())
      }
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(rows))
    } else {
      context.console.line(Tables.servers(rows))
    }
  }

  /// Lists recent alert events.
  static func alerts(_ context: CommandContext) async throws {
    let limitText = context.arguments.values["limit"] ?? "50"
    guard let limit = Int(limitText), (1...1000).contains(limit) else {
      throw CommandLineError(.usage, "--limit expects a number from 1 to 1000, got '\(limitText)'")
    }
    let api = try await APICredential.client(context)
    let events = try await Spinner.run("Loading alert events", console: context.console) {
      try await api.alertEvents(limit: limit)
    }
    try await printAlerts(events, console: context.console)
  }

  /// Lists this account's mobile sessions.
  static func devices(_ context: CommandContext) async throws {
    let (api, identity) = try await APICredential.client(context, serverURL: context.server)
    let devices = try await Spinner.run("Loading devices", console: context.console) {
      try await api.devices()
    }
    try await printDevices(devices, current: identity?.installationID, console: context.console)
  }

  /// Prints alert events as a table or JSON.
  static func printAlerts(_ events: [AlertEvent], console: Console) async throws {
    try await ListOutput.print(events, empty: "No alert events.", console: console) {
      Tables.alerts($0)
    }
  }

  /// Prints devices as a table or JSON.
  static func printDevices(_ devices: [MobileDevice], current: String?, console: Console)
    async throws
  {
    try await ListOutput.print(devices, empty: "No mobile devices.", console: console) {
      Tables.devices($0, currentInstallation: current)
    }
  }
}
