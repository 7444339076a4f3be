/// The `--help` texts.
enum HelpText {
  /// The global help: usage, global options and the list of commands.
  static func global() -> String {
    var lines = [
      "serverbee: a ServerBee mobile client for the terminal",
      "",
      "usage: serverbee [--home DIR] [--server URL] [--json] COMMAND [OPTIONS]",
      "",
      "commands:",
    ]
    let width = CommandCatalog.commands.map(\.name.count).max() ?? 0
    for command in CommandCatalog.commands {
      lines.append("  " + pad(command.name, width) + "  " + command.summary)
    }
    lines += ["", "global options:"] + optionLines(CommandCatalog.globalOptions)
    lines += [
      "", "environment:",
      "  SERVERBEE_HOME     the state directory (when --home is not given)",
      "  SERVERBEE_CA_FILE  a PEM CA to trust as well (private CA or self-signed server)",
      "  SERVERBEE_RELAY    the serverbee-relay of this device (when --relay is not given)",
      "  SERVERBEE_API_KEY  an API key instead of a session, with --server, for: "
        + CommandCatalog.commands.filter { $0.options.contains { $0.name == "api-key" } }
        .map(\.name).joined(separator: ", "),
    ]
    lines += [
      "", "Start with 'serverbee demo'. 'serverbee COMMAND --help' describes one command.",
      "Exit codes: 0 success, 1 failure, 64 usage error.",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The help of one command.
  static func command(_ spec: CommandSpec) -> String {
    var lines = ["usage: serverbee \(spec.usage)", "", spec.summary + ".", "", spec.discussion]
    if !spec.options.isEmpty {
      lines += ["", "options:"] + optionLines(spec.options)
    }
    lines += ["", "global options:"] + optionLines(CommandCatalog.globalOptions)
    lines += ["", "examples:"] + spec.examples.map { "  " + $0 }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func optionLines(_ options: [OptionSpec]) -> [String] {
    let labels = options.map { "--" + $0.name + ($0.valueName.map { " " + $0 } ?? "") }
    let width = labels.map(\.count).max() ?? 0
    return zip(labels, options).map { "  " + pad($0, width) + "  " + $1.help }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
