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
    let api = try await APICredential.client(context)
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

  /// `alerts rules [enable|disable ID]` (admins): the alert rules, or one turned on or off.
  static func rules(_ context: CommandContext) async throws {
    let positionals = Array(context.arguments.positionals.dropFirst())
    let console = context.console
    let api = try await APICredential.client(context)
    let forbidden = "only an admin may see or change alert rules"
    switch (positionals.first, positionals.count) {
    case (nil, _):
      let rules = try await APIRequest.run(
        "Loading alert rules", console: console, forbidden: forbidden
      ) { try await api.alertRules() }
      if console.json {
        console.json(try WireJSON.encode(rules))
      } else if rules.isEmpty {
        console.line("No alert rules.")
      } else {
        var table = TextTable(columns: [
          .left("RULE"), .left("ON"), .left("CHECKS"), .left("MODE"), .left("ID"),
        ])
        for rule in rules {
          table.append([
            rule.name, rule.enabled ? "yes" : "no", rule.ruleTypes.joined(separator: ","),
            rule.triggerMode?.rawValue ?? "", rule.id,
          ])
        }
        console.line(table.render())
      }
    case (let action?, 2) where action == "enable" || action == "disable":
      let id = positionals[1]
      let rule = try await APIRequest.run(
        action == "enable" ? "Enabling the rule" : "Disabling the rule", console: console,
        notFound: "no alert rule '\(id)' (see 'serverbee alerts rules')", forbidden: forbidden
      ) { try await api.setAlertRule(id: id, enabled: action == "enable") }
      if console.json {
        console.json(try WireJSON.encode(rule))
      } else {
        console.line(
          TerminalText.safe(
            "Alert rule \(rule.name) is \(rule.enabled ? "enabled" : "disabled") (id \(rule.id))."))
      }
    default:
      throw CommandLineError(
        .usage, "use 'serverbee alerts rules' or 'serverbee alerts rules enable|disable ID'")
    }
  }
}
