import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee maintenance [create TITLE … | edit ID … | delete ID]` (admins;
/// Protocol/Incidents.md §3).
enum MaintenanceCommands {
  private static let forbidden = "only an admin may see or change maintenance windows"

  private static func notFound(_ id: String) -> String {
    "no maintenance window '\(id)' (see 'serverbee maintenance')"
  }

  /// `maintenance`: every window, newest created first.
  static func list(_ context: CommandContext) async throws {
    let windows = try await ListOutput.load(
      context, "Loading maintenance windows", forbidden: forbidden
    ) { try await $0.maintenances() }
    try await ListOutput.print(
      windows, empty: "No maintenance windows.", console: context.console,
      columns: [
        .left("TITLE"), .left("START"), .left("END"), .left("SERVERS"), .left("ACTIVE"),
        .left("PUBLIC"), .left("ID"),
      ]
    ) { window in
      [
        Formatting.excerpt(window.title), Formatting.time(window.startAt),
        Formatting.time(window.endAt), IncidentArguments.serversCell(window.serverIDs),
        window.active ? "yes" : "no", window.isPublic ? "yes" : "no", window.id,
      ]
    }
  }

  /// `maintenance create TITLE --start T --end T [--description D] [--servers IDS] [--public]
  /// [--inactive]`.
  static func create(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let request = MaintenanceCreateRequest(
      title: arguments.argument(0), description: arguments.values["description"],
      startAt: try IncidentArguments.requiredTime(arguments, "start"),
      endAt: try IncidentArguments.requiredTime(arguments, "end"),
      serverIDs: IncidentArguments.serverIDs(arguments),
      isPublic: arguments.flags.contains("public") ? true : nil,
      active: arguments.flags.contains("inactive") ? false : nil)
    let api = try await APICredential.client(context)
    let window = try await APIRequest.run(
      "Scheduling the window", console: console, forbidden: forbidden
    ) { try await api.createMaintenance(request) }
    try report(window, "Scheduled", console)
  }

  /// `maintenance edit ID [--title] [--description] [--start] [--end] [--servers] [--public]
  /// [--active]`: only what is given is sent.
  static func edit(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let id = arguments.argument(0)
    let changes = MaintenanceUpdateRequest(
      title: arguments.values["title"], description: arguments.values["description"],
      startAt: try IncidentArguments.time(arguments, "start"),
      endAt: try IncidentArguments.time(arguments, "end"),
      serverIDs: IncidentArguments.serverIDs(arguments),
      isPublic: try IncidentArguments.switchValue(arguments, "public"),
      active: try IncidentArguments.switchValue(arguments, "active"))
    guard !changes.isEmpty else {
      throw CommandLineError(
        .usage,
        "'maintenance edit' needs something to change: --title, --description, --start, --end, "
          + "--servers, --public or --active")
    }
    let api = try await APICredential.client(context)
    let window = try await APIRequest.run(
      "Changing the window", console: console, notFound: notFound(id), forbidden: forbidden
    ) { try await api.updateMaintenance(id: id, changes) }
    try report(window, "Updated", console)
  }

  /// `maintenance delete ID` (confirmed before it runs).
  static func delete(_ context: CommandContext) async throws {
    let console = context.console
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    try await APIRequest.run(
      "Deleting the window", console: console, notFound: notFound(id), forbidden: forbidden
    ) { try await api.deleteMaintenance(id: id) }
    if console.json {
      console.json(try WireJSON.encode(["deleted": id]))
    } else {
      console.line(TerminalText.safe("Deleted maintenance window \(id)."))
    }
  }

  private static func report(_ window: Maintenance, _ verb: String, _ console: Console) throws {
    if console.json {
      console.json(try WireJSON.encode(window))
      return
    }
    let state = window.active ? "" : ", inactive"
    console.line(
      TerminalText.safe(
        "\(verb) maintenance \(window.title) from \(Formatting.time(window.startAt)) to "
          + "\(Formatting.time(window.endAt)) for "
          + "\(IncidentArguments.serversCell(window.serverIDs))\(state) (id \(window.id))."))
  }
}
