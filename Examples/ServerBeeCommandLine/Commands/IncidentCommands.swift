import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee incidents [create TITLE … | update ID --status S --message M | delete ID]`
/// (admins; Protocol/Incidents.md §2).
enum IncidentCommands {
  private static let forbidden = "only an admin may see or change incidents"

  private static func notFound(_ id: String) -> String {
    "no incident '\(id)' (see 'serverbee incidents')"
  }

  /// `incidents [--status S]`: newest first.
  static func list(_ context: CommandContext) async throws {
    let status = try IncidentArguments.status(context.arguments)
    let incidents = try await ListOutput.load(context, "Loading incidents", forbidden: forbidden) {
      try await $0.incidents(status: status)
    }
    try await ListOutput.print(
      incidents, empty: "No incidents.", console: context.console,
      columns: [
        .left("TITLE"), .left("STATUS"), .left("SEVERITY"), .left("SERVERS"), .left("PUBLIC"),
        .left("CREATED"), .left("RESOLVED"), .left("ID"),
      ]
    ) { incident in
      [
        Formatting.excerpt(incident.title), incident.status.rawValue, incident.severity.rawValue,
        IncidentArguments.serversCell(incident.serverIDs), incident.isPublic ? "yes" : "no",
        Formatting.time(incident.createdAt), incident.resolvedAt.map(Formatting.time) ?? "-",
        incident.id,
      ]
    }
  }

  /// `incidents create TITLE [--status S] [--severity S] [--servers IDS] [--public]`.
  static func create(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let request = IncidentCreateRequest(
      title: arguments.argument(0), status: try IncidentArguments.status(arguments),
      severity: arguments.values["severity"].map { IncidentSeverity(rawValue: $0) },
      serverIDs: IncidentArguments.serverIDs(arguments),
      isPublic: arguments.flags.contains("public") ? true : nil)
    let api = try await APICredential.client(context)
    let incident = try await APIRequest.run(
      "Opening the incident", console: console, forbidden: forbidden
    ) { try await api.createIncident(request) }
    if console.json {
      console.json(try WireJSON.encode(incident))
    } else {
      console.line(
        TerminalText.safe(
          "Opened incident \(incident.title) (\(incident.status.rawValue), "
            + "\(incident.severity.rawValue), id \(incident.id))."))
    }
  }

  /// `incidents update ID --status S --message M`.
  static func update(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let id = arguments.argument(0)
    guard let status = try IncidentArguments.status(arguments) else {
      throw CommandLineError(.usage, "--status S is required")
    }
    guard let message = arguments.values["message"] else {
      throw CommandLineError(.usage, "--message TEXT is required")
    }
    let api = try await APICredential.client(context)
    let update = try await APIRequest.run(
      "Posting the update", console: console, notFound: notFound(id), forbidden: forbidden
    ) { try await api.postIncidentUpdate(incidentID: id, status: status, message: message) }
    if console.json {
      console.json(try WireJSON.encode(update))
    } else {
      console.line(
        TerminalText.safe(
          "Incident \(update.incidentID) is now \(update.status.rawValue) "
            + "(update \(update.id))."))
    }
  }

  /// `incidents delete ID` (confirmed before it runs).
  static func delete(_ context: CommandContext) async throws {
    let console = context.console
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    try await APIRequest.run(
      "Deleting the incident", console: console, notFound: notFound(id), forbidden: forbidden
    ) { try await api.deleteIncident(id: id) }
    if console.json {
      console.json(try WireJSON.encode(["deleted": id]))
    } else {
      console.line(TerminalText.safe("Deleted incident \(id), with its updates."))
    }
  }
}
