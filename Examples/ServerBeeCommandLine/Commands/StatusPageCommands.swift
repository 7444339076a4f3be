import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee status-page [show | set …]` (reading: anyone signed in; changing: admins;
/// Protocol/Incidents.md §4).
enum StatusPageCommands {
  /// `status-page` and `status-page show`.
  static func show(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let page = try await APIRequest.run("Loading the status page", console: console) {
      try await api.statusPage()
    }
    try present(page, console)
  }

  /// `status-page set [--title] [--description] [--servers] [--enabled] …`: only what is
  /// given is sent.
  static func set(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    var changes = StatusPageUpdate()
    changes.title = arguments.values["title"]
    changes.description = arguments.values["description"]
    changes.serverIDs = IncidentArguments.serverIDs(arguments)
    changes.enabled = try IncidentArguments.switchValue(arguments, "enabled")
    changes.uptimeYellowThreshold = try IncidentArguments.number(arguments, "yellow")
    changes.uptimeRedThreshold = try IncidentArguments.number(arguments, "red")
    changes.defaultLayout = arguments.values["layout"]
    changes.showIPQuality = try IncidentArguments.switchValue(arguments, "ip-quality")
    changes.showServerDetail = try IncidentArguments.switchValue(arguments, "server-detail")
    changes.showNetwork = try IncidentArguments.switchValue(arguments, "network")
    changes.showIncidents = try IncidentArguments.switchValue(arguments, "incidents")
    changes.showMaintenance = try IncidentArguments.switchValue(arguments, "maintenance")
    guard !changes.isEmpty else {
      throw CommandLineError(
        .usage,
        "'status-page set' needs something to change (see 'serverbee status-page set --help')")
    }
    let api = try await APICredential.client(context)
    let update = changes
    let page = try await APIRequest.run(
      "Changing the status page", console: console,
      forbidden: "only an admin may change the status page"
    ) { try await api.updateStatusPage(update) }
    if !console.json { console.line("Updated the status page.") }
    try present(page, console)
  }

  private static func present(_ page: StatusPageConfig, _ console: Console) throws {
    if console.json {
      console.json(try WireJSON.encode(page))
      return
    }
    let yesNo: (Bool) -> String = { $0 ? "yes" : "no" }
    let servers = page.serverIDs.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") }
    console.line(
      TextTable.keyValue([
        ("Title:", page.title),
        ("Description:", page.description.map { $0.isEmpty ? "(blank)" : $0 } ?? "-"),
        ("Enabled:", yesNo(page.enabled)),
        ("Servers:", servers ?? page.serverIDsJSON),
        ("Layout:", page.defaultLayout),
        (
          "Uptime:",
          "yellow below \(page.uptimeYellowThreshold)%, red below "
            + "\(page.uptimeRedThreshold)%"
        ),
        ("Grouped:", yesNo(page.groupByServerGroup)),
        (
          "Shows:",
          [
            ("IP quality", page.showIPQuality), ("server detail", page.showServerDetail),
            ("network", page.showNetwork), ("incidents", page.showIncidents),
            ("maintenance", page.showMaintenance),
          ].map { "\($0.0) \(yesNo($0.1))" }.joined(separator: ", ")
        ),
        ("Updated:", Formatting.time(page.updatedAt)),
      ]))
  }
}
