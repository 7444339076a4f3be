import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee alerts show KEY`, `alerts rules`, `alerts rules states ID` and
/// `alerts rules enable|disable ID`.
enum AlertCommands {
  /// Shows the alert detail of a key from `serverbee alerts` (a `v1.` key or `rule:server`).
  static func show(_ context: CommandContext) async throws {
    let key: AlertKey
    do {
      key = try AlertKey(parsing: context.arguments.argument(0))
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

  private static let forbidden = "only an admin may see or change alert rules"

  /// `alerts rules` (admins): the alert rules.
  static func rules(_ context: CommandContext) async throws {
    let rules = try await ListOutput.load(context, "Loading alert rules", forbidden: forbidden) {
      try await $0.alertRules()
    }
    try await ListOutput.print(
      rules, empty: "No alert rules.", console: context.console,
      columns: [.left("RULE"), .left("ON"), .left("CHECKS"), .left("MODE"), .left("ID")]
    ) { rule in
      [
        rule.name, rule.enabled ? "yes" : "no", rule.ruleTypes.joined(separator: ","),
        rule.triggerMode?.rawValue ?? "", rule.id,
      ]
    }
  }

  /// `alerts rules enable|disable ID` (admins): one rule turned on or off.
  static func setRule(_ context: CommandContext, enabled: Bool) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let id = context.arguments.argument(0)
    let rule = try await APIRequest.run(
      enabled ? "Enabling the rule" : "Disabling the rule", console: console,
      notFound: "no alert rule '\(id)' (see 'serverbee alerts rules')", forbidden: forbidden
    ) { try await api.setAlertRule(id: id, enabled: enabled) }
    if console.json {
      console.json(try WireJSON.encode(rule))
    } else {
      console.line(
        TerminalText.safe(
          "Alert rule \(rule.name) is \(rule.enabled ? "enabled" : "disabled") (id \(rule.id))."))
    }
  }

  /// `alerts rules states ID` (admins): the rule's current cycle on each server, firing first.
  static func ruleStates(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let states = try await ListOutput.load(
      context, "Loading the rule's states",
      notFound: "no alert rule '\(id)' (see 'serverbee alerts rules')", forbidden: forbidden
    ) { try await $0.alertRuleStates(ruleID: id) }
    // Firing first.
    try await ListOutput.print(
      states, empty: TerminalText.safe("Alert rule \(id) has not fired on any server."),
      console: context.console
    ) { states in
      ListOutput.table(
        states.filter { !$0.resolved } + states.filter(\.resolved),
        columns: [
          .left("SERVER"), .left("STATUS"), .left("SINCE"), .right("COUNT"), .left("RESOLVED"),
          .left("NOTIFIED"), .left("SERVER ID"),
        ]
      ) { state in
        [
          state.serverName, state.resolved ? "resolved" : "firing",
          Formatting.time(state.firstTriggeredAt), "\(state.count)",
          state.resolvedAt.map(Formatting.time) ?? (state.resolved ? "yes" : "-"),
          state.lastNotifiedAt.map(Formatting.time) ?? "-", state.serverID,
        ]
      }
    }
  }
}
